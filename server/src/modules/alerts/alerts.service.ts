import {
  ALERT_LEVEL_COLOURS,
  ALERT_LEVELS,
  ALERT_STATUSES,
  MAX_ALERT_ATTACHMENTS,
  Status,
  UPLOAD_RULES,
  bucketStart,
  periodLabel,
  siteStateOf,
  type AlertChannel,
  type AlertCounts,
  type AlertDetail,
  type AlertEvidence,
  type AlertLevel,
  type AlertProcessing,
  type AlertReport,
  type AlertReportPeriod,
  type AlertRow,
  type AlertStatus,
  type AlertStatusSocketMessage,
  type FalseAlarmType,
  type Language,
  type PlatformAlertRow,
} from '@geosentry/contract';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../platform/context.ts';
import type { Database } from '../../platform/db/schema.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { AppError } from '../../platform/http/errors.ts';
import { translate, type MessageKey } from '../../platform/http/messages.ts';
import { writeWorkbook, type SheetRow } from '../../platform/files/spreadsheet.ts';
import { requestTimeZone } from '../../platform/timeZone.ts';
import { DAY, range, showNameOf } from './alerts.common.ts';
import * as rulesRepo from './alerts.rules.repository.ts';
import * as evalRepo from './alerts.engine.repository.ts';
import * as repo from './alerts.repository.ts';

type Tx = Kysely<Database>;
const levelCounts = (): Record<'1' | '2' | '3' | '4', number> => ({ 1: 0, 2: 0, 3: 0, 4: 0 });

/** The alerts themselves: scoped lists and detail, the handling workflow, counts, the report and its export. */
export class AlertsService {
  constructor(private readonly ctx: AppContext) {}

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
      regionCode?: string | undefined;
      pageNum: number;
      pageSize: number;
      sortField?: string | undefined;
      sortOrder?: string | undefined;
    },
  ) {
    const r = await repo.listAlerts(this.ctx.db, user.scope, {
      ...this.filterOf(q),
      platformId: q.platformId,
      regionCode: q.regionCode,
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
    const device = await rulesRepo.findDevice(this.ctx.db, user.scope, { id: q.deviceId, name: q.deviceName });
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
      await evalRepo.insertAction(tx, {
        alertId: a.id,
        action: b.processed === 1 ? 'processed' : 'saved',
        userId: user.id,
        userName: user.name || user.account,
        level: a.level,
        detail: form,
      });
      const change = await evalRepo.refreshDeviceState(tx, a.deviceId);
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
        // The site state rule of home and the big screen (spec §4): from its devices' states.
        state: siteStateOf({
          normal: Number(r.d_normal),
          alert: Number(r.d_alert),
          alarm: Number(r.d_alarm),
          abnormal: Number(r.d_abnormal),
          offline: Number(r.d_offline),
        }),
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
    const bold = (cells: SheetRow['cells']): SheetRow => ({ cells, font: 'bold' });
    const summary: (SheetRow | SheetRow['cells'])[] = [
      [t('alertReportFrom'), rep.from, t('alertReportTo'), rep.to],
      [t('alertReportTotal'), rep.total],
      [],
      bold([t('alertReportLevel'), t('alertReportCount')]),
      ...rep.byLevel.map((l) => [`${l.level} ${ALERT_LEVEL_COLOURS[l.level].name}`, l.count]),
      [],
      bold([t('alertReportSite'), t('alertReportCount'), '1', '2', '3', '4']),
      ...rep.byPlatform.map((p) => [p.name, p.count, p.levels[1], p.levels[2], p.levels[3], p.levels[4]]),
      [],
      bold([t('alertReportType'), t('alertReportCount')]),
      ...rep.byType.map((x) => [x.valueType, x.count]),
      [],
      bold([t('alertReportPeriod'), t('alertReportCount'), '1', '2', '3', '4']),
      ...rep.byPeriod.map((p) => [p.period, p.count, p.levels[1], p.levels[2], p.levels[3], p.levels[4]]),
    ];
    const list: (SheetRow | SheetRow['cells'])[] = [
      bold([
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
      ]),
    ];
    for (const a of alerts) {
      const row = this.presentAlert(a, lang);
      list.push([
        row.id,
        row.platformName,
        row.deviceName,
        row.showName,
        row.level,
        row.valueType,
        row.status,
        row.lastValue,
        row.threshold,
        row.count,
        row.firstAt,
        row.lastAt,
        row.processedBy ?? '',
      ]);
    }
    // Text cells (site, device and user names) are neutralised by the writer.
    const buf = await writeWorkbook([
      { name: t('alertReportSummary'), rows: summary },
      { name: t('alertReportAlerts'), rows: list },
    ]);
    return { filename: `alert-report-${rep.from.slice(0, 10)}-${rep.to.slice(0, 10)}.xlsx`, body: buf };
  }
}
