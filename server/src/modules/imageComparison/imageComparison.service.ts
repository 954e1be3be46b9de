// Image comparison (issue 17): two pictures of one site side by side, with the dates they were taken and the
// engineer's notes, as a ReportDocument (on screen, xlsx, PDF, Word). A picture is a jpg or png stored for the site
// (files module) or a snapshot of one of its cameras (`snap-<n>`, cameras module: only cameras the caller sees, by
// data scope and role camera configuration). Both must be pictures of the site, visible to the caller: a foreign or
// missing one answers like a missing file, and so does a picture of another site.
import fs from 'node:fs';
import {
  Status,
  parseTime,
  snapshotIdOfPicture,
  snapshotPictureId,
  type ImageComparison,
  type Language,
  type ReportDocument,
  type SitePicture,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { AppError } from '../../platform/http/errors.ts';
import { requestTimeZone } from '../../platform/timeZone.ts';
import type { ImageReader } from '../../platform/reports/index.ts';
import { findFiles, sitePictures, type FilesService } from '../files/index.ts';
import { siteSnapshots, snapshotPicture } from '../cameras/index.ts';
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
  camera: { en: 'Camera', zh: '摄像头', ko: '카메라' },
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
    const w = (k: keyof typeof WORDS) => WORDS[k][lang];
    const pick = async (id: string): Promise<{ id: string; name: string; createdAt: Date }> => {
      const snap = snapshotIdOfPicture(id);
      if (snap !== null) {
        const s = await snapshotPicture(this.ctx.db, this.ctx.config.dataDir, user, snap);
        // A snapshot of another site's camera, or of a camera the caller does not see: like a missing file.
        if (!s || s.platformId !== site.id) throw new AppError(Status.notFound, 'fileNotFound');
        return { id, name: `${w('camera')} ${s.cameraName}`, createdAt: s.takenAt };
      }
      const f = found.find((x) => x.id === id);
      // A picture of another site, a document, or a file the caller cannot see: like a missing file.
      if (!f || f.platformId !== site.id || !PICTURES.has(f.ext)) throw new AppError(Status.notFound, 'fileNotFound');
      return { id: f.id, name: f.originalName, createdAt: f.createdAt };
    };
    const before = await pick(q.beforeFileId);
    const after = await pick(q.afterFileId);
    const taken = (asked: string | undefined, stored: Date): number => {
      if (!asked) return stored.getTime();
      const t = parseTime(asked, tz);
      if (t === null || t === undefined || !Number.isFinite(t)) throw new AppError(Status.invalid, 'badTimeRange');
      return t;
    };
    const t0 = taken(q.beforeTakenAt, before.createdAt);
    const t1 = taken(q.afterTakenAt, after.createdAt);
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
                  caption: `${w('before')} · ${before.name}`,
                  takenAt: new Date(t0).toISOString(),
                  ...(q.beforeNote ? { note: q.beforeNote } : {}),
                },
                {
                  fileId: after.id,
                  caption: `${w('after')} · ${after.name}`,
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

  /**
   * The pictures of a site the caller may compare, newest first by when they were taken: its stored jpg and png
   * files and the snapshots of its cameras he sees. One page of the two lists merged (the first pageNum × pageSize
   * of each is enough to cut the page).
   */
  async pictures(
    user: SessionUser,
    platformId: number,
    p: { pageNum: number; pageSize: number; keyword?: string | undefined },
  ): Promise<{ list: SitePicture[]; total: number }> {
    const limit = p.pageNum * p.pageSize;
    const [files, snaps] = await Promise.all([
      sitePictures(this.ctx.db, user.scope, platformId, { pageNum: 1, pageSize: limit, keyword: p.keyword }),
      siteSnapshots(this.ctx.db, user, platformId, { limit, keyword: p.keyword }),
    ]);
    const all: SitePicture[] = [
      ...files.rows.map((f) => ({
        fileId: f.id,
        source: 'file' as const,
        name: f.originalName,
        cameraName: null,
        size: f.size,
        takenAt: f.createdAt.toISOString(),
        createdAt: f.createdAt.toISOString(),
      })),
      ...snaps.rows.map((s) => ({
        fileId: snapshotPictureId(s.id),
        source: 'camera' as const,
        name: s.cameraName,
        cameraName: s.cameraName,
        size: s.size,
        takenAt: s.takenAt.toISOString(),
        createdAt: s.takenAt.toISOString(),
      })),
    ].sort((a, b) => (a.takenAt < b.takenAt ? 1 : a.takenAt > b.takenAt ? -1 : a.fileId < b.fileId ? 1 : -1));
    return { list: all.slice((p.pageNum - 1) * p.pageSize, limit), total: files.total + snaps.total };
  }

  /** Reads the pictures of a document this caller was answered (the renderers' image reader). */
  reader(user: SessionUser): ImageReader {
    return async (fileId) => {
      const snap = snapshotIdOfPicture(fileId);
      if (snap !== null) {
        const s = await snapshotPicture(this.ctx.db, this.ctx.config.dataDir, user, snap);
        if (!s) throw new AppError(Status.notFound, 'fileNotFound');
        return fs.promises.readFile(s.path);
      }
      const { stream } = await this.files.open(user, fileId);
      const chunks: Buffer[] = [];
      for await (const c of stream) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    };
  }
}
