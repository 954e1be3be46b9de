import fs from 'node:fs';
import { PHONE_CHANNELS, ALERT_CHANNELS, type AlertChannel, type AlertEvent, type Language } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { Exec } from '../../platform/db/sql.ts';
import { JobFiles } from '../../platform/jobs/index.ts';
import * as outboxRepo from './alertNotifications.outbox.repository.ts';
import {
  backoffMs,
  recipientZone,
  renderMessage,
  type AlertFacts,
  type TemplateTexts,
} from './alertNotifications.render.ts';
import { Channels, SendError } from './alertNotifications.channels.ts';

/**
 * What the outbox needs of an alert event. `AlertEvent` of the alerts feature fits; reminders (a persisting
 * alert whose push interval has passed) are made by the sweep below.
 */
export type NotifyEvent = Pick<
  AlertEvent,
  'alertId' | 'level' | 'platformId' | 'deviceId' | 'quantity' | 'groupId' | 'channels' | 'value' | 'threshold' | 'at'
> & {
  kind: AlertEvent['kind'] | 'reminder';
  platformName?: string | undefined;
  deviceName?: string | undefined;
  /** Reminders: their number (1, 2, ...). */
  reminder?: number | undefined;
};

/** What an event needs of the notification context: whom it tells (site, level, group) and which device it names. */
const wantOf = (e: NotifyEvent): outboxRepo.NotifyWant => ({
  platformId: e.platformId,
  level: e.level,
  groupId: e.groupId ?? null,
  deviceId: e.deviceId,
});

/**
 * The event's number within its alert, part of the outbox's dedupe key: raising and escalating happen at most
 * once per level (the level only rises), so the level itself is unique; reminders count from 101.
 */
export const eventSeq = (e: Pick<NotifyEvent, 'kind' | 'level' | 'reminder'>): number =>
  e.kind === 'reminder' ? 100 + (e.reminder ?? 1) : e.level;

/** Channels used when an event names none: mail to contacts with an email, ordinary SMS to those with a phone. */
const DEFAULT_CHANNELS: readonly AlertChannel[] = ['mail', 'sms'];

/** Offline alerts have no quantity or value: their text is built in. */
const OFFLINE_TEXTS: TemplateTexts = {
  subject: { en: '[{level}] {site} / {device}', zh: '【{level}】{site} / {device}', ko: '[{level}] {site} / {device}' },
  content: {
    en: '{level} at {site}: {device} sends no data (offline since {time}). {suggestion}',
    zh: '{site}发生{level}：{device} 无数据（自 {time} 起离线）。{suggestion}',
    ko: '{site}에서 {level} 발생: {device} 데이터 없음 ({time}부터 오프라인). {suggestion}',
  },
};

export interface NotifierOptions {
  /** How often the sender looks for due rows (it is also woken at once by every enqueue). */
  pollMs?: number;
  /** How often persisting alerts are checked for reminders. */
  sweepMs?: number;
  /** How long a claimed row is reserved for its sender; after that another sender may take it over. */
  leaseMs?: number;
  /** Rows claimed per round. */
  batch?: number;
}

/**
 * The notification outbox: turns alert events into one row per (event, channel, recipient), each rendered in
 * the recipient's language, and sends due rows with retries and exponential backoff.
 *
 * Never lost: the rows are written in the alert's own transaction (and again, idempotently, after commit); a
 * row is claimed ("sending", with a lease) before sending and marked sent after, so a restart sends what was
 * pending once. A crash between a successful send and its "sent" mark sends that one message again when the
 * lease ends (at-least-once across crashes, exactly once across orderly restarts).
 */
export class AlertNotifier {
  readonly channels: Channels;
  /** The clock of push intervals (tests move it). */
  now: () => Date = () => new Date();
  /** Messages sent and attempts failed since start (for health and tests). */
  sent = 0;
  failures = 0;

  private readonly pollMs: number;
  private readonly sweepMs: number;
  private readonly leaseMs: number;
  private readonly batch: number;
  private timers: NodeJS.Timeout[] = [];
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** Events whose rows this notifier wrote inside their alert's transaction (see onEventAfterCommit). */
  private enqueuedInTx = new WeakSet<object>();

  /** The job store, where scheduled reports' attachments are kept. */
  private readonly files: JobFiles;

  constructor(
    private readonly ctx: AppContext,
    opts: NotifierOptions = {},
  ) {
    this.channels = new Channels(ctx.config);
    this.files = new JobFiles(ctx.db, ctx.config.dataDir);
    this.pollMs = opts.pollMs ?? 1000;
    this.sweepMs = opts.sweepMs ?? 30_000;
    this.leaseMs = opts.leaseMs ?? 5 * 60_000;
    this.batch = opts.batch ?? 10;
  }

  // ------------------------------------------------------------------------------------------- enqueue

  /**
   * Writes the notifications of one alert event into the outbox, using `tx` when given (the alert's own
   * transaction). Idempotent: a row whose dedupe key (alert, event, channel, recipient) exists is skipped.
   * Answers the number of rows written.
   */
  async enqueueForEvent(event: NotifyEvent, tx?: Exec): Promise<number> {
    return this.enqueueForEvents([event], tx);
  }

  /**
   * enqueueForEvent for the events of one alert store: what they need (levels, templates, recipients, names) read
   * in one statement, their rows in one insert and their notified marks in one statement (a store raising thirty
   * alerts on thirty devices costs three statements, not ninety).
   */
  async enqueueForEvents(events: readonly NotifyEvent[], tx?: Exec): Promise<number> {
    if (!events.length) return 0;
    const db = tx ?? this.ctx.db.k;
    const now = this.now();
    const context = await outboxRepo.notifyContext(db, events.map(wantOf));
    const rows: outboxRepo.OutboxInsert[] = [];
    const marks = new Map<number, number>();
    for (const event of events) {
      rows.push(...this.rowsFor(event, context));
      if (event.kind !== 'reminder') marks.set(event.alertId, Math.max(marks.get(event.alertId) ?? 0, event.level));
    }
    const written = (await outboxRepo.enqueue(db, rows)).length;
    await outboxRepo.markNotified(
      db,
      [...marks].map(([alertId, level]) => ({ alertId, level })),
      now,
    );
    return written;
  }

  /** The outbox rows of one event: one per (channel, recipient), rendered in the recipient's language. */
  private rowsFor(event: NotifyEvent, context: outboxRepo.NotifyContext): outboxRepo.OutboxInsert[] {
    const seq = eventSeq(event);
    const want = wantOf(event);
    const levelRow = context.levels.get(event.level);
    const recipients = context.recipientsOf(want);
    const rows: outboxRepo.OutboxInsert[] = [];
    if (recipients.length) {
      let tpl: TemplateTexts | null = null;
      let templateCode: string | null = null;
      if (event.kind === 'offline') tpl = OFFLINE_TEXTS;
      else {
        const templateId = levelRow?.templateId;
        const row =
          (templateId ? context.templates.get(templateId) : undefined) ??
          (context.defaultTemplateId !== null ? context.templates.get(context.defaultTemplateId) : undefined);
        if (row) {
          tpl = { subject: row.subject, content: row.content };
          templateCode = row.smsTemplateCode;
        }
      }
      const names = context.namesOf(want);
      const facts: AlertFacts = {
        level: event.level,
        siteName: event.platformName ?? names.siteName ?? `#${event.platformId}`,
        deviceName: event.deviceName ?? names.deviceName ?? `#${event.deviceId}`,
        moduleId: names.moduleId,
        quantity: event.quantity,
        value: event.value,
        threshold: event.threshold,
        at: new Date(event.at),
        suggestion: levelRow?.suggestion ?? {},
      };
      // {time} in the recipient's zone: NOTIFY_TIME_ZONE (deprecated) when set, else the zone of the user the
      // contact is, else TIME_ZONE.
      const rendered = new Map<string, { subject: string; body: string }>();
      const render = (lang: Language, userZone: string | null) => {
        const zone = this.ctx.config.notifyTimeZone ?? recipientZone(userZone, this.ctx.config.timeZone);
        const key = `${lang}\u0000${zone}`;
        let m = rendered.get(key);
        if (!m) rendered.set(key, (m = renderMessage(facts, tpl, lang, zone)));
        return m;
      };
      const wanted = (event.channels?.length ? event.channels : DEFAULT_CHANNELS).filter((c) =>
        (ALERT_CHANNELS as readonly string[]).includes(c),
      );
      const seen = new Set<string>();
      for (const r of recipients) {
        for (const channel of wanted) {
          const address = PHONE_CHANNELS.includes(channel) ? r.phone : r.email;
          if (!address) continue;
          const key = `${channel}\u0000${address.toLowerCase()}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const m = render(r.language, r.timeZone);
          rows.push({
            alert_id: event.alertId,
            event_seq: seq,
            platform_id: event.platformId,
            level: event.level,
            channel,
            recipient: address,
            contact_id: r.contactId,
            recipient_name: r.name,
            language: r.language,
            template_code: templateCode,
            subject: m.subject,
            body: m.body,
          });
        }
      }
    }
    return rows;
  }

  /**
   * Reminders: every open, untreated alert that had new hits since it was last notified and whose push
   * interval has passed is notified again (once per interval). Answers the number of rows written.
   */
  async sweepReminders(now: Date = this.now()): Promise<number> {
    let written = 0;
    for (const c of await outboxRepo.reminderCandidates(this.ctx.db, now)) {
      written += await this.ctx.db.k.transaction().execute(async (tx) => {
        const n = await outboxRepo.claimReminder(tx, c.alertId, now, c.pushIntervalMinutes, c.count);
        if (n === null) return 0;
        return this.enqueueForEvent(
          {
            alertId: c.alertId,
            kind: 'reminder',
            reminder: n,
            level: c.level as AlertEvent['level'],
            platformId: c.platformId,
            deviceId: c.deviceId,
            quantity: c.quantity,
            groupId: c.groupId,
            channels: c.channels as AlertChannel[],
            value: c.value,
            threshold: c.threshold,
            at: c.lastAt.toISOString(),
          },
          tx,
        );
      });
    }
    if (written) this.kick();
    return written;
  }

  /** The subscription of the alert event bus: inside the alert's transaction (savepoint), then after commit. */
  async onEventsInTx(tx: Exec, events: readonly AlertEvent[]): Promise<void> {
    // A failure here does not undo the alert: the event bus runs this under a savepoint, rolls back to it and
    // reports; the after-commit call then writes what is missing.
    await this.enqueueForEvents(events, tx);
    for (const e of events) this.enqueuedInTx.add(e);
  }

  async onEventAfterCommit(event: AlertEvent): Promise<void> {
    if (this.stopped) return;
    // Done in the alert's transaction already (its outbox rows, or, without recipients, its notified mark at
    // this level): nothing to write again. Otherwise (the in-transaction enqueue failed, or the event was
    // emitted by another node) it is written now. The listener ran to its end in the transaction that
    // committed (the bus calls this only after commit), so such an event needs no look.
    if (
      !this.enqueuedInTx.has(event) &&
      !(await outboxRepo.eventEnqueued(this.ctx.db.k, event.alertId, eventSeq(event), event.level))
    )
      await this.enqueueForEvent(event);
    this.kick();
  }

  // ---------------------------------------------------------------------------------------------- send

  start(): void {
    this.stopped = false;
    const poll = setInterval(() => this.kick(), this.pollMs);
    const sweep = setInterval(
      () =>
        void this.sweepReminders().catch((e: unknown) =>
          this.ctx.log.error({ err: e }, 'alert notifications: reminder sweep failed'),
        ),
      this.sweepMs,
    );
    poll.unref();
    sweep.unref();
    this.timers.push(poll, sweep);
    this.kick();
  }

  /** Sends what is due now (coalesced: a kick while sending runs one more round afterwards). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((e: unknown) => this.ctx.log.error({ err: e }, 'alert notifications: sender failed'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Waits until the current round (if any) is done. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      const rows = await outboxRepo.claimDue(this.ctx.db, this.batch, this.leaseMs);
      if (!rows.length) return;
      await Promise.all(rows.map((r) => this.deliver(r)));
    }
  }

  private async deliver(r: outboxRepo.ClaimedRow): Promise<void> {
    try {
      await this.channels.of(r.channel).send({
        channel: r.channel,
        to: r.recipient,
        language: r.language,
        subject: r.subject,
        body: r.body,
        templateCode: r.template_code,
        ...(r.attachments?.length ? { attachments: this.attachmentFiles(r.attachments) } : {}),
      });
    } catch (e) {
      this.failures++;
      const message = e instanceof SendError ? e.message : 'unexpected error while sending';
      const { notifyMaxAttempts: max, notifyRetryMs: base } = this.ctx.config;
      const retryAt = r.attempts >= max ? null : new Date(Date.now() + backoffMs(base, r.attempts));
      await outboxRepo.markFailed(this.ctx.db, r.id, message, retryAt);
      // Logged without the message text or the address's secrets: the row id, channel and reason only.
      this.ctx.log.warn(
        { outboxId: r.id, alertId: r.alert_id, channel: r.channel, attempts: r.attempts, error: message },
        retryAt ? 'alert notification failed, will retry' : 'alert notification failed for good',
      );
      if (!(e instanceof SendError)) this.ctx.log.error({ err: e, outboxId: r.id }, 'alert notification sender error');
      return;
    }
    await outboxRepo.markSent(this.ctx.db, r.id);
    this.sent++;
  }

  /**
   * Report mails: queued in the transaction `tx` (idempotent per run and recipient), sent by the same sender with
   * its retries. Call kick() after the commit. Answers the number of rows written.
   */
  async enqueueReportMails(tx: Exec, rows: readonly outboxRepo.ReportMailInsert[]): Promise<number> {
    return (await outboxRepo.enqueueReportMails(tx, rows)).length;
  }

  /**
   * Plain mails (reminders of other features): queued in the transaction `tx`, where the caller also records that
   * it sent them (its once-only key); sent by the same sender with its retries. Call kick() after the commit.
   */
  async enqueuePlainMails(tx: Exec, rows: readonly outboxRepo.PlainMailInsert[]): Promise<number> {
    return (await outboxRepo.enqueuePlainMails(tx, rows)).length;
  }

  /** The files of a mail's attachments in the job store; a missing one fails the attempt (retried, then failed). */
  private attachmentFiles(list: readonly outboxRepo.MailAttachment[]) {
    return list.map((a) => {
      const p = this.files.pathOf(a.fileId, a.ext);
      if (!fs.existsSync(p)) throw new SendError(`attachment ${a.name} is no longer stored`);
      return { filename: a.name, path: p, contentType: a.contentType };
    });
  }

  /** Stops polling and waits for the messages being sent (nothing is left half-way). */
  async close(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await this.idle();
    this.channels.close();
  }
}
