import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { sql, type SqlBool } from 'kysely';
import {
  Status,
  type AlertEvent,
  type CameraSnapshot,
  type CameraTask,
  type SnapshotSource,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { decrypt } from '../../platform/auth/crypto.ts';
import { AppError } from '../../platform/http/errors.ts';
import { iso, isDbId, likePattern } from '../../platform/db/sql.ts';
import { cam } from './cameras.tables.ts';
import * as repo from './cameras.repository.ts';
import { removeSnapshotFiles, snapshotFile } from './cameras.service.ts';
import { rtspAddress, rtspInput } from './cameras.rtsp.ts';

/** Alert snapshots are kept this long (days). */
const ALERT_SNAPSHOT_DAYS = 365;
/** Cameras grabbed at once for an alert (an ffmpeg each, decoding one key frame). */
const ALERT_SNAPSHOT_PARALLEL = 4;

/** Runs ffmpeg to grab one frame of an RTSP stream into a JPEG; rejects after 15 s or on failure. */
export function grabFrame(ffmpeg: string, url: string, out: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // The address (with the camera's credentials) goes to ffmpeg on stdin, never on its command line.
    const input = rtspInput(url);
    const p = spawn(
      ffmpeg,
      [
        '-hide_banner',
        '-nostdin',
        '-loglevel',
        'error',
        // Decode key frames only: a picture grabbed from the middle of a group of pictures is a grey smear.
        '-skip_frame',
        'nokey',
        ...input.args,
        '-frames:v',
        '1',
        '-q:v',
        '4',
        '-f',
        'image2',
        '-y',
        out,
      ],
      { stdio: ['pipe', 'ignore', 'ignore'] },
    );
    p.stdin?.on('error', () => undefined);
    p.stdin?.end(input.list);
    const timer = setTimeout(() => p.kill('SIGKILL'), 15_000);
    p.on('error', () => undefined);
    p.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0 && fs.existsSync(out) && fs.statSync(out).size > 0) resolve();
      else reject(new Error('no frame'));
    });
  });
}

/**
 * Snapshots and camera tasks. A task takes a picture of each of its cameras at its times of day (the server's
 * time zone) and keeps it retentionDays; an alert raised on a site with cameras gets a picture of each of them.
 * Pictures are JPEG files of the site (DATA_DIR/cameras/<site>/<camera>/<id>.jpg) listed in camera_snapshots.
 */
export class CameraSnapshots {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly ctx: AppContext) {}

  start(tickMs = 20_000): void {
    this.timer = setInterval(() => void this.tick(), tickMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
    await Promise.allSettled([...this.pending]);
  }

  /** Waits for the pictures being taken (tests). */
  async idle(): Promise<void> {
    await this.running;
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  /** Takes a picture of a camera and records it; throws cameraUnreachable when the camera gives no frame. */
  async take(
    c: repo.CameraRow,
    source: SnapshotSource,
    opts: { taskId?: number; alertId?: number; retentionDays?: number } = {},
  ): Promise<CameraSnapshot> {
    const password = c.vmPasswordEnc ? decrypt(this.ctx.secret, c.vmPasswordEnc) : null;
    const dir = path.dirname(snapshotFile(this.ctx.config.dataDir, c.platformId, c.id, 0));
    fs.mkdirSync(dir, { recursive: true });
    const tmp = path.join(dir, `.grab-${process.pid}-${Math.random().toString(36).slice(2)}.jpg`);
    try {
      await grabFrame(this.ctx.config.camera.ffmpeg, rtspAddress(c, password), tmp);
    } catch {
      fs.rmSync(tmp, { force: true });
      throw new AppError(Status.invalid, 'cameraUnreachable');
    }
    const size = fs.statSync(tmp).size;
    const r = await cam(this.ctx.db)
      .insertInto('camera_snapshots')
      .values({
        camera_id: c.id,
        platform_id: c.platformId,
        source,
        task_id: opts.taskId ?? null,
        alert_id: opts.alertId ?? null,
        size,
        expires_at: opts.retentionDays ? sql<string>`now() + make_interval(days => ${opts.retentionDays})` : null,
      })
      .returning(['id', 'taken_at'])
      .executeTakeFirstOrThrow();
    fs.renameSync(tmp, snapshotFile(this.ctx.config.dataDir, c.platformId, c.id, r.id));
    return {
      id: r.id,
      cameraId: c.id,
      cameraName: c.name,
      platformId: c.platformId,
      takenAt: iso(r.taken_at),
      source,
      taskId: opts.taskId ?? null,
      alertId: opts.alertId ?? null,
      size,
    };
  }

  /**
   * An alert raised on a site with cameras: a picture of each camera, attached to the alert. Up to
   * ALERT_SNAPSHOT_PARALLEL cameras at once, so that the pictures show the moment it fired (one after the other,
   * four cameras took 4 to 13 s).
   */
  onAlert(e: AlertEvent): void {
    if (e.kind !== 'raised') return;
    const work = (async () => {
      const ids = await repo.cameraIdsOfSite(this.ctx.db, e.platformId);
      const next = async (): Promise<void> => {
        for (let id = ids.shift(); id !== undefined; id = ids.shift()) {
          const c = await repo.cameraById(this.ctx.db, id);
          if (c)
            await this.take(c, 'alert', { alertId: e.alertId, retentionDays: ALERT_SNAPSHOT_DAYS }).catch(
              () => undefined,
            );
        }
      };
      await Promise.all(Array.from({ length: ALERT_SNAPSHOT_PARALLEL }, next));
    })();
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  async list(
    user: SessionUser,
    f: {
      cameraId?: number | undefined;
      platformId?: number | undefined;
      date?: string | undefined;
      alertId?: number | undefined;
      pageNum: number;
      pageSize: number;
    },
  ): Promise<{ list: CameraSnapshot[]; total: number }> {
    let q = repo.visible(this.ctx.db, user).innerJoin('camera_snapshots as s', 's.camera_id', 'c.id');
    if (f.cameraId !== undefined) q = q.where('c.id', '=', isDbId(f.cameraId) ? f.cameraId : 0);
    if (f.platformId !== undefined) q = q.where('c.platform_id', '=', isDbId(f.platformId) ? f.platformId : 0);
    if (f.alertId !== undefined) q = q.where('s.alert_id', '=', isDbId(f.alertId) ? f.alertId : 0);
    if (f.date)
      q = q.where(sql<SqlBool>`s.taken_at >= ${f.date}::date and s.taken_at < ${f.date}::date + interval '1 day'`);
    const [rows, total] = await Promise.all([
      q
        .select([
          's.id',
          's.camera_id',
          'c.name',
          's.platform_id',
          's.taken_at',
          's.source',
          's.task_id',
          's.alert_id',
          's.size',
        ])
        .orderBy('s.taken_at', 'desc')
        .orderBy('s.id', 'desc')
        .limit(f.pageSize)
        .offset((f.pageNum - 1) * f.pageSize)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      list: rows.map((r) => ({
        id: r.id,
        cameraId: r.camera_id,
        cameraName: r.name,
        platformId: r.platform_id,
        takenAt: iso(r.taken_at),
        source: r.source as SnapshotSource,
        taskId: r.task_id,
        alertId: r.alert_id,
        size: r.size,
      })),
      total: Number(total.n),
    };
  }

  /** The JPEG of a snapshot of a camera the caller sees; a foreign one answers like a missing one. */
  async file(user: SessionUser, id: number): Promise<string> {
    const r = isDbId(id)
      ? await repo
          .visible(this.ctx.db, user)
          .innerJoin('camera_snapshots as s', 's.camera_id', 'c.id')
          .select(['s.id', 's.camera_id', 's.platform_id'])
          .where('s.id', '=', id)
          .executeTakeFirst()
      : undefined;
    const file = r ? snapshotFile(this.ctx.config.dataDir, r.platform_id, r.camera_id, r.id) : null;
    if (!file || !fs.existsSync(file)) throw new AppError(Status.notFound, 'cameraSnapshotNotFound');
    return file;
  }

  // Tasks

  private async presentTasks(
    user: SessionUser,
    rows: {
      id: number;
      name: string;
      camera_ids: number[];
      times: string[];
      retention_days: number;
      enabled: boolean;
      last_run_at: Date | null;
      created_at: Date;
    }[],
  ): Promise<CameraTask[]> {
    const cams = await repo.camerasByIds(this.ctx.db, user, [...new Set(rows.flatMap((r) => r.camera_ids))]);
    const names = new Map(cams.map((c) => [c.id, c.name]));
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      kind: 'snapshot' as const,
      cameraIds: r.camera_ids.filter((id) => names.has(id)),
      cameraNames: r.camera_ids.flatMap((id) => names.get(id) ?? []),
      times: r.times,
      retentionDays: r.retention_days,
      enabled: r.enabled,
      lastRunAt: r.last_run_at ? iso(r.last_run_at) : null,
      createdAt: iso(r.created_at),
    }));
  }

  /** Tasks whose cameras the caller all sees (a task with a camera outside his view is not his to see). */
  private tasksOf(user: SessionUser) {
    const seen = repo.visible(this.ctx.db, user).select('c.id');
    return cam(this.ctx.db)
      .selectFrom('camera_tasks as t')
      .where(sql<SqlBool>`not exists (select 1 from unnest(t.camera_ids) as u(id) where u.id not in (${seen}))`);
  }

  async tasks(
    user: SessionUser,
    f: { keyword?: string | undefined; pageNum: number; pageSize: number },
  ): Promise<{ list: CameraTask[]; total: number }> {
    let q = this.tasksOf(user);
    if (f.keyword) q = q.where(sql<SqlBool>`lower(t.name) like ${likePattern(f.keyword)}`);
    const [rows, total] = await Promise.all([
      q
        .select([
          't.id',
          't.name',
          't.camera_ids',
          't.times',
          't.retention_days',
          't.enabled',
          't.last_run_at',
          't.created_at',
        ])
        .orderBy('t.id', 'desc')
        .limit(f.pageSize)
        .offset((f.pageNum - 1) * f.pageSize)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { list: await this.presentTasks(user, rows), total: Number(total.n) };
  }

  private async mustTask(user: SessionUser, id: number): Promise<void> {
    const r = isDbId(id)
      ? await this.tasksOf(user).select('t.id').where('t.id', '=', id).executeTakeFirst()
      : undefined;
    if (!r) throw new AppError(Status.notFound, 'cameraTaskNotFound');
  }

  private async checkCameras(user: SessionUser, ids: number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    const seen = await repo.camerasByIds(this.ctx.db, user, unique);
    if (seen.length !== unique.length) throw new AppError(Status.notFound, 'cameraNotFound');
    return unique;
  }

  async addTask(user: SessionUser, b: TaskInput): Promise<number> {
    const cameraIds = await this.checkCameras(user, b.cameraIds);
    const r = await cam(this.ctx.db)
      .insertInto('camera_tasks')
      .values({
        name: b.name,
        camera_ids: cameraIds,
        times: [...new Set(b.times)].sort(),
        retention_days: b.retentionDays,
        enabled: b.enabled ?? true,
        created_by: user.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  }

  async editTask(user: SessionUser, id: number, b: TaskInput): Promise<void> {
    await this.mustTask(user, id);
    const cameraIds = await this.checkCameras(user, b.cameraIds);
    await cam(this.ctx.db)
      .updateTable('camera_tasks')
      .set({
        name: b.name,
        camera_ids: cameraIds,
        times: [...new Set(b.times)].sort(),
        retention_days: b.retentionDays,
        enabled: b.enabled ?? true,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .execute();
  }

  async deleteTask(user: SessionUser, id: number): Promise<void> {
    await this.mustTask(user, id);
    await cam(this.ctx.db).deleteFrom('camera_tasks').where('id', '=', id).execute();
  }

  /** Runs the due tasks and removes expired pictures. */
  tick(now = new Date()): Promise<void> {
    this.running = this.running
      .then(() => this.runDue(now))
      .catch((e: unknown) => {
        this.ctx.log.error({ err: e }, 'camera tasks failed');
      });
    return this.running;
  }

  private async runDue(now: Date): Promise<void> {
    const hhmm = new Intl.DateTimeFormat('en-GB', {
      timeZone: this.ctx.config.timeZone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(now);
    const due = await cam(this.ctx.db)
      .selectFrom('camera_tasks')
      .select(['id', 'camera_ids', 'retention_days'])
      .where('enabled', '=', true)
      .where(sql<SqlBool>`${hhmm} = any(times)`)
      .where(
        sql<SqlBool>`(last_run_at is null or last_run_at < ${now.toISOString()}::timestamptz - interval '90 seconds')`,
      )
      .execute();
    for (const t of due) {
      await cam(this.ctx.db).updateTable('camera_tasks').set({ last_run_at: now }).where('id', '=', t.id).execute();
      for (const id of t.camera_ids) {
        const c = await repo.cameraById(this.ctx.db, id);
        if (c) await this.take(c, 'task', { taskId: t.id, retentionDays: t.retention_days }).catch(() => undefined);
      }
    }
    const expired = await cam(this.ctx.db)
      .deleteFrom('camera_snapshots')
      .where(sql<SqlBool>`expires_at < now()`)
      .returning(['id', 'camera_id', 'platform_id'])
      .execute();
    removeSnapshotFiles(
      this.ctx.config.dataDir,
      expired.map((s) => ({ id: s.id, cameraId: s.camera_id, platformId: s.platform_id })),
    );
  }
}

export interface TaskInput {
  name: string;
  cameraIds: number[];
  times: string[];
  retentionDays: number;
  enabled?: boolean | undefined;
}
