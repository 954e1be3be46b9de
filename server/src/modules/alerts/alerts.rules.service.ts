import {
  ABOVE_BY_DEFAULT,
  ALERT_LEVELS,
  RULE_TEST_DEFAULT_DAYS,
  Status,
  checkAlertRule,
  parseAlertNumber,
  quantitiesOf,
  type AlertChannel,
  type AlertCriterionRow,
  type AlertLevel,
  type AlertRelationRow,
  type AlertRuleInput,
  type AlertRuleProblem,
  type AlertRuleRow,
  type AlertRuleTestResult,
  type AlertValueType,
  type Language,
  type RelationMode,
  type WindowUnit,
  type AlertDirection,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { AppError, isUniqueViolation } from '../../platform/http/errors.ts';
import type { MessageKey } from '../../platform/http/messages.ts';
import { evaluateFamily, lookbackOf } from './alerts.evaluate.ts';
import type { AlertEngine } from './alerts.engine.ts';
import { toEvalRule } from './alerts.engine.window.ts';
import { DAY, invalid, range, showNameOf } from './alerts.common.ts';
import * as rulesRepo from './alerts.rules.repository.ts';
import * as relationsRepo from './alerts.relations.repository.ts';
import * as evalRepo from './alerts.engine.repository.ts';

/**
 * The alert rules and their administration: alert values (with the spec §5 checks), testing a rule against
 * history, criteria and multi-device rules. Every change makes the engine reload the rules.
 */
export class AlertRulesService {
  constructor(
    private readonly ctx: AppContext,
    private readonly engine: AlertEngine,
  ) {}

  // ---------------------------------------------------------------------------------------------------
  // Alert values (rules)
  // ---------------------------------------------------------------------------------------------------

  private presentRule(r: rulesRepo.RuleWithDevice, lang: Language): AlertRuleRow {
    const sn = showNameOf(r.device.moduleId, r.quantity, lang);
    return {
      id: r.id,
      deviceId: r.deviceId,
      deviceName: r.device.name,
      deviceNumber: r.device.number,
      platformId: r.device.platformId,
      platformName: r.device.platformName,
      moduleId: r.device.moduleId,
      quantity: r.quantity,
      showName: sn.name,
      unit: sn.unit,
      level: r.level as AlertLevel,
      alertLevel: r.level as AlertLevel,
      valueType: r.valueType as AlertValueType,
      alertValueType: r.valueType === 'threshold' ? 'static plane' : r.valueType,
      value: r.value,
      alertValue: r.value,
      rateValue: r.rateValue,
      direction: r.direction as AlertDirection,
      windowN: r.windowN,
      windowUnit: r.windowUnit as WindowUnit | null,
      ratio: r.ratio,
      groupId: r.groupId,
      channels: r.channels as AlertChannel[],
      pushIntervalMinutes: r.pushIntervalMinutes,
      enabled: r.enabled,
      criterionId: r.criterionId,
      description: r.description,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  }

  async valuesByDevice(
    user: SessionUser,
    lang: Language,
    q: { deviceName?: string | undefined; deviceId?: number | undefined; quantity?: string | undefined },
  ): Promise<AlertRuleRow[]> {
    if (q.deviceId === undefined && !q.deviceName) throw new AppError(Status.invalid, 'alertDeviceRequired');
    const device = await rulesRepo.findDevice(this.ctx.db, user.scope, { id: q.deviceId, name: q.deviceName });
    if (!device) throw new AppError(Status.notFound, 'deviceNotFound');
    const rows = await rulesRepo.rulesOfDevice(this.ctx.db, user.scope, { deviceId: device.id, quantity: q.quantity });
    return rows.map((r) => this.presentRule(r, lang));
  }

  async valuesList(
    user: SessionUser,
    lang: Language,
    q: rulesRepo.RuleFilter & { pageNum: number; pageSize: number; sortField?: string; sortOrder?: string },
  ) {
    const r = await rulesRepo.listRules(this.ctx.db, user.scope, q);
    return {
      list: r.list.map((x) => this.presentRule(x, lang)),
      total: r.total,
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    };
  }

  /** Checks an alert value (spec §5) and its device, quantity and criterion; answers the row to store. */
  private async checkRule(user: SessionUser, lang: Language, b: AlertRuleInput): Promise<rulesRepo.RuleValues> {
    const { problems, rule } = checkAlertRule(b);
    if (problems.length || !rule) throw invalid(problems[0]!.key as MessageKey, problems, lang);
    const device = await rulesRepo.findDevice(this.ctx.db, user.scope, { id: b.deviceId });
    if (!device) throw new AppError(Status.notFound, 'deviceNotFound');
    if (!quantitiesOf(device.moduleId).some((x) => x.key === b.quantity))
      throw new AppError(Status.invalid, 'alertQuantityUnknown', { quantity: b.quantity });
    if (b.criterionId !== undefined && !(await rulesRepo.criterionExists(this.ctx.db, b.criterionId)))
      throw new AppError(Status.notFound, 'alertCriterionNotFound');
    return {
      device_id: device.id,
      quantity: b.quantity,
      level: rule.level,
      value_type: rule.valueType,
      value: rule.value,
      rate_value: rule.rateValue,
      direction: rule.direction,
      window_n: rule.windowN,
      window_unit: rule.windowUnit,
      ratio: rule.ratio,
      group_id: b.groupId ?? null,
      channels: [...new Set(b.channels)],
      push_interval_minutes: b.pushIntervalMinutes ?? 0,
      enabled: b.enabled ?? true,
      criterion_id: b.criterionId ?? null,
      description: b.description ?? null,
    };
  }

  async addRule(user: SessionUser, lang: Language, b: AlertRuleInput): Promise<number> {
    const v = await this.checkRule(user, lang, b);
    try {
      const id = await rulesRepo.insertRule(this.ctx.db, v, user.id);
      this.engine.invalidate();
      return id;
    } catch (e) {
      if (isUniqueViolation(e, 'alert_rules_unique')) throw new AppError(Status.conflict, 'alertRuleExists');
      throw e;
    }
  }

  async editRule(user: SessionUser, lang: Language, id: number, b: AlertRuleInput): Promise<void> {
    const old = await rulesRepo.ruleById(this.ctx.db, user.scope, id);
    if (!old) throw new AppError(Status.notFound, 'alertRuleNotFound');
    const v = await this.checkRule(user, lang, { ...b, enabled: b.enabled ?? old.enabled });
    try {
      await rulesRepo.updateRule(this.ctx.db, id, v);
      this.engine.invalidate();
    } catch (e) {
      if (isUniqueViolation(e, 'alert_rules_unique')) throw new AppError(Status.conflict, 'alertRuleExists');
      throw e;
    }
  }

  async deleteRule(user: SessionUser, id: number): Promise<void> {
    if (!(await rulesRepo.ruleById(this.ctx.db, user.scope, id)))
      throw new AppError(Status.notFound, 'alertRuleNotFound');
    await rulesRepo.deleteRule(this.ctx.db, id);
    this.engine.invalidate();
  }

  async enableRule(user: SessionUser, id: number, enabled: boolean): Promise<void> {
    if (!(await rulesRepo.ruleById(this.ctx.db, user.scope, id)))
      throw new AppError(Status.notFound, 'alertRuleNotFound');
    await rulesRepo.setRuleEnabled(this.ctx.db, id, enabled);
    this.engine.invalidate();
  }

  /**
   * Evaluates a rule (saved, or the unsaved fields of the form) over stored readings of a period (default the
   * last 30 days) exactly as live evaluation would, without storing anything.
   */
  async testRule(
    user: SessionUser,
    lang: Language,
    b: Partial<AlertRuleInput> & {
      id?: number | undefined;
      days?: number | undefined;
      startTime?: string | undefined;
      endTime?: string | undefined;
    },
  ): Promise<AlertRuleTestResult> {
    let input: Partial<AlertRuleInput> = b;
    if (b.id !== undefined) {
      const r = await rulesRepo.ruleById(this.ctx.db, user.scope, b.id);
      if (!r) throw new AppError(Status.notFound, 'alertRuleNotFound');
      input = {
        deviceId: r.deviceId,
        quantity: r.quantity,
        level: r.level,
        valueType: r.valueType as AlertValueType,
        value: r.value,
        rateValue: r.rateValue ?? undefined,
        direction: r.direction as AlertDirection,
        windowN: r.windowN ?? undefined,
        windowUnit: (r.windowUnit as WindowUnit | null) ?? undefined,
        ratio: r.ratio ?? undefined,
      };
    }
    if (input.deviceId === undefined || !input.quantity) throw new AppError(Status.invalid, 'alertDeviceRequired');
    const { problems, rule } = checkAlertRule(input, false);
    if (problems.length || !rule) throw invalid(problems[0]!.key as MessageKey, problems, lang);
    const device = await rulesRepo.findDevice(this.ctx.db, user.scope, { id: input.deviceId });
    if (!device) throw new AppError(Status.notFound, 'deviceNotFound');
    if (!quantitiesOf(device.moduleId).some((x) => x.key === input.quantity))
      throw new AppError(Status.invalid, 'alertQuantityUnknown', { quantity: input.quantity });
    const r = range(b);
    const to = r.to ?? new Date();
    const from = r.from ?? new Date(to.getTime() - (b.days ?? RULE_TEST_DEFAULT_DAYS) * DAY);
    if (to.getTime() - from.getTime() > 366 * DAY) throw new AppError(Status.invalid, 'alertRangeInvalid');
    const evalRule = toEvalRule({ id: 0, ...rule });
    const lb = lookbackOf(evalRule);
    const rows = await evalRepo.readingsFor(this.ctx.db, [
      { deviceId: device.id, from: from.getTime() - lb.ms, to: to.getTime(), before: lb.points },
    ]);
    const s = { ts: [] as number[], v: [] as number[] };
    const idx: number[] = [];
    for (const row of rows) {
      const v = row.vals[input.quantity];
      if (typeof v !== 'number') continue;
      if (row.ts >= from.getTime()) idx.push(s.ts.length);
      s.ts.push(row.ts);
      s.v.push(v);
    }
    let base: number | null = null;
    if (rule.valueType === 'cumulativeChange') {
      const devs = await evalRepo.evalDevices(this.ctx.db, [device.id]);
      base =
        devs.get(device.id)?.initialValues[input.quantity] ??
        (await evalRepo.firstValues(this.ctx.db, device.id))[input.quantity] ??
        null;
    }
    const firings = evaluateFamily(s, idx, [evalRule], base);
    let alerts = 0;
    let prev = -2;
    for (const f of firings) {
      if (f.index !== prev + 1) alerts++;
      prev = f.index;
    }
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      readings: idx.length,
      firings: firings.length,
      alerts,
      firstAt: firings.length ? new Date(firings[0]!.ts).toISOString() : null,
      lastAt: firings.length ? new Date(firings.at(-1)!.ts).toISOString() : null,
      hits: firings.slice(0, 500).map((f) => ({
        ts: new Date(f.ts).toISOString(),
        value: f.value,
        metric: f.computed.metric ?? f.value,
        level: f.rule.level,
      })),
    };
  }

  // ---------------------------------------------------------------------------------------------------
  // Criteria
  // ---------------------------------------------------------------------------------------------------

  criteria(q: { keyword?: string | undefined; type?: string | undefined }): Promise<AlertCriterionRow[]> {
    return rulesRepo.listCriteria(this.ctx.db, q);
  }
  addCriterion(b: { name: string; type: string; description?: string | undefined }): Promise<number> {
    return rulesRepo.insertCriterion(this.ctx.db, { name: b.name, type: b.type, description: b.description ?? null });
  }
  async editCriterion(b: { id: number; name: string; type: string; description?: string | undefined }): Promise<void> {
    const ok = await rulesRepo.updateCriterion(this.ctx.db, b.id, {
      name: b.name,
      type: b.type,
      description: b.description ?? null,
    });
    if (!ok) throw new AppError(Status.notFound, 'alertCriterionNotFound');
  }
  async deleteCriterion(id: number): Promise<void> {
    if (!(await rulesRepo.deleteCriterion(this.ctx.db, id)))
      throw new AppError(Status.notFound, 'alertCriterionNotFound');
  }

  // ---------------------------------------------------------------------------------------------------
  // Multi-device rules
  // ---------------------------------------------------------------------------------------------------

  private async presentRelation(r: relationsRepo.RelationRecord, lang: Language): Promise<AlertRelationRow> {
    const devs = new Map(
      (
        await rulesRepo.findDevices(
          this.ctx.db,
          { all: true },
          r.members.map((m) => m.deviceId),
        )
      ).map((d) => [d.id, d]),
    );
    return {
      ...r,
      members: r.members.map((m) => {
        const d = devs.get(m.deviceId);
        return {
          deviceId: m.deviceId,
          deviceName: d?.name ?? '',
          quantity: m.quantity,
          showName: d ? showNameOf(d.moduleId, m.quantity, lang).name : m.quantity,
        };
      }),
      valueType: r.valueType as AlertValueType,
      direction: r.direction as AlertDirection,
      levels: r.levels.map((l) => ({ level: l.level as AlertLevel, value: l.value })),
      windowUnit: r.windowUnit as WindowUnit | null,
      mode: r.mode as RelationMode,
      channels: r.channels as AlertChannel[],
    };
  }

  async relations(
    user: SessionUser,
    lang: Language,
    q: { platformId?: number | undefined; keyword?: string | undefined; pageNum: number; pageSize: number },
  ) {
    const r = await relationsRepo.listRelations(this.ctx.db, user.scope, q);
    const list: AlertRelationRow[] = [];
    for (const x of r.list) list.push(await this.presentRelation(x, lang));
    return { list, total: r.total, pageNum: q.pageNum, pageSize: q.pageSize };
  }

  private async checkRelation(
    user: SessionUser,
    lang: Language,
    b: {
      name: string;
      members: { deviceId: number; quantity: string }[];
      valueType?: AlertValueType | undefined;
      direction?: AlertDirection | undefined;
      levels: { level: number; value: string | number }[];
      windowN?: number | undefined;
      windowUnit?: WindowUnit | undefined;
      mode?: RelationMode | undefined;
      groupId?: number | undefined;
      channels: AlertChannel[];
      pushIntervalMinutes?: number | undefined;
      enabled?: boolean | undefined;
      description?: string | undefined;
    },
  ): Promise<relationsRepo.RelationValues> {
    const problems: { field: string; key: AlertRuleProblem }[] = [];
    if (!b.valueType) problems.push({ field: 'valueType', key: 'alertTriggerRequired' });
    if (b.levels.length === 0) problems.push({ field: 'levels', key: 'alertLevelRequired' });
    const levels: { level: number; value: number }[] = [];
    for (const l of b.levels) {
      const v = parseAlertNumber(l.value);
      if (!(ALERT_LEVELS as readonly number[]).includes(l.level))
        problems.push({ field: 'levels', key: 'alertLevelRequired' });
      else if (v === null) problems.push({ field: 'levels', key: 'alertValueFormat' });
      else levels.push({ level: l.level, value: v });
    }
    if (b.valueType && ['currentChange', 'increment'].includes(b.valueType) && (!b.windowN || !b.windowUnit))
      problems.push({ field: 'windowN', key: 'alertWindowRequired' });
    if (b.valueType === 'thresholdRate' || b.valueType === 'rainfallIntensity')
      problems.push({ field: 'valueType', key: 'alertTriggerRequired' });
    if (b.channels.length === 0) problems.push({ field: 'channels', key: 'alertChannelRequired' });
    if (b.groupId === undefined) problems.push({ field: 'groupId', key: 'alertGroupRequired' });
    if (problems.length) throw invalid(problems[0]!.key, problems, lang);
    const keys = new Set<string>();
    const members = b.members.filter((m) => {
      const k = `${m.deviceId}:${m.quantity}`;
      if (keys.has(k)) return false;
      keys.add(k);
      return true;
    });
    if (members.length < 2) throw new AppError(Status.invalid, 'alertRelationMembers');
    const devs = await rulesRepo.findDevices(
      this.ctx.db,
      user.scope,
      members.map((m) => m.deviceId),
    );
    const byId = new Map(devs.map((d) => [d.id, d]));
    const sites = new Set(devs.map((d) => d.platformId));
    if (members.some((m) => !byId.has(m.deviceId))) throw new AppError(Status.notFound, 'deviceNotFound');
    if (sites.size !== 1) throw new AppError(Status.invalid, 'alertRelationMembers');
    for (const m of members)
      if (!quantitiesOf(byId.get(m.deviceId)!.moduleId).some((x) => x.key === m.quantity))
        throw new AppError(Status.invalid, 'alertQuantityUnknown', { quantity: m.quantity });
    const byLevel = new Map(levels.map((l) => [l.level, l]));
    const windowed = b.windowN && b.windowUnit;
    return {
      platform_id: [...sites][0]!,
      name: b.name,
      members,
      value_type: b.valueType!,
      direction: b.direction ?? (ABOVE_BY_DEFAULT.includes(b.valueType!) ? 'above' : 'abs'),
      levels: [...byLevel.values()].sort((x, y) => x.level - y.level),
      window_n: windowed ? b.windowN! : null,
      window_unit: windowed ? b.windowUnit! : null,
      mode: b.mode ?? 'any',
      group_id: b.groupId ?? null,
      channels: [...new Set(b.channels)],
      push_interval_minutes: b.pushIntervalMinutes ?? 0,
      enabled: b.enabled ?? true,
      description: b.description ?? null,
    };
  }

  async addRelation(user: SessionUser, lang: Language, b: Parameters<AlertRulesService['checkRelation']>[2]) {
    const v = await this.checkRelation(user, lang, b);
    const id = await relationsRepo.insertRelation(this.ctx.db, v, user.id);
    this.engine.invalidate();
    return id;
  }

  async editRelation(
    user: SessionUser,
    lang: Language,
    id: number,
    b: Parameters<AlertRulesService['checkRelation']>[2],
  ) {
    const old = await relationsRepo.relationById(this.ctx.db, user.scope, id);
    if (!old) throw new AppError(Status.notFound, 'alertRelationNotFound');
    const v = await this.checkRelation(user, lang, { ...b, enabled: b.enabled ?? old.enabled });
    await relationsRepo.updateRelation(this.ctx.db, id, v);
    this.engine.invalidate();
  }

  async deleteRelation(user: SessionUser, id: number): Promise<void> {
    if (!(await relationsRepo.relationById(this.ctx.db, user.scope, id)))
      throw new AppError(Status.notFound, 'alertRelationNotFound');
    await relationsRepo.deleteRelation(this.ctx.db, id);
    this.engine.invalidate();
  }
}
