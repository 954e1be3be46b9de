import { sql } from 'kysely';
import type { AppContext } from '../../platform/context.ts';
import { translate, type MessageKey } from '../../platform/http/messages.ts';
import { todayOf } from '../../platform/rectification.ts';
import type { AlertNotifier } from '../alertNotifications/index.ts';
import * as repo from './archives.repository.ts';

/** How often the reminder check runs (it is cheap: one query when nothing is due). */
export const REMINDER_CHECK_MS = 10 * 60_000;

const SORT_LABEL: Record<string, MessageKey> = {
  emergency: 'archivesKindEmergency',
  prevention: 'archivesKindPrevention',
  certificate: 'archivesTypeCertificate',
  licence: 'archivesTypeLicence',
};

/**
 * Reminders before a plan's validity ends or a certificate expires: a periodic check mails the plan's (or the
 * document's) contact, in the contact's language, through the notification outbox. Exactly once per plan (or
 * document) and end date: the reminder's key (kind, id, end date) and its outbox row are written in one
 * transaction, and a second check (another node, a retry, the next round) finds the key and writes nothing.
 * A new end date (a newly approved version, a renewed certificate) is reminded again when it falls due.
 */
export class ArchiveReminders {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly notifier: AlertNotifier,
  ) {}

  start(intervalMs = REMINDER_CHECK_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.safely(), intervalMs);
    this.timer.unref();
    void this.safely();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => 0);
  }

  private async safely(): Promise<void> {
    if (this.running) return;
    this.running = this.check().finally(() => (this.running = null));
    await this.running.catch((e: unknown) => this.ctx.log.error({ err: e }, 'archive reminders: check failed'));
  }

  /** Queues the reminders due on `today` (default: the database's date); answers how many were queued. */
  async check(today?: string): Promise<number> {
    const day = today ?? (await todayOf(this.ctx.db));
    let queued = 0;
    for (const due of await repo.dueReminders(this.ctx.db, day)) {
      const sent = await this.ctx.db.k.transaction().execute(async (tx) => {
        const key = await sql<{ ref_id: number }>`
          insert into archive_reminders (kind, ref_id, due_date, recipient)
          values (${due.kind}, ${due.refId}, ${due.dueDate}::date, ${due.recipient})
          on conflict do nothing returning ref_id`.execute(tx);
        if (!key.rows.length) return false;
        await this.notifier.enqueuePlainMails(tx, [this.mail(due)]);
        return true;
      });
      if (sent) queued++;
    }
    if (queued) this.notifier.kick();
    return queued;
  }

  private mail(d: repo.DueReminder) {
    const lang = d.language;
    const sort = translate(lang, SORT_LABEL[d.sort] ?? 'archivesTypeDocument');
    const params = {
      site: d.site,
      plan: d.name,
      name: d.name,
      kind: sort,
      type: sort,
      version: d.version ?? '',
      date: d.dueDate,
    };
    const plan = d.kind === 'plan';
    return {
      platform_id: d.platformId,
      recipient: d.recipient,
      contact_id: d.contactId,
      recipient_name: d.recipientName,
      language: lang,
      subject: translate(lang, plan ? 'archivesPlanReminderSubject' : 'archivesDocumentReminderSubject', params),
      body: translate(lang, plan ? 'archivesPlanReminderBody' : 'archivesDocumentReminderBody', params),
    };
  }
}
