// What other modules may use of the notification module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts): the outbox, which also mails scheduled reports with attachments.
export { AlertNotifier } from './alertNotifications.outbox.ts';
export type { MailAttachment, ReportMailInsert } from './alertNotifications.outbox.repository.ts';
export type { PlainMailInsert } from './alertNotifications.outbox.repository.ts';
