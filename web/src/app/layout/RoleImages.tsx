import type { ReactElement } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { filesRoutes } from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { getToken } from '../../shared/storage.ts';

/** At most this many images under the menu. */
const MAX_IMAGES = 4;

/** The file ids of a role file document's `image` list (items `{file_id}` or plain ids, spec §7). */
export function roleImageIds(detail: Record<string, unknown> | undefined): string[] {
  const list = detail?.image;
  if (!Array.isArray(list)) return [];
  const ids: string[] = [];
  for (const item of list) {
    const id =
      typeof item === 'string'
        ? item
        : item && typeof item === 'object'
          ? (item as { file_id?: unknown }).file_id
          : null;
    if (typeof id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(id) && !ids.includes(id)) ids.push(id);
  }
  return ids.slice(0, MAX_IMAGES);
}

/**
 * The role's images below the side menu (spec §2 layout, §7 role file documents): the role's roleFileId names a
 * file document whose detail.image lists file ids, each shown through getOriginalImage. Nothing when the role has
 * no document or the document no images (or cannot be read: the menu does not need it).
 */
export function RoleImages({ fileId }: { fileId: string | null }): ReactElement | null {
  const { t } = useTranslation('common');
  const doc = useQuery({
    queryKey: ['roleImages', fileId],
    queryFn: () => call(filesRoutes.getDocument, { file_id: fileId! }, { silent: true, keepEarlier: true }),
    enabled: Boolean(fileId),
    staleTime: 5 * 60_000,
    retry: false,
  });
  const ids = roleImageIds(doc.data?.[0]?.detail);
  if (!fileId || ids.length === 0) return null;
  const token = encodeURIComponent(getToken() ?? '');
  return (
    <div className="gs-role-images" data-testid="role-images" aria-label={t('header.roleImages')}>
      {ids.map((id) => (
        <img
          key={id}
          src={`/api/v2/file/getOriginalImage?file_id=${encodeURIComponent(id)}&token=${token}`}
          alt=""
          loading="lazy"
          data-file-id={id}
        />
      ))}
    </div>
  );
}
