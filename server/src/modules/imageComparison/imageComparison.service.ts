// Image comparison (issue 17): two stored pictures of one site side by side, with the dates they were taken and
// the engineer's notes, as a ReportDocument (on screen, xlsx, PDF, Word). Both pictures must be pictures of the
// site, visible to the caller: a foreign or missing file answers like a missing one, and so does a picture of
// another site.
import { Status, parseTime, type ImageComparison, type Language, type ReportDocument } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { AppError } from '../../platform/http/errors.ts';
import { requestTimeZone } from '../../platform/timeZone.ts';
import type { ImageReader } from '../../platform/reports/index.ts';
import { findFiles, type FilesService } from '../files/index.ts';
import { findPlatform } from '../platforms/index.ts';

type W = Record<Language, string>;
const WORDS = {
  title: { en: 'Image comparison', zh: '图片对比', ko: '이미지 비교' },
  site: { en: 'Site', zh: '平台', ko: '현장' },
  subject: { en: 'Subject', zh: '对比内容', ko: '대상' },
  before: { en: 'Before', zh: '前期', ko: '이전' },
  after: { en: 'After', zh: '后期', ko: '이후' },
  interval: { en: 'Interval', zh: '间隔', ko: '간격' },
  days: { en: '{n} days', zh: '{n} 天', ko: '{n}일' },
  pictures: { en: 'Pictures', zh: '图片', ko: '사진' },
  notes: { en: 'Notes', zh: '说明', ko: '메모' },
} satisfies Record<string, W>;

export interface ComparisonQuery {
  platformId: number;
  beforeFileId: string;
  afterFileId: string;
  beforeTakenAt?: string | undefined;
  afterTakenAt?: string | undefined;
  beforeNote?: string | undefined;
  afterNote?: string | undefined;
  subject?: string | undefined;
  timeZone?: string | undefined;
}

const PICTURES = new Set(['jpg', 'png']);

export class ImageComparisonService {
  constructor(
    private readonly ctx: AppContext,
    private readonly files: FilesService,
  ) {}

  async report(user: SessionUser, lang: Language, q: ComparisonQuery, now = Date.now()): Promise<ImageComparison> {
    const tz = await requestTimeZone(this.ctx, user.id, q.timeZone);
    const site = await findPlatform(this.ctx.db, user.scope, q.platformId);
    if (!site) throw new AppError(Status.notFound, 'platformNotFound');
    const found = await findFiles(this.ctx.db, user.scope, [q.beforeFileId, q.afterFileId]);
    const pick = (id: string) => {
      const f = found.find((x) => x.id === id);
      // A picture of another site, a document, or a file the caller cannot see: like a missing file.
      if (!f || f.platformId !== site.id || !PICTURES.has(f.ext)) throw new AppError(Status.notFound, 'fileNotFound');
      return f;
    };
    const before = pick(q.beforeFileId);
    const after = pick(q.afterFileId);
    const taken = (asked: string | undefined, stored: Date): number => {
      if (!asked) return stored.getTime();
      const t = parseTime(asked, tz);
      if (t === null || t === undefined || !Number.isFinite(t)) throw new AppError(Status.invalid, 'badTimeRange');
      return t;
    };
    const t0 = taken(q.beforeTakenAt, before.createdAt);
    const t1 = taken(q.afterTakenAt, after.createdAt);
    const w = (k: keyof typeof WORDS) => WORDS[k][lang];
    const days = Math.round(((t1 - t0) / 86_400_000) * 10) / 10;
    const doc: ReportDocument = {
      title: `${site.name} ${w('title')}`,
      ...(q.subject ? { subtitle: q.subject } : {}),
      language: lang,
      timeZone: tz,
      generatedAt: new Date(now).toISOString(),
      meta: [
        { label: w('site'), value: site.name },
        ...(q.subject ? [{ label: w('subject'), value: q.subject }] : []),
        { label: w('interval'), value: w('days').replace('{n}', String(days)) },
      ],
      sections: [
        {
          title: w('pictures'),
          blocks: [
            {
              kind: 'images',
              images: [
                {
                  fileId: before.id,
                  caption: `${w('before')} · ${before.originalName}`,
                  takenAt: new Date(t0).toISOString(),
                  ...(q.beforeNote ? { note: q.beforeNote } : {}),
                },
                {
                  fileId: after.id,
                  caption: `${w('after')} · ${after.originalName}`,
                  takenAt: new Date(t1).toISOString(),
                  ...(q.afterNote ? { note: q.afterNote } : {}),
                },
              ],
            },
          ],
        },
      ],
      fileName: `image-comparison-${site.id}-${new Date(t0).toISOString().slice(0, 10)}-${new Date(t1).toISOString().slice(0, 10)}`,
    };
    return { platformId: site.id, document: doc };
  }

  /** Reads the pictures of a document this caller was answered (the renderers' image reader). */
  reader(user: SessionUser): ImageReader {
    return async (fileId) => {
      const { stream } = await this.files.open(user, fileId);
      const chunks: Buffer[] = [];
      for await (const c of stream) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    };
  }
}
