// What other modules (and app.ts) may use of the archives module (safety supervision).
export { registerArchives } from './archives.routes.ts';
export { ArchiveReminders } from './archives.reminders.ts';
