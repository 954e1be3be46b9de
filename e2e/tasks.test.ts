import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  api,
  apiLogin,
  expectNoRawKeys,
  ingest,
  launchBrowser,
  newPage,
  resumeSession,
  shot,
  startServer,
  type RunningServer,
  type Terminal,
} from './harness.ts';

/**
 * Field tasks in a real browser (en): an alert on a dam becomes a task from its detail drawer (site, device,
 * evidence and deadline filled in; the duty engineer plans it from yesterday morning), assigned to a field engineer
 * with a reviewer; the engineer starts it and reports two days of progress (yesterday's, reported late with its day,
 * and today's), submits it; the daily history shows both days; the reviewer fails it with a note, the engineer
 * reports again and submits, the reviewer passes it with a grade; the alert's record shows the task completed. Then
 * every task screen in en, zh and ko at 1280 px: test-results/screenshots/tasks-*.png.
 */

interface RegionNode {
  code: string;
  children?: RegionNode[];
}
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A calendar day (yyyy-MM-dd, UTC like the browser here) `n` days from today. */
const dayOf = (n: number): string => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);
const slow = { timeout: 30_000, interval: 250 };
const dropdown = (page: Page) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();
const PASSWORD = 'Field-task-pass-1';

/** Types a value into an antd picker's input and confirms it. */
async function typeInto(page: Page, selector: string, value: string): Promise<void> {
  const input = page.locator(selector);
  await input.click();
  await input.fill(value);
  await input.press('Enter');
}

async function pick(page: Page, id: string, text: string): Promise<void> {
  await page.locator(`#${id}`).click();
  await dropdown(page).locator('.ant-select-item-option').filter({ hasText: text }).first().click();
}

describe('tasks in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let alertId = 0;
  let taskId = 0;

  beforeAll(async () => {
    server = await startServer();
    const token = await apiLogin(server.url);
    let node = (await api<RegionNode[]>(server.url, token, 'GET', '/api/v2/data/information/region/getTree'))[0]!;
    while (node.children?.length) node = node.children[0]!;
    const siteId = (
      await api<{ platformId: number }>(server.url, token, 'POST', '/api/v2/data/information/platform/tailings/add', {
        name: 'Baiyangping Tailings Dam',
        regionCode: node.code,
        lon: 101.5,
        lat: 26.6,
      })
    ).platformId;
    const term = await api<Terminal>(server.url, token, 'POST', '/api/v2/data/information/terminal/add', {
      platformId: siteId,
      name: 'Dam RTU',
      serial: 'BYP-RTU-01',
      protocolType: 'HTTP',
    });
    const deviceId = (
      await api<{ deviceId: number }>(server.url, token, 'POST', '/api/v2/data/information/device/common/add', {
        deviceName: 'Piezometer P3',
        number: 'BYP-P3',
        moduleId: 16,
        platformId: siteId,
        terminalId: term.terminalId,
        ip: '10.0.7.3',
        port: 502,
      })
    ).deviceId;
    const contact = await api<{ id: number }>(server.url, token, 'POST', '/api/v2/data/alert/contract/add', {
      name: 'Duty engineer Li',
      email: 'duty@example.test',
      language: 'en',
    });
    const group = await api<{ id: number }>(server.url, token, 'POST', '/api/v2/data/alert/group/add', {
      name: 'Dam duty team',
      contactIds: String(contact.id),
      platformIds: String(siteId),
    });
    await api(server.url, token, 'POST', '/api/v2/data/alert/manage/value/add', {
      deviceId,
      quantity: 'waterLevel',
      level: 3,
      valueType: 'threshold',
      value: 15,
      groupId: group.id,
      channels: 'mail',
      pushIntervalMinutes: 30,
      enabled: 1,
    });
    await ingest(server.url, term, 'BYP-P3', [
      { ts: Date.now() - HOUR, values: { waterLevel: 12.1 } },
      { ts: Date.now(), values: { waterLevel: 16.4 } },
    ]);
    // The field engineer (my tasks) and the reviewer, both of this site.
    type Node = { id: number; code: string; children?: Node[] };
    const tree = await api<Node[]>(server.url, token, 'GET', '/api/v2/manage/permission/getTree');
    const ids = new Map(tree.flatMap((p) => [p, ...(p.children ?? [])]).map((p) => [p.code, p.id]));
    for (const [code, name, perms] of [
      ['fieldeng', 'Zhao Lei', ['index', 'task', 'task:receivetask']],
      ['reviewer', 'Wang Jian', ['index', 'task', 'task:reviewtask']],
    ] as const) {
      const role = await api<{ id: number }>(server.url, token, 'POST', '/api/v2/manage/role/add', {
        name: `${code} role`,
        code: `${code}Role`,
      });
      await api(server.url, token, 'POST', '/api/v2/manage/role/setPermissions', {
        roleId: role.id,
        permissionIds: perms.map((p) => ids.get(p)!),
      });
      await api(server.url, token, 'POST', '/api/v2/manage/user/add', {
        account: code,
        password: PASSWORD,
        name,
        roleId: role.id,
        scopeAll: false,
        platformIds: [siteId],
      });
    }
    // The reading is judged by the alert engine after its commit: wait for the alert.
    for (let i = 0; i < 120 && !alertId; i++) {
      const page = await api<{ list: { id: number }[] }>(
        server.url,
        token,
        'GET',
        '/api/v2/data/alert/getByPlatformId',
        { pageSize: 5 },
      );
      alertId = page.list[0]?.id ?? 0;
      if (!alertId) await new Promise((r) => setTimeout(r, 250));
    }
    if (!alertId) throw new Error('no alert was raised');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('takes a task from an alert through two days of progress, a failed and a passed review (en)', async () => {
    const admin = await newPage(browser, 'en-US');
    await admin.setViewportSize({ width: 1280, height: 860 });
    await resumeSession(admin, server.url);
    await admin.goto(`${server.url}/#/alert/alert`);
    await admin.locator(`tr[data-alert-id="${alertId}"] [data-testid="alert-open"]`).click();
    await admin.locator('[data-testid="alert-tasks"]').waitFor();
    expect(await admin.locator('[data-testid="alert-tasks"]').textContent()).toContain('No task yet');
    await admin.locator('[data-testid="alert-create-task"]').click();

    // The form is filled from the alert: site, name, priority (orange: important, urgent), period, description.
    await admin.locator('[data-testid="task-from-alert"]').waitFor();
    await expect.poll(() => admin.locator('#task-name').inputValue(), slow).toContain(`Handle alert #${alertId}`);
    expect(await admin.locator('[data-testid="task-from-alert"]').textContent()).toContain('Piezometer P3');
    await admin.locator('#task-project').fill('Dam safety 2026');
    await admin.locator('#task-constructionPoint').fill('Toe drain P3');
    await pick(admin, 'task-assignee', 'Zhao Lei');
    await pick(admin, 'task-reviewer', 'Wang Jian');
    await admin.locator('#task-acceptance').fill('Photos of the toe and a flow figure');
    // Planned from yesterday morning (the seepage was seen then) to the deadline in three days.
    const period = admin.locator('.ant-picker-range:has(#task-period) input');
    // Each end confirmed by the panel's OK (Enter in a closed picker would submit the form).
    const ok = admin.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-ok button');
    await period.first().click();
    await period.first().fill(`${dayOf(-1)} 08:00`);
    await ok.click();
    await period.last().click();
    await period.last().fill(`${dayOf(3)} 18:00`);
    await ok.click();
    await expect.poll(() => period.last().inputValue(), slow).toBe(`${dayOf(3)} 18:00`);
    await expect.poll(() => period.first().inputValue()).toBe(`${dayOf(-1)} 08:00`);
    await shot(admin, 'tasks-createtask-en');
    await admin.locator('[data-testid="task-save"]').click();
    await admin.waitForURL(/basicinfo1\?id=\d+/);
    taskId = Number(/id=(\d+)/.exec(admin.url())![1]);
    const detail = admin.locator('[data-testid="task-detail"]');
    await expect.poll(() => detail.textContent(), slow).toContain('Not started');
    expect(await detail.textContent()).toContain('Important, urgent');
    expect(await detail.textContent()).toContain('Piezometer P3');

    // The engineer: start, two days of progress, submit.
    const eng = await newPage(browser, 'en-US');
    await resumeSession(eng, server.url, 'fieldeng', PASSWORD);
    await eng.goto(`${server.url}/#/task/receivetask`);
    await eng.locator('[data-testid="task-table"] [data-testid="task-open"]').first().click();
    await eng.locator('[data-testid="task-start"]').click();
    const report = async (text: string, rate: string, day?: string) => {
      await eng.locator('[data-testid="task-report"]').click();
      // The day: today by default; yesterday's work reported late names its day.
      await expect.poll(() => eng.locator('#task-progress-day').inputValue()).toBe(dayOf(0));
      if (day) await typeInto(eng, '#task-progress-day', day);
      await eng.locator('#task-progress-text').fill(text);
      await eng.locator('#task-progress-rate').fill(rate);
      await eng.locator('#task-progress-lat').fill('26.61234');
      await eng.locator('#task-progress-lon').fill('101.51234');
      await eng.locator('[data-testid="task-report-save"]').click();
      await expect
        .poll(() => eng.locator('[data-testid="task-progress-entry"]').allTextContents(), slow)
        .toEqual(expect.arrayContaining([expect.stringContaining(text)]));
    };
    await report('Day 1: walked the toe, seepage clear, photos taken', '40', dayOf(-1));
    await report('Day 2: measured the flow at P3, 0.8 l/s', '100');
    await shot(eng, 'tasks-basicinfo-en');
    // The daily history has the task's two days, newest first.
    await admin.goto(`${server.url}/#/task/dailyHistory`);
    const rows = admin.locator('[data-testid="task-history"] tr.ant-table-row').filter({ hasText: `#${alertId}` });
    await expect
      .poll(async () => (await rows.allTextContents()).map((r) => r.slice(0, 10)), slow)
      .toEqual([dayOf(0), dayOf(-1)]);
    expect(await rows.nth(1).textContent()).toContain('Day 1: walked the toe');
    expect(await rows.nth(0).textContent()).toContain('Day 2: measured the flow');
    await shot(admin, 'tasks-dailyHistory-two-days-en');
    await eng.locator('[data-testid="task-submit"]').click();
    await expect.poll(() => eng.locator('[data-testid="task-detail"]').textContent(), slow).toContain('To be reviewed');

    // The reviewer fails it with a note: back to ongoing.
    const rev = await newPage(browser, 'en-US');
    await resumeSession(rev, server.url, 'reviewer', PASSWORD);
    const review = async (result: 'pass' | 'fail', extra: () => Promise<void>) => {
      await rev.goto(`${server.url}/#/task/reviewtask`);
      await rev.locator('[data-testid="task-table"] [data-testid="task-open"]').first().click();
      await rev.locator('[data-testid="task-review"]').click();
      await rev.locator(`[data-testid="task-review-${result}"]`).click();
      await extra();
      await rev.locator('[data-testid="task-review-save"]').click();
      await rev.locator('[data-testid="task-review"]').waitFor({ state: 'detached' });
    };
    await review('fail', () => rev.locator('#task-review-note').fill('No photo of the flow measurement'));
    await expect.poll(() => rev.locator('[data-testid="task-detail"]').textContent(), slow).toContain('Ongoing');
    expect(await rev.locator('[data-testid="task-story"]').textContent()).toContain('No photo of the flow measurement');

    // The engineer reports again and submits; the reviewer passes it, excellent.
    await eng.reload();
    await report('Day 2: flow measurement photographed', '100');
    await eng.locator('[data-testid="task-submit"]').click();
    await expect.poll(() => eng.locator('[data-testid="task-detail"]').textContent(), slow).toContain('To be reviewed');
    await review('pass', () => pick(rev, 'task-review-grade', 'Excellent'));
    await expect.poll(() => rev.locator('[data-testid="task-detail"]').textContent(), slow).toContain('Completed');
    expect(await rev.locator('[data-testid="task-detail"]').textContent()).toContain('Excellent');
    await shot(rev, 'tasks-basicinfo-completed-en');

    // The alert's record shows the task, completed.
    await admin.goto(`${server.url}/#/alert/alert?id=${alertId}`);
    await admin.reload();
    const linked = admin.locator('[data-testid="alert-task"]');
    await expect.poll(() => linked.textContent(), slow).toContain('Completed');
    expect(await linked.textContent()).toContain('Zhao Lei');
    await shot(admin, 'tasks-alert-en');
    await eng.context().close();
    await rev.context().close();
    await admin.context().close();
  }, 300_000);

  it('every task screen in en, zh and ko at 1280 px', async () => {
    for (const [lang, locale] of [
      ['en', 'en-US'],
      ['zh', 'zh-CN'],
      ['ko', 'ko-KR'],
    ] as const) {
      const page = await newPage(browser, locale);
      await page.setViewportSize({ width: 1280, height: 860 });
      await resumeSession(page, server.url);
      for (const screen of [
        'receivetask',
        'assignedtask',
        'reviewtask',
        'taskQuery',
        'taskEvaluation',
        'dailyHistory',
        `basicinfo?id=${taskId}`,
        'createtask',
      ]) {
        await page.goto(`${server.url}/#/task/${screen}`);
        await page.locator('.ant-card:visible').first().waitFor();
        await shot(page, `tasks-${screen.replace(/\?.*/, '')}-${lang}`, undefined, 8_000);
      }
      // The audit log tells the task's story by labels: the review, its result and grade, the task as "Task #id".
      await page.goto(`${server.url}/#/system/audit`);
      const review = page.locator('[data-testid="audit-table"] tr.ant-table-row').filter({
        has: page.locator('[data-action="task.review"]'),
      });
      await expect.poll(() => review.count(), slow).toBe(2);
      const AUDIT = {
        en: ['Task reviewed', `Task #${taskId}`, 'Result: Pass', 'Grade: Excellent'],
        zh: ['审核任务', `任务 #${taskId}`, '结果: 通过', '完成等级: 优秀'],
        ko: ['작업 검토', `작업 #${taskId}`, '결과: 통과', '완료 등급: 우수'],
      }[lang];
      for (const text of AUDIT) expect(await review.first().textContent()).toContain(text);
      await expectNoRawKeys(page);
      await shot(page, `tasks-audit-${lang}`, undefined, 8_000);
      await page.context().close();
    }
  }, 300_000);
});
