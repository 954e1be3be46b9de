import { statusKind, threeDRoutes, type Envelope, type ThreeDModel, type ThreeDPlacement } from '@geosentry/contract';
import { ApiError, apiEvents, call } from '../../shared/api.ts';
import { change, picker } from '../../shared/query.ts';
import i18n, { currentLanguage } from '../../shared/i18n.ts';
import { clearSession, getToken } from '../../shared/storage.ts';

export const threeDKeys = {
  all: ['threeD'] as const,
  sites: ['threeD', 'sites'] as const,
  scene: (platformId: number) => ['threeD', 'scene', platformId] as const,
  tilesets: ['threeD', 'tilesets'] as const,
  recent: (deviceId: number) => ['threeD', 'recent', deviceId] as const,
};

export const fetchSites = () => call(threeDRoutes.sites, {}, picker);
export const fetchScene = (platformId: number) => call(threeDRoutes.scene, { platformId });
export const fetchRecent = (deviceId: number) => call(threeDRoutes.recent, { deviceId }, { keepEarlier: true });
export const savePlacements = (platformId: number, placements: ThreeDPlacement[]) =>
  call(threeDRoutes.savePlacements, { platformId, placements: JSON.stringify(placements) }, change);
export const fetchTilesets = () => call(threeDRoutes.tilesets, {}, picker);
export const setTileset = (platformId: number, name: string) =>
  call(threeDRoutes.setTileset, { platformId, name }, change);
export const deleteModel = (platformId: number) => call(threeDRoutes.deleteModel, { platformId }, change);

/** A file address with the session token in the query (for loaders that cannot send headers). */
export function withToken(url: string): string {
  const token = getToken();
  return token ? `${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}` : url;
}

/**
 * Sends a multipart form (fields, then one file) to a route of this feature or of panoramas, with the token and
 * language headers; reports progress; answers the envelope's data or throws an ApiError with the server's message.
 */
export function uploadForm<T>(
  path: string,
  fields: Record<string, string>,
  file: File,
  onProgress?: (percent: number) => void,
): Promise<T> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', file, file.name);
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('language', currentLanguage());
    const token = getToken();
    if (token) xhr.setRequestHeader('token', token);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onerror = () => reject(new ApiError('network', i18n.t('common:error.network', { detail: '' })));
    xhr.onload = () => {
      let env: Envelope<T>;
      try {
        env = JSON.parse(xhr.responseText) as Envelope<T>;
      } catch {
        reject(new ApiError(xhr.status, i18n.t('threeD:errors.uploadFailed')));
        return;
      }
      const kind = statusKind(env.status);
      if (kind === 'success' || kind === 'warning') resolve(env.data);
      else {
        if (kind === 'sessionEnd') {
          clearSession();
          apiEvents.onSessionEnd(env.info);
        }
        reject(new ApiError(env.status, env.info || i18n.t('threeD:errors.uploadFailed'), env.data));
      }
    };
    xhr.send(form);
  });
}

export const uploadModel = (platformId: number, file: File, onProgress?: (p: number) => void) =>
  uploadForm<ThreeDModel>(threeDRoutes.uploadModel.path, { platformId: String(platformId) }, file, onProgress);
