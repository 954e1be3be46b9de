import { beforeAll, describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { catalogueLabel, roleLabel } from './labels.ts';
import { auditDetailText, auditTarget } from '../features/audit/auditDetail.ts';

// The real catalogues (vitest runs through vite, which reads them as the build does).
const files = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', { eager: true, import: 'default' });
const load = (lang: string, ns: string): Record<string, unknown> => files[`../locales/${lang}/${ns}.json`]!;

beforeAll(async () => {
  // The real catalogues, on the i18next instance the console uses.
  const resources: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const lang of ['en', 'zh', 'ko'])
    resources[lang] = Object.fromEntries(
      ['platforms', 'terminals', 'roles', 'audit', 'tasks', 'archives'].map((ns) => [ns, load(lang, ns)]),
    );
  await i18next.init({ resources, lng: 'en', fallbackLng: false, interpolation: { escapeValue: false } });
});

describe('catalogue labels', () => {
  it('shows a code by the label of the first catalogue that knows it', async () => {
    const site = ['platforms:subTypes', 'platforms:options.damType', 'platforms:options.tailingsType'];
    expect(catalogueLabel('landslide', ...site)).toBe('Landslide');
    expect(catalogueLabel('concrete', ...site)).toBe('Concrete dam');
    expect(catalogueLabel('valley', ...site)).toBe('Valley');
    expect(catalogueLabel('gateway', 'terminals:types')).toBe('Gateway');
    await i18next.changeLanguage('zh');
    expect(catalogueLabel('concrete', ...site)).toBe('混凝土坝');
    expect(catalogueLabel('valley', ...site)).toBe('山谷型');
    expect(catalogueLabel('gateway', 'terminals:types')).toBe('网关');
    await i18next.changeLanguage('ko');
    expect(catalogueLabel('gateway', 'terminals:types')).toBe('게이트웨이');
    await i18next.changeLanguage('en');
  });

  it('shows text no catalogue knows as it is, and nothing for no value', () => {
    expect(catalogueLabel('Custom RTU v2', 'terminals:types')).toBe('Custom RTU v2');
    expect(catalogueLabel('a.b:c', 'terminals:types')).toBe('a.b:c');
    expect(catalogueLabel(null, 'terminals:types')).toBe('');
    expect(catalogueLabel('', 'terminals:types')).toBe('');
  });

  it('translates built-in roles by their code, never roles someone created or renamed', async () => {
    await i18next.changeLanguage('zh');
    expect(roleLabel({ code: 'superAdmin', name: 'Super Administrator' })).toBe('超级管理员');
    expect(roleLabel({ code: 'user', name: 'User' })).toBe('普通用户');
    expect(roleLabel({ code: 'user', name: 'Field staff' })).toBe('Field staff');
    expect(roleLabel({ code: 'inspector', name: 'User' })).toBe('User');
    await i18next.changeLanguage('ko');
    expect(roleLabel({ code: 'superAdmin', name: 'Super Administrator' })).toBe('최고 관리자');
    await i18next.changeLanguage('en');
  });
});

describe('audit details', () => {
  it('reads as field labels and before → after, never JSON', async () => {
    expect(auditDetailText({ action: 'user.edit', target: 'li', detail: { roleId: [2, 5], scopeAll: false } })).toBe(
      'Role: 2 → 5; All sites: No',
    );
    expect(auditDetailText({ action: 'permission.edit', target: 'sys:new', detail: { from: 'sys:old' } })).toBe(
      'Code: sys:old → sys:new',
    );
    expect(auditDetailText({ action: 'login.locked', target: null, detail: { fails: 5, stage: 1 } })).toBe(
      'Failed attempts: 5; Lock: Locked for 10 minutes',
    );
    expect(auditDetailText({ action: 'login.failure', target: null, detail: { reason: 'disabled' } })).toBe(
      'Reason: Account disabled',
    );
    expect(auditDetailText({ action: 'role.permissions', target: 'r', detail: { added: [3, 4], removed: [] } })).toBe(
      'Added: 3, 4; Removed: none',
    );
    expect(auditDetailText({ action: 'user.edit', target: 'x', detail: { name: { from: 'A', to: 'B' } } })).toBe(
      'Name: A → B',
    );
    expect(auditDetailText({ action: 'logout', target: null, detail: null })).toBe('');
    await i18next.changeLanguage('zh');
    expect(auditDetailText({ action: 'user.edit', target: 'li', detail: { roleId: [2, 5], scopeAll: true } })).toBe(
      '角色: 2 → 5; 全部站点: 是',
    );
    expect(auditTarget('reservoir:7')).toBe('水库 #7');
    expect(auditTarget('li')).toBe('li');
    await i18next.changeLanguage('en');
  });

  it('tasks and safety records: actions, codes and targets by their labels in en, zh and ko', async () => {
    const review = {
      action: 'task.review',
      target: 'task:12',
      detail: { name: 'Drain', result: 'pass', grade: 'good' },
    };
    const rectify = {
      action: 'inspection.edit',
      target: 'inspection:3',
      detail: { state: { from: 'incomplete', to: 'completed' } },
    };
    const expected = {
      en: [
        'Task #12',
        'Name: Drain; Result: Pass; Grade: Good',
        'Rectification: Incomplete → Completed',
        'Task reviewed',
      ],
      zh: ['任务 #12', '名称: Drain; 结果: 通过; 完成等级: 良好', '整改状态: 未完成 → 已完成', '审核任务'],
      ko: ['작업 #12', '이름: Drain; 결과: 통과; 완료 등급: 양호', '시정 상태: 미완료 → 완료', '작업 검토'],
    };
    for (const [lang, [target, detail, change, action]] of Object.entries(expected)) {
      await i18next.changeLanguage(lang);
      expect(auditTarget(review.target)).toBe(target);
      expect(auditDetailText(review)).toBe(detail);
      expect(auditDetailText(rectify)).toBe(change);
      expect(i18next.t('audit:actions.task_review')).toBe(action);
    }
    await i18next.changeLanguage('en');
  });
});
