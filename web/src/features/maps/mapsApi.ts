import { mapsRoutes, statusKind, type MapLayerRow, type TileSet } from '@geosentry/contract';
import { currentLanguage } from '../../shared/i18n.ts';
import { call, httpErrorMessage } from '../../shared/api.ts';
import { getToken } from '../../shared/storage.ts';

const change = { keepEarlier: true } as const;
export const mapsKeys = {
  settings: ['maps', 'settings'] as const,
  tileSets: ['maps', 'tileSets'] as const,
  layers: (platformId: number | null) => ['maps', 'layers', platformId] as const,
};
export const fetchSettings = () => call(mapsRoutes.getSettings, {}, change);
export const fetchTileSets = () => call(mapsRoutes.tileSetList, {}, change);
export const fetchLayers = (platformId: number | null) =>
  call(mapsRoutes.layerList, platformId === null ? {} : { platformId }, change);
export type SettingsParams = Parameters<typeof call<typeof mapsRoutes.setSettings>>[1];
export const saveSettings = (p: NonNullable<SettingsParams>) => call(mapsRoutes.setSettings, p, change);
export const deleteTileSet = (id: number) => call(mapsRoutes.tileSetDelete, { id }, change);
export const deleteLayer = (id: number) => call(mapsRoutes.layerDelete, { id }, change);

/** A multipart upload to one of the module's routes; the server checks the content and answers the envelope. */
export async function upload<T>(path: string, file: File, fields: Record<string, string>): Promise<T> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', file, file.name);
  const headers: Record<string, string> = { language: currentLanguage() };
  const token = getToken();
  if (token) headers.token = token;
  const res = await fetch(path, { method: 'POST', headers, body: form });
  const env = (await res.json().catch(() => null)) as { status?: number; info?: string; data?: T } | null;
  if (!env || typeof env.status !== 'number') throw new Error(httpErrorMessage(res.status));
  if (statusKind(env.status) === 'error' || statusKind(env.status) === 'sessionEnd' || env.data === undefined)
    throw new Error(env.info || httpErrorMessage(res.status));
  return env.data;
}
export const uploadTileSet = (file: File, name: string, provider: string) =>
  upload<TileSet>(mapsRoutes.tileSetUpload.path, file, { name, provider });
export const importLayer = (file: File, platformId: number | null, name?: string) =>
  upload<MapLayerRow>(mapsRoutes.layerImport.path, file, {
    ...(platformId === null ? {} : { platformId: String(platformId) }),
    ...(name ? { name } : {}),
  });
