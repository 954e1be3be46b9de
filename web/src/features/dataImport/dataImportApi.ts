import {
  dataImportRoutes,
  IMPORT_MAX_BYTES,
  statusKind,
  type ImportFile,
  type ImportMapping,
} from '@geosentry/contract';
import i18n, { currentLanguage } from '../../shared/i18n.ts';
import { call, httpErrorMessage } from '../../shared/api.ts';
import { getToken } from '../../shared/storage.ts';
import { change } from '../../shared/query.ts';

/** A file the browser may send: a csv or xlsx name within IMPORT_MAX_BYTES; else the translated reason. */
export function checkFile(f: { name: string; size: number }): string | null {
  if (!/\.(csv|xlsx)$/i.test(f.name)) return i18n.t('dataImport:upload.badType');
  if (f.size > IMPORT_MAX_BYTES) return i18n.t('dataImport:upload.tooLarge', { mb: IMPORT_MAX_BYTES / 1024 / 1024 });
  if (f.size === 0) return i18n.t('dataImport:upload.empty');
  return null;
}

/** Uploads the file (multipart, field `file`); the server checks its content and answers the preview. */
export async function uploadImportFile(file: File): Promise<ImportFile> {
  const form = new FormData();
  form.append('file', file, file.name);
  const headers: Record<string, string> = { language: currentLanguage() };
  const token = getToken();
  if (token) headers.token = token;
  const res = await fetch(dataImportRoutes.upload.path, { method: 'POST', headers, body: form });
  const env = (await res.json().catch(() => null)) as { status?: number; info?: string; data?: ImportFile } | null;
  if (!env || typeof env.status !== 'number') throw new Error(httpErrorMessage(res.status));
  if (statusKind(env.status) === 'error' || statusKind(env.status) === 'sessionEnd' || !env.data)
    throw new Error(env.info || httpErrorMessage(res.status));
  return env.data;
}

export const previewFile = (fileId: string, sheet?: string) =>
  call(dataImportRoutes.preview, { fileId, sheet }, { keepEarlier: true, silent: true });

export const startDryRun = (m: ImportMapping) =>
  call(dataImportRoutes.dryRun, { ...m, quantities: JSON.stringify(m.quantities) } as never, {
    ...change,
    silent: true,
  });

export const startImport = (jobId: number) => call(dataImportRoutes.import, { jobId }, { ...change, silent: true });
