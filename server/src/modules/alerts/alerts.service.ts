import {
  ABOVE_BY_DEFAULT,
  ALERT_LEVEL_COLOURS,
  ALERT_LEVELS,
  ALERT_STATUSES,
  MAX_ALERT_ATTACHMENTS,
  RULE_TEST_DEFAULT_DAYS,
  Status,
  UPLOAD_RULES,
  bucketStart,
  checkAlertRule,
  nextBucket,
  parseTime as parseInstant,
  periodLabel,
  parseAlertNumber,
  quantitiesOf,
  type AlertChannel,
  type AlertCounts,
  type AlertCriterionRow,
  type AlertDetail,
  type AlertEvidence,
  type AlertLevel,
  type AlertProcessing,
  type AlertRelationRow,
  type AlertReport,
  type AlertReportPeriod,
  type AlertRow,
  type AlertRuleInput,
  type AlertRuleProblem,
  type AlertRuleRow,
  type AlertRuleTestResult,
  type AlertStatus,
  type AlertStatusSocketMessage,
  type AlertValueType,
  type FalseAlarmType,
  type Language,
  type PlatformAlertRow,
  type RelationMode,
  type WindowUnit,
  type AlertDirection,
} from '@geosentry/contract';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../platform/context.ts';
import type { Database } from '../../platform/db/schema.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { AppError, isUniqueViolation } from '../../platform/http/errors.ts';
import { translate, type MessageKey } from '../../platform/http/messages.ts';
import { neutralise as neutral } from '../devices/tableFile.ts';
import { evaluateFamily, lookbackOf } from './alerts.evaluate.ts';
import type { AlertEngine } from './alerts.engine.ts';
import { toEvalRule } from './alerts.engine.ts';
import * as repo from './alerts.repository.ts';
import { requestTimeZone } from '../moduleData/timeZone.ts';

type Tx = Kysely<Database>;
const DAY = 86_400_000;

/** Label of a quantity of a monitor type in a language, with its unit ("Rainfall (mm)"). */
export function showNameOf(moduleId: number, quantity: string | null, lang: Language): { name: string; unit: string } {
  if (quantity === null) return { name: '', unit: '' };
  const q = quantitiesOf(moduleId).find((x) => x.key === quantity);
  if (!q) return { name: quantity, unit: '' };
  return { name: q.unit ? `${q.label[lang]} (${q.unit})` : q.label[lang], unit: q.unit };
}

const invalid = (key: MessageKey, problems: { field: string; key: string }[] = [], lang?: Language) =>
  new AppError(
    Status.invalid,
    key,
    {},
    lang
      ? { errors: problems.map((p) => ({ ...p, rule: p.key, message: translate(lang, p.key as MessageKey) })) }
      : null,
  );

/**
 * Parses a time filter (ISO date or date-time, or "yyyy-MM-dd HH:mm:ss"; without an offset a reading of the
 * clock of `timeZone`); null when absent.
 */
export function parseTime(v: string | undefined, endOfDay = false, timeZone = 'UTC'): Date | null {
  if (!v) return null;
  const t = v.trim();
  let d: Date;
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) {
    const start = parseInstant(t, timeZone) ?? Number.NaN;
    d = new Date(endOfDay && !Number.isNaN(start) ? nextBucket(start, 'day', timeZone) - 1 : start);
  } else if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(t))
    d = new Date(parseInstant(t, timeZone) ?? t.replace(' ', 'T'));
  else if (/^\d{10,13}$/.test(t)) d = new Date(Number(t.length === 10 ? `${t}000` : t));
  else throw new AppError(Status.invalid, 'alertRangeInvalid');
  if (Number.isNaN(d.getTime())) throw new AppError(Status.invalid, 'alertRangeInvalid');
  return d;
}

function range(
  q: { startTime?: string | undefined; endTime?: string | undefined },
  timeZone = 'UTC',
): { from?: Date; to?: Date } {
  const from = parseTime(q.startTime, false, timeZone);
  const to = parseTime(q.endTime, true, timeZone);
  if (from && to && from > to) throw new AppError(Status.invalid, 'alertRangeInvalid');
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

const levelCounts = (): Record<'1' | '2' | '3' | '4', number> => ({ 1: 0, 2: 0, 3: 0, 4: 0 });

/**
 * The alerts feature's rules: alert values, criteria and multi-device rules (with the spec §5 checks),
 * testing a rule against history, the handling workflow, and every scoped query.
 */
export class AlertsService {
  constructor(
    private readonly ctx: AppContext,
    private readonly engine: AlertEngine,
  ) {}

  // ---------------------------------------------------------------------------------------------------
  // Alert values (rules)
  // ---------------------------------------------------------------------------------------------------

  private presentRule(r: repo.RuleWithDevice, lang: Language): AlertRuleRow {
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
    const device = await repo.findDevice(this.ctx.db, user.scope, { id: q.deviceId, name: q.deviceName });
    if (!device) throw new AppError(Status.notFound, 'deviceNotFound');
    const rows = await repo.rulesOfDevice(this.ctx.db, user.scope, { deviceId: device.id, quantity: q.quantity });
    return rows.map((r) => this.presentRule(r, lang));
  }

  async valuesList(
    user: SessionUser,
    lang: Language,
    q: repo.RuleFilter & { pageNum: number; pageSize: number; sortField?: string; sortOrder?: string },
  ) {
    const r = await repo.listRules(this.ctx.db, user.scope, q);
    return {
      list: r.list.map((x) => this.presentRule(x, lang)),
      total: r.total,
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    };
  }

  /** Checks an alert value (spec §5) and its device, quantity and criterion; answers the row to store. */
  private async checkRule(user: SessionUser, lang: Language, b: AlertRuleInput): Promise<repo.RuleValues> {
    const { problems, rule } = checkAlertRule(b);
    if (problems.length || !rule) throw invalid(problems[0]!.key as MessageKey, problems, lang);
    const device = await repo.findDevice(this.ctx.db, user.scope, { id: b.deviceId });
    if (!device) throw new AppError(Status.notFound, 'deviceNotFound');
    if (!quantitiesOf(device.moduleId).some((x) => x.key === b.quantity))
      throw new AppError(Status.invalid, 'alertQuantityUnknown', { quantity: b.quantity });
    if (b.criterionId !== undefined && !(await repo.criterionExists(this.ctx.db, b.criterionId)))
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
      const id = await repo.insertRule(this.ctx.db, v, user.id);
      this.engine.invalidate();
      return id;
    } catch (e) {
      if (isUniqueViolation(e, 'alert_rules_unique')) throw new AppError(Status.conflict, 'alertRuleExists');
      throw e;
    }
  }

  async editRule(user: SessionUser, lang: Language, id: number, b: AlertRuleInput): Promise<void> {
    const old = await repo.ruleById(this.ctx.db, user.scope, id);
    if (!old) throw new AppError(Status.notFound, 'alertRuleNotFound');
    const v = await this.checkRule(user, lang, { ...b, enabled: b.enabled ?? old.enabled });
    try {
      await repo.updateRule(this.ctx.db, id, v);
      this.engine.invalidate();
    } catch (e) {
      if (isUniqueViolation(e, 'alert_rules_unique')) throw new AppError(Status.conflict, 'alertRuleExists');
      throw e;
    }
  }

  async deleteRule(user: SessionUser, id: number): Promise<void> {
    if (!(await repo.ruleById(this.ctx.db, user.scope, id))) throw new AppError(Status.notFound, 'alertRuleNotFound');
    await repo.deleteRule(this.ctx.db, id);
    this.engine.invalidate();
  }

  async enableRule(user: SessionUser, id: number, enabled: boolean): Promise<void> {
    if (!(await repo.ruleById(this.ctx.db, user.scope, id))) throw new AppError(Status.notFound, 'alertRuleNotFound');
    await repo.setRuleEnabled(this.ctx.db, id, enabled);
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
      const r = await repo.ruleById(this.ctx.db, user.scope, b.id);
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
    const device = await repo.findDevice(this.ctx.db, user.scope, { id: input.deviceId });
    if (!device) throw new AppError(Status.notFound, 'deviceNotFound');
    if (!quantitiesOf(device.moduleId).some((x) => x.key === input.quantity))
      throw new AppError(Status.invalid, 'alertQuantityUnknown', { quantity: input.quantity });
    const r = range(b);
    const to = r.to ?? new Date();
    const from = r.from ?? new Date(to.getTime() - (b.days ?? RULE_TEST_DEFAULT_DAYS) * DAY);
    if (to.getTime() - from.getTime() > 366 * DAY) throw new AppError(Status.invalid, 'alertRangeInvalid');
    const evalRule = toEvalRule({ id: 0, ...rule });
    const lb = lookbackOf(evalRule);
    const rows = await repo.readingsFor(this.ctx.db, [
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
      const devs = await repo.evalDevices(this.ctx.db, [device.id]);
      base =
        devs.get(device.id)?.initialValues[input.quantity] ??
        (await repo.firstValues(this.ctx.db, device.id))[input.quantity] ??
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
    return repo.listCriteria(this.ctx.db, q);
  }
  addCriterion(b: { name: string; type: string; description?: string | undefined }): Promise<number> {
    return repo.insertCriterion(this.ctx.db, { name: b.name, type: b.type, description: b.description ?? null });
  }
  async editCriterion(b: { id: number; name: string; type: string; description?: string | undefined }): Promise<void> {
    const ok = await repo.updateCriterion(this.ctx.db, b.id, {
      name: b.name,
      type: b.type,
      description: b.description ?? null,
    });
    if (!ok) throw new AppError(Status.notFound, 'alertCriterionNotFound');
  }
  async deleteCriterion(id: number): Promise<void> {
    if (!(await repo.deleteCriterion(this.ctx.db, id))) throw new AppError(Status.notFound, 'alertCriterionNotFound');
  }

  // ---------------------------------------------------------------------------------------------------
  // Multi-device rules
  // ---------------------------------------------------------------------------------------------------

  private async presentRelation(r: repo.RelationRecord, lang: Language): Promise<AlertRelationRow> {
    const devs = new Map(
      (
        await repo.findDevices(
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
    const r = await repo.listRelations(this.ctx.db, user.scope, q);
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
  ): Promise<repo.RelationValues> {
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
    const devs = await repo.findDevices(
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

  async addRelation(user: SessionUser, lang: Language, b: Parameters<AlertsService['checkRelation']>[2]) {
    const v = await this.checkRelation(user, lang, b);
    const id = await repo.insertRelation(this.ctx.db, v, user.id);
    this.engine.invalidate();
    return id;
  }

  async editRelation(user: SessionUser, lang: Language, id: number, b: Parameters<AlertsService['checkRelation']>[2]) {
    const old = await repo.relationById(this.ctx.db, user.scope, id);
    if (!old) throw new AppError(Status.notFound, 'alertRelationNotFound');
    const v = await this.checkRelation(user, lang, { ...b, enabled: b.enabled ?? old.enabled });
    await repo.updateRelation(this.ctx.db, id, v);
    this.engine.invalidate();
  }

  async deleteRelation(user: SessionUser, id: number): Promise<void> {
    if (!(await repo.relationById(this.ctx.db, user.scope, id)))
      throw new AppError(Status.notFound, 'alertRelationNotFound');
    await repo.deleteRelation(this.ctx.db, id);
    this.engine.invalidate();
  }

  // ---------------------------------------------------------------------------------------------------
  // Alerts
  // ---------------------------------------------------------------------------------------------------

  presentAlert(a: repo.AlertRecord, lang: Language): AlertRow {
    const p = a.processing as { suggestion?: string | null } | null;
    const status = a.status as AlertStatus;
    return {
      id: a.id,
      platformId: a.platformId,
      platformName: a.platformName,
      platformType: a.platformType,
      deviceId: a.deviceId,
      deviceName: a.deviceName,
      deviceNumber: a.deviceNumber,
      moduleId: a.moduleId,
      quantity: a.quantity,
      showName: showNameOf(a.moduleId, a.quantity, lang).name,
      kind: a.kind as AlertRow['kind'],
      ruleId: a.ruleId,
      relationId: a.relationId,
      valueType: a.valueType as AlertRow['valueType'],
      level: a.level as AlertLevel,
      firstLevel: a.firstLevel as AlertLevel,
      colour: ALERT_LEVEL_COLOURS[a.level as AlertLevel].hex,
      status,
      processed: ALERT_STATUSES.indexOf(status) as 0 | 1 | 2,
      threshold: a.threshold,
      firstValue: a.firstValue,
      lastValue: a.lastValue,
      metric: a.metric,
      triggerValue: a.triggerValue,
      triggerAt: a.triggerAt,
      count: a.count,
      firstAt: a.firstAt,
      lastAt: a.lastAt,
      escalatedAt: a.escalatedAt,
      processedAt: a.processedAt,
      processedBy: a.processedBy,
      suggestion: p?.suggestion ?? null,
      groupId: a.groupId,
      channels: a.channels as AlertChannel[],
      pushIntervalMinutes: a.pushIntervalMinutes,
    };
  }

  private filterOf(q: {
    level?: number | undefined;
    status?: string | undefined;
    kind?: string | undefined;
    valueType?: string | undefined;
    startTime?: string | undefined;
    endTime?: string | undefined;
    keyword?: string | undefined;
  }): repo.AlertFilter {
    const r = range(q);
    return {
      level: q.level,
      status: q.status,
      kind: q.kind,
      valueType: q.valueType,
      from: r.from,
      to: r.to,
      keyword: q.keyword,
    };
  }

  async byPlatform(
    user: SessionUser,
    lang: Language,
    q: Parameters<AlertsService['filterOf']>[0] & {
      platformId?: number | undefined;
      pageNum: number;
      pageSize: number;
      sortField?: string | undefined;
      sortOrder?: string | undefined;
    },
  ) {
    const r = await repo.listAlerts(this.ctx.db, user.scope, {
      ...this.filterOf(q),
      platformId: q.platformId,
      pageNum: q.pageNum,
      pageSize: q.pageSize,
      sortField: q.sortField,
      sortOrder: q.sortOrder,
    });
    return {
      list: r.list.map((a) => this.presentAlert(a, lang)),
      total: r.total,
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    };
  }

  async byDevice(
    user: SessionUser,
    lang: Language,
    q: Parameters<AlertsService['filterOf']>[0] & {
      deviceName?: string | undefined;
      deviceId?: number | undefined;
      pageNum: number;
      pageSize: number;
      sortField?: string | undefined;
      sortOrder?: string | undefined;
    },
  ) {
    if (q.deviceId === undefined && !q.deviceName) throw new AppError(Status.invalid, 'alertDeviceRequired');
    const device = await repo.findDevice(this.ctx.db, user.scope, { id: q.deviceId, name: q.deviceName });
    if (!device) throw new AppError(Status.notFound, 'deviceNotFound');
    const r = await repo.listAlerts(this.ctx.db, user.scope, {
      ...this.filterOf(q),
      deviceId: device.id,
      pageNum: q.pageNum,
      pageSize: q.pageSize,
      sortField: q.sortField,
      sortOrder: q.sortOrder,
    });
    return {
      list: r.list.map((a) => this.presentAlert(a, lang)),
      total: r.total,
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    };
  }

  async detail(user: SessionUser, lang: Language, id: number): Promise<AlertDetail> {
    const a = await repo.alertById(this.ctx.db, user.scope, id);
    if (!a) throw new AppError(Status.notFound, 'alertNotFound');
    const [actions, hits] = await Promise.all([
      repo.alertActions(this.ctx.db, a.id),
      repo.alertHits(this.ctx.db, a.id),
    ]);
    return {
      ...this.presentAlert(a, lang),
      evidence: a.evidence as AlertEvidence,
      processing: (a.processing as AlertProcessing | null) ?? null,
      actions: actions.map((x) => ({
        ...x,
        action: x.action as AlertDetail['actions'][number]['action'],
        level: x.level as AlertLevel | null,
      })),
      hits: hits.map((h) => ({ ...h, level: h.level as AlertLevel })),
    };
  }

  /** The handling workflow (spec §4): 0 saves as pre-process (editable), 1 finishes (processed, locked). */
  async process(
    user: SessionUser,
    b: {
      id: number;
      processed: 0 | 1;
      suggestion?: string | undefined;
      falseAlarm?: boolean | undefined;
      falseAlarmType?: FalseAlarmType | undefined;
      onSiteCheck?: string | undefined;
      deformation?: string | undefined;
      attachments: string[];
    },
  ): Promise<AlertStatus> {
    const ids = [...new Set(b.attachments)];
    if (ids.length > MAX_ALERT_ATTACHMENTS) throw new AppError(Status.invalid, 'alertAttachmentsMax');
    const files = await repo.filesByIds(this.ctx.db, ids);
    const allowed = UPLOAD_RULES.attachment.types as readonly string[];
    if (files.length !== ids.length || files.some((f) => !allowed.includes(f.ext)))
      throw new AppError(Status.invalid, 'alertAttachmentType');
    if (b.falseAlarm && !b.falseAlarmType) throw new AppError(Status.invalid, 'alertFalseAlarmTypeRequired');
    if (b.processed === 1 && !b.suggestion) throw new AppError(Status.invalid, 'alertSuggestionRequired');
    const byId = new Map(files.map((f) => [f.id, f]));
    const form: AlertProcessing = {
      suggestion: b.suggestion ?? null,
      falseAlarm: b.falseAlarm ?? false,
      falseAlarmType: b.falseAlarm ? (b.falseAlarmType ?? null) : null,
      onSiteCheck: b.onSiteCheck ?? null,
      deformation: b.deformation ?? null,
      attachments: ids.map((id) => ({ fileId: id, name: byId.get(id)!.original_name, ext: byId.get(id)!.ext })),
    };
    const status: AlertStatus = b.processed === 1 ? 'processed' : 'preProcess';
    const out = await this.ctx.db.k.transaction().execute(async (tx: Tx) => {
      const a = await repo.lockAlert(tx, user.scope, b.id);
      if (!a) throw new AppError(Status.notFound, 'alertNotFound');
      if (a.status === 'processed') throw new AppError(Status.conflict, 'alertAlreadyProcessed');
      await repo.saveProcessing(tx, a.id, {
        status,
        processing: form,
        userId: user.id,
        userName: user.name || user.account,
        finish: b.processed === 1,
      });
      await repo.insertAction(tx, {
        alertId: a.id,
        action: b.processed === 1 ? 'processed' : 'saved',
        userId: user.id,
        userName: user.name || user.account,
        level: a.level,
        detail: form,
      });
      const change = await repo.refreshDeviceState(tx, a.deviceId);
      return { a, change };
    });
    const hub = this.ctx.hub;
    const msg: AlertStatusSocketMessage = {
      type: 'alertStatus',
      alertId: out.a.id,
      platformId: out.a.platformId,
      status,
    };
    hub.publish(out.a.platformId, msg, { everyone: true });
    if (out.change?.platformId != null)
      hub.publish(out.change.platformId, {
        type: 'deviceState',
        platformId: out.change.platformId,
        deviceId: out.a.deviceId,
        state: out.change.state,
      });
    return status;
  }

  // ---------------------------------------------------------------------------------------------------
  // Counts, big screen, report
  // ---------------------------------------------------------------------------------------------------

  async counts(user: SessionUser, q: { timeZone?: string | undefined } = {}, now = new Date()): Promise<AlertCounts> {
    // "Today" and the 7 days are local days of the request's zone (else the user's, else TIME_ZONE).
    const tz = await requestTimeZone(this.ctx, user.id, q.timeZone);
    const starts = [bucketStart(now.getTime(), 'day', tz)];
    while (starts.length < 7) starts.unshift(bucketStart(starts[0]! - 1, 'day', tz));
    const since = new Date(starts[0]!);
    const [open, perDay] = await Promise.all([
      repo.openCountsByLevel(this.ctx.db, user.scope),
      repo.raisedPerDay(this.ctx.db, user.scope, since, tz),
    ]);
    const out: AlertCounts = {
      open: levelCounts(),
      openTotal: 0,
      untreated: 0,
      preProcess: 0,
      today: 0,
      last7Days: 0,
      daily: [],
      timeZone: tz,
    };
    for (const o of open) {
      const k = String(o.level) as '1' | '2' | '3' | '4';
      out.open[k] += o.n;
      out.openTotal += o.n;
      if (o.status === 'untreated') out.untreated += o.n;
      else out.preProcess += o.n;
    }
    const byDay = new Map(perDay.map((d) => [d.day, d.n]));
    for (const start of starts) {
      const day = periodLabel(new Date(start).toISOString(), 'day', tz);
      const n = byDay.get(day) ?? 0;
      out.daily.push({ day, count: n });
      out.last7Days += n;
    }
    out.today = out.daily.at(-1)!.count;
    return out;
  }

  async platformAndAlert(
    user: SessionUser,
    q: { platformId?: number | undefined; regionCode?: string | undefined },
  ): Promise<PlatformAlertRow[]> {
    const rows = await repo.platformsWithAlerts(this.ctx.db, user.scope, q);
    return rows.map((r) => {
      const open = { 1: Number(r.l1), 2: Number(r.l2), 3: Number(r.l3), 4: Number(r.l4) };
      const maxLevel = open[4] ? 4 : open[3] ? 3 : open[2] ? 2 : open[1] ? 1 : null;
      return {
        platformId: r.id,
        name: r.name,
        type: r.type,
        regionCode: r.region_code,
        lon: r.lon,
        lat: r.lat,
        state: maxLevel === null ? 'normal' : maxLevel >= 3 ? 'alarm' : 'alert',
        maxLevel: maxLevel as AlertLevel | null,
        open,
        openTotal: open[1] + open[2] + open[3] + open[4],
        deviceCount: Number(r.devices),
      };
    });
  }

  private reportRange(q: { startTime?: string | undefined; endTime?: string | undefined }, timeZone: string) {
    const r = range(q, timeZone);
    const to = r.to ?? new Date();
    const from = r.from ?? new Date(to.getTime() - 30 * DAY);
    return { from, to };
  }

  async report(
    user: SessionUser,
    q: {
      platformId?: number | undefined;
      startTime?: string | undefined;
      endTime?: string | undefined;
      period?: AlertReportPeriod | undefined;
      timeZone?: string | undefined;
    },
  ): Promise<AlertReport> {
    // Dates and periods (day, Monday week, month) are local to the request's zone (else the user's, else TIME_ZONE).
    const tz = await requestTimeZone(this.ctx, user.id, q.timeZone);
    const { from, to } = this.reportRange(q, tz);
    const period = q.period ?? 'day';
    const agg = await repo.reportAggregates(this.ctx.db, user.scope, {
      platformId: q.platformId,
      from,
      to,
      period,
      timeZone: tz,
    });
    const byPlatform = new Map<number, AlertReport['byPlatform'][number]>();
    for (const s of agg.sites) {
      let p = byPlatform.get(s.id);
      if (!p) byPlatform.set(s.id, (p = { platformId: s.id, name: s.name, count: 0, levels: levelCounts() }));
      p.count += Number(s.n);
      p.levels[String(s.level) as '1'] += Number(s.n);
    }
    const byPeriod = new Map<string, AlertReport['byPeriod'][number]>();
    for (const s of agg.periods) {
      let p = byPeriod.get(s.period);
      if (!p) byPeriod.set(s.period, (p = { period: s.period, count: 0, levels: levelCounts() }));
      p.count += Number(s.n);
      p.levels[String(s.level) as '1'] += Number(s.n);
    }
    const levelMap = new Map(agg.levels.map((l) => [l.level, Number(l.n)]));
    const statusMap = new Map(agg.statuses.map((l) => [l.status, Number(l.n)]));
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      period,
      timeZone: tz,
      total: [...levelMap.values()].reduce((a, b) => a + b, 0),
      byLevel: ALERT_LEVELS.map((level) => ({ level, count: levelMap.get(level) ?? 0 })),
      byPlatform: [...byPlatform.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
      byType: agg.types.map((t) => ({ valueType: t.value_type, count: Number(t.n) })),
      byStatus: ALERT_STATUSES.map((status) => ({ status, count: statusMap.get(status) ?? 0 })),
      byPeriod: [...byPeriod.values()],
    };
  }

  /** The report as an xlsx workbook: a summary sheet and the alerts of the period. */
  async exportReport(
    user: SessionUser,
    lang: Language,
    q: Parameters<AlertsService['report']>[1],
  ): Promise<{ filename: string; body: Buffer }> {
    const rep = await this.report(user, q);
    const alerts = await repo.allAlerts(this.ctx.db, user.scope, {
      platformId: q.platformId,
      from: new Date(rep.from),
      to: new Date(rep.to),
    });
    const t = (k: MessageKey) => translate(lang, k);
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    const sum = wb.addWorksheet(t('alertReportSummary'));
    sum.addRow([t('alertReportFrom'), rep.from, t('alertReportTo'), rep.to]);
    sum.addRow([t('alertReportTotal'), rep.total]);
    sum.addRow([]);
    sum.addRow([t('alertReportLevel'), t('alertReportCount')]).font = { bold: true };
    for (const l of rep.byLevel) sum.addRow([`${l.level} ${ALERT_LEVEL_COLOURS[l.level].name}`, l.count]);
    sum.addRow([]);
    sum.addRow([t('alertReportSite'), t('alertReportCount'), '1', '2', '3', '4']).font = { bold: true };
    for (const p of rep.byPlatform)
      sum.addRow([neutral(p.name), p.count, p.levels[1], p.levels[2], p.levels[3], p.levels[4]]);
    sum.addRow([]);
    sum.addRow([t('alertReportType'), t('alertReportCount')]).font = { bold: true };
    for (const x of rep.byType) sum.addRow([x.valueType, x.count]);
    sum.addRow([]);
    sum.addRow([t('alertReportPeriod'), t('alertReportCount'), '1', '2', '3', '4']).font = { bold: true };
    for (const p of rep.byPeriod) sum.addRow([p.period, p.count, p.levels[1], p.levels[2], p.levels[3], p.levels[4]]);
    const ws = wb.addWorksheet(t('alertReportAlerts'));
    ws.addRow([
      'id',
      t('alertReportSite'),
      t('alertReportDevice'),
      t('alertReportQuantity'),
      t('alertReportLevel'),
      t('alertReportType'),
      t('alertReportStatus'),
      t('alertReportValue'),
      t('alertReportThreshold'),
      t('alertReportCount'),
      t('alertReportFirstAt'),
      t('alertReportLastAt'),
      t('alertReportProcessedBy'),
    ]).font = { bold: true };
    for (const a of alerts) {
      const row = this.presentAlert(a, lang);
      ws.addRow([
        row.id,
        neutral(row.platformName),
        neutral(row.deviceName),
        neutral(row.showName),
        row.level,
        row.valueType,
        row.status,
        row.lastValue,
        row.threshold,
        row.count,
        row.firstAt,
        row.lastAt,
        neutral(row.processedBy ?? ''),
      ]);
    }
    const buf = Buffer.from((await wb.xlsx.writeBuffer()) as ArrayBuffer);
    return { filename: `alert-report-${rep.from.slice(0, 10)}-${rep.to.slice(0, 10)}.xlsx`, body: buf };
  }
}
