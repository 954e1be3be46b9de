import {
  FILE_TYPES,
  MAX_DOCUMENT_BYTES,
  MAX_PICTURE_BYTES,
  UPLOAD_RULES,
  filesRoutes,
  maxBytesOf,
  statusKind,
  type Envelope,
  type FileType,
  type UploadAnswer,
  type UploadKind,
} from '@geosentry/contract';
import i18n, { currentLanguage } from '../../shared/i18n.ts';
import { clearSession, getToken } from '../../shared/storage.ts';
import { ApiError, apiEvents } from '../../shared/api.ts';

/** The stored file type a file name's extension names, or null. */
export function typeOfName(name: string): FileType | null {
  const ext = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase();
  if (!ext) return null;
  for (const [type, info] of Object.entries(FILE_TYPES))
    if ((info.extensions as readonly string[]).includes(ext)) return type as FileType;
  return null;
}

/**
 * The client-side checks of spec §5 before an upload: how many files, their types and sizes.
 * Answers a translated message, or null when the files may be sent.
 */
export function checkUpload(kind: UploadKind, files: readonly File[], room: number): string | null {
  const t = i18n.getFixedT(null, 'files');
  const rule = UPLOAD_RULES[kind];
  if (files.length === 0) return t('errors.noFile');
  if (files.length > Math.min(rule.maxFiles, room))
    return kind === 'picture' || room <= 1 ? t('errors.singlePicture') : t('errors.tooMany', { max: room });
  for (const f of files) {
    const type = typeOfName(f.name);
    if (!type || !rule.types.includes(type)) return t(`errors.type.${kind}`, { name: f.name });
    if (f.size === 0) return t('errors.empty', { name: f.name });
    if (f.size > maxBytesOf(type))
      return t('errors.tooLarge', {
        name: f.name,
        picture: MAX_PICTURE_BYTES / 1024 / 1024,
        document: MAX_DOCUMENT_BYTES / 1024 / 1024,
      });
  }
  return null;
}

/**
 * Sends files to /api/v2/file/upload as multipart/form-data (kind, optional platformId, the files) with the
 * token and language headers; the browser sets the content type with its boundary. Reports the progress (0-100).
 */
export function uploadFiles(
  kind: UploadKind,
  files: readonly File[],
  opts: { platformId?: number | undefined; onProgress?: (percent: number) => void } = {},
): Promise<UploadAnswer> {
  const form = new FormData();
  form.append('kind', kind);
  if (opts.platformId !== undefined) form.append('platformId', String(opts.platformId));
  for (const f of files) form.append('file', f, f.name);
  return new Promise<UploadAnswer>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(filesRoutes.upload.method, filesRoutes.upload.path);
    xhr.setRequestHeader('language', currentLanguage());
    const token = getToken();
    if (token) xhr.setRequestHeader('token', token);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) opts.onProgress?.(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onerror = () => reject(new ApiError('network', i18n.t('common:error.network', { detail: '' })));
    xhr.onload = () => {
      let env: Envelope<UploadAnswer>;
      try {
        env = JSON.parse(xhr.responseText) as Envelope<UploadAnswer>;
      } catch {
        reject(new ApiError(xhr.status, i18n.t('files:errors.failed')));
        return;
      }
      switch (statusKind(env.status)) {
        case 'success':
        case 'warning':
          resolve(env.data);
          return;
        case 'sessionEnd':
          clearSession();
          apiEvents.onSessionEnd(env.info);
          reject(new ApiError(env.status, env.info, env.data));
          return;
        default:
          reject(new ApiError(env.status, env.info || i18n.t('files:errors.failed'), env.data));
      }
    };
    xhr.send(form);
  });
}

/** The address of a stored file for <img src> or a link: the token travels in the query (spec §7). */
export function fileHref(id: string, download = false): string {
  const route = download ? filesRoutes.download : filesRoutes.getOriginalImage;
  const token = getToken();
  return `${route.path}?file_id=${encodeURIComponent(id)}${token ? `&token=${encodeURIComponent(token)}` : ''}`;
}
