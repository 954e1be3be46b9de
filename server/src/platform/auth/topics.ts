import { Status } from '@geosentry/contract';
import type { Db } from '../db/db.ts';
import { AppError } from '../http/errors.ts';
import { inScope, type DataScope } from './access.ts';

/**
 * Identifiers that screens hang data off (a message board's topic, a template's owner) may name a site's object:
 * `platform:<id>`, `section:<id>` or `device:<id>`. Such an identifier is site data: a caller whose data scope does
 * not hold the site gets exactly the answer of a missing object. Other identifiers (`task-17`) name no site.
 *
 * Only the canonical spelling names an object (lower-case kind, decimal id without leading zeros); a look-alike
 * (`Platform:1`, `platform:01`) is refused, so no second spelling reaches the same topic around the check.
 */
const SITE_KINDS = {
  platform: 'platformNotFound',
  section: 'sectionNotFound',
  device: 'deviceNotFound',
} as const;
type SiteKind = keyof typeof SITE_KINDS;

const CANONICAL = /^(platform|section|device):([1-9][0-9]{0,9})$/;
const LOOK_ALIKE = /^\s*(platform|section|device)\s*:/i;

/** The site a topic names (null: it names none). Throws "does not exist" for a missing or foreign object. */
export async function siteOfTopic(db: Db, scope: DataScope, topic: string): Promise<number | null> {
  const m = CANONICAL.exec(topic);
  if (!m) {
    if (LOOK_ALIKE.test(topic)) throw new AppError(Status.invalid, 'validation', { details: 'topicId' });
    return null;
  }
  const kind = m[1] as SiteKind;
  const id = Number(m[2]);
  const site = id <= 2147483647 ? await siteOf(db, kind, id) : undefined;
  if (site === undefined || site === null || !inScope(scope, site))
    throw new AppError(Status.notFound, SITE_KINDS[kind]);
  return site;
}

async function siteOf(db: Db, kind: SiteKind, id: number): Promise<number | null | undefined> {
  switch (kind) {
    case 'platform':
      return (await db.k.selectFrom('platforms').select('id').where('id', '=', id).executeTakeFirst())?.id;
    case 'section':
      return (await db.k.selectFrom('sections').select('platform_id').where('id', '=', id).executeTakeFirst())
        ?.platform_id;
    case 'device':
      return (await db.k.selectFrom('devices').select('platform_id').where('id', '=', id).executeTakeFirst())
        ?.platform_id;
  }
}
