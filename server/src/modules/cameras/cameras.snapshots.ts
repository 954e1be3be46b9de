import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { sql, type SqlBool } from 'kysely';
import {
  Status,
  type AlertEvent,
  type CameraSnapshot,
  type CameraTask,
  type CameraTaskKind,
  type SnapshotMedia,
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

/** Alert snapshots and clips are kept this long (days). */
const ALERT_SNAPSHOT_DAYS = 365;
/**
 * Pictures and clips taken at once for alerts and tasks (an ffmpeg each: decoding one key frame, or remuxing a
 * clip). Pictures wait ahead of clips for a free slot; a picture taken by hand does not wait.
 */
const CAPTURE_PARALLEL = 4;

/** At most `size` jobs at once; the others wait their turn, the urgent ones (pictures) ahead of the rest. */
class Slots {
  private active = 0;
  private readonly urgent: (() => void)[] = [];
  private readonly queue: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(fn: () => Promise<T>, urgent: boolean): Promise<T> {
    if (this.active >= this.size)
      await new Promise<void>((resolve) => (urgent ? this.urgent : this.queue).push(resolve));
    else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.urgent.shift() ?? this.queue.shift();
      if (next) next();
      else this.active--;
    }
  }

  /** Jobs running now (tests). */
  get running(): number {
    return this.active;
  }
}

/**
 * Runs ffmpeg on an RTSP stream: the address (with the camera's credentials) goes to ffmpeg on stdin, never on its
 * command line; `before` are options of the input (decoding), `output` the arguments after it. Killed after
 * `timeoutMs` or when `signal` aborts. Resolves with the exit code (null when killed); `onProgress` gets what
 * ffmpeg writes to stdout.
 */
function runOnStream(
  ffmpeg: string,
  url: string,
  args: { before?: string[]; output: string[] },
  opts: { timeoutMs: number; signal?: AbortSignal | undefined; onProgress?: (chunk: string) => void },
): Promise<number | null> {
  return new Promise((resolve) => {
    const input = rtspInput(url);
    const argv = ['-hide_banner', '-nostdin', '-loglevel', 'error', ...(args.before ?? []), ...input.args];
    const p = spawn(ffmpeg, [...argv, ...args.output], {
      stdio: ['pipe', opts.onProgress ? 'pipe' : 'ignore', 'ignore'],
    });
    if (opts.onProgress) p.stdout?.on('data', (d: Buffer) => opts.onProgress!(d.toString()));
    p.stdin?.on('error', () => undefined);
    p.stdin?.end(input.list);
    const kill = (): void => void p.kill('SIGKILL');
    const timer = setTimeout(kill, opts.timeoutMs);
    opts.signal?.addEventListener('abort', kill);
    p.on('error', () => undefined);
    p.on('close', (code) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', kill);
      resolve(code);
    });
  });
}

const written = (out: string): boolean => fs.existsSync(out) && fs.statSync(out).size > 0;

/** Runs ffmpeg to grab one frame of an RTSP stream into a JPEG; rejects after 15 s or on failure. */
export async function grabFrame(ffmpeg: string, url: string, out: string): Promise<void> {
  const code = await runOnStream(
    ffmpeg,
    url,
    {
      // Decode key frames only: a picture grabbed from the middle of a group of pictures is a grey smear.
      before: ['-skip_frame', 'nokey'],
      output: ['-frames:v', '1', '-q:v', '4', '-f', 'image2', '-y', out],
    },
    { timeoutMs: 15_000 },
  );
  if (code !== 0 || !written(out)) throw new Error('no frame');
}

/**
 * Runs ffmpeg to record `seconds` of an RTSP stream into an MP4, remuxed (`-c copy`: the camera's H.264 as it
 * comes, never transcoded; audio left out, as G.711 does not fit an MP4), with the index at the front so that a
 * browser plays it before it has it all. Resolves with the length recorded (ms, what ffmpeg reports as its
 * output time); rejects when the camera gives nothing, or after the clip's length plus 20 s.
 */
export async function recordClip(
  ffmpeg: string,
  url: string,
  out: string,
  seconds: number,
  signal?: AbortSignal,
): Promise<number> {
  if (signal?.aborted) throw new Error('stopping');
  let outTimeUs = 0;
  let progress = '';
  const code = await runOnStream(
    ffmpeg,
    url,
    {
      output: [
        ...['-map', '0:v:0', '-c', 'copy', '-t', String(seconds), '-movflags', '+faststart'],
        ...['-progress', 'pipe:1', '-f', 'mp4', '-y', out],
      ],
    },
    {
      timeoutMs: (seconds + 20) * 1000,
      signal,
      onProgress: (chunk) => {
        progress = (progress + chunk).slice(-4096);
        for (const m of progress.matchAll(/out_time_us=(\d+)/g)) outTimeUs = Math.max(outTimeUs, Number(m[1]));
      },
    },
  );
  if (code !== 0 || !written(out) || outTimeUs === 0) throw new Error('no clip');
  return Math.round(outTimeUs / 1000);
}

/**
 * Snapshots and camera tasks. A task takes a picture of each of its cameras at its times of day (the server's
 * time zone) and keeps it retentionDays; an alert raised on a site with cameras gets a picture of each of them.
 * Pictures are JPEG files of the site (DATA_DIR/cameras/<site>/<camera>/<id>.jpg) listed in camera_snapshots.
 * A recording task records a clip of durationSec seconds of each camera instead (<id>.mp4, media 'mp4'), and an
 * alert also gets a clip of each camera (CAMERA_ALERT_CLIP_SECONDS). That clip starts when the alert fires: a
 * clip "from shortly before" would need a rolling buffer of every camera kept by the server, or the camera's own
 * recording fetched back (vendor-specific); neither is done, so the alert's clip shows the moments after it.
 */
export class CameraSnapshots {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly slots = new Slots(CAPTURE_PARALLEL);
  /** Ends the clips being recorded when the server stops (a clip may last 5 minutes). */
  private readonly stopping = new AbortController();

  constructor(private readonly ctx: AppContext) {}

  start(tickMs = 20_000): void {
    this.timer = setInterval(() => void this.tick(), tickMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.stopping.abort();
    await this.running;
    await Promise.allSettled([...this.pending]);
  }

  /** Pictures and clips being taken now for tasks and alerts (tests). */
  captures(): number {
    return this.slots.running;
  }

  /** Runs a capture in the background, within the capture slots; failures are left out (a camera that is down). */
  private background(fn: () => Promise<unknown>, urgent: boolean): void {
    const work = this.slots.run(fn, urgent).catch(() => undefined);
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
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
    return this.store(c, tmp, source, opts, 'jpeg', null);
  }

  /**
   * Records a clip of `seconds` of a camera and keeps it like a snapshot (media mp4); throws cameraUnreachable
   * when the camera gives nothing. The clip is written to a temporary file and renamed into place once listed.
   */
  async record(
    c: repo.CameraRow,
    source: SnapshotSource,
    seconds: number,
    opts: { taskId?: number; alertId?: number; retentionDays?: number } = {},
  ): Promise<CameraSnapshot> {
    const password = c.vmPasswordEnc ? decrypt(this.ctx.secret, c.vmPasswordEnc) : null;
    const dir = path.dirname(snapshotFile(this.ctx.config.dataDir, c.platformId, c.id, 0, 'mp4'));
    fs.mkdirSync(dir, { recursive: true });
    const tmp = path.join(dir, `.clip-${process.pid}-${Math.random().toString(36).slice(2)}.mp4`);
    let durationMs: number;
    try {
      durationMs = await recordClip(
        this.ctx.config.camera.ffmpeg,
        rtspAddress(c, password),
        tmp,
        seconds,
        this.stopping.signal,
      );
    } catch {
      fs.rmSync(tmp, { force: true });
      throw new AppError(Status.invalid, 'cameraUnreachable');
    }
    return this.store(c, tmp, source, opts, 'mp4', durationMs);
  }

  /** Lists a picture or clip written to `tmp` and moves it into place (removed again if that fails). */
  private async store(
    c: repo.CameraRow,
    tmp: string,
    source: SnapshotSource,
    opts: { taskId?: number; alertId?: number; retentionDays?: number },
    media: SnapshotMedia,
    durationMs: number | null,
  ): Promise<CameraSnapshot> {
    try {
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
          media,
          duration_ms: durationMs,
          expires_at: opts.retentionDays ? sql<string>`now() + make_interval(days => ${opts.retentionDays})` : null,
        })
        .returning(['id', 'taken_at'])
        .executeTakeFirstOrThrow();
      fs.renameSync(tmp, snapshotFile(this.ctx.config.dataDir, c.platformId, c.id, r.id, media));
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
        media,
        durationMs,
      };
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }

  /**
   * An alert raised on a site with cameras: a picture of each camera, then (CAMERA_ALERT_CLIP_SECONDS, unless 0)
   * a clip of each, attached to the alert. Up to CAPTURE_PARALLEL at once, so that the pictures show the moment it
   * fired (one after the other, four cameras took 4 to 13 s). The clip records from the alert on, not from before
   * it (see the class comment).
   */
  onAlert(e: AlertEvent): void {
    if (e.kind !== 'raised') return;
    const work = (async () => {
      const ids = await repo.cameraIdsOfSite(this.ctx.db, e.platformId);
      const opts = { alertId: e.alertId, retentionDays: ALERT_SNAPSHOT_DAYS };
      const clip = this.ctx.config.camera.alertClipSeconds;
      for (const id of ids)
        this.background(async () => {
          const c = await repo.cameraById(this.ctx.db, id);
          if (c) await this.take(c, 'alert', opts);
        }, true);
      if (clip > 0)
        for (const id of ids)
          this.background(async () => {
            const c = await repo.cameraById(this.ctx.db, id);
            if (c) await this.record(c, 'alert', clip, opts);
          }, false);
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
          's.media',
          's.duration_ms',
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
        media: r.media as SnapshotMedia,
        durationMs: r.duration_ms,
      })),
      total: Number(total.n),
    };
  }

  /** The file (JPEG or MP4) of a snapshot of a camera the caller sees; a foreign one answers like a missing one. */
  async file(user: SessionUser, id: number): Promise<{ path: string; media: SnapshotMedia }> {
    const r = isDbId(id)
      ? await repo
          .visible(this.ctx.db, user)
          .innerJoin('camera_snapshots as s', 's.camera_id', 'c.id')
          .select(['s.id', 's.camera_id', 's.platform_id', 's.media'])
          .where('s.id', '=', id)
          .executeTakeFirst()
      : undefined;
    const file = r ? snapshotFile(this.ctx.config.dataDir, r.platform_id, r.camera_id, r.id, r.media) : null;
    if (!r || !file || !fs.existsSync(file)) throw new AppError(Status.notFound, 'cameraSnapshotNotFound');
    return { path: file, media: r.media as SnapshotMedia };
  }

  // Tasks

  private async presentTasks(
    user: SessionUser,
    rows: {
      id: number;
      name: string;
      kind: string;
      duration_sec: number | null;
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
      kind: r.kind as CameraTaskKind,
      durationSec: r.duration_sec,
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
          't.kind',
          't.duration_sec',
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
        kind: b.kind,
        duration_sec: b.kind === 'recording' ? (b.durationSec ?? null) : null,
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
        kind: b.kind,
        duration_sec: b.kind === 'recording' ? (b.durationSec ?? null) : null,
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
      .select(['id', 'kind', 'duration_sec', 'camera_ids', 'retention_days'])
      .where('enabled', '=', true)
      .where(sql<SqlBool>`${hhmm} = any(times)`)
      .where(
        sql<SqlBool>`(last_run_at is null or last_run_at < ${now.toISOString()}::timestamptz - interval '90 seconds')`,
      )
      .execute();
    // The pictures and clips are taken in the background (a clip lasts up to 5 minutes: the next tick must not
    // wait for it and miss its tasks' minute), CAPTURE_PARALLEL at once with the alerts' ones.
    for (const t of due) {
      await cam(this.ctx.db).updateTable('camera_tasks').set({ last_run_at: now }).where('id', '=', t.id).execute();
      const opts = { taskId: t.id, retentionDays: t.retention_days };
      const seconds = t.kind === 'recording' ? t.duration_sec : null;
      for (const id of t.camera_ids)
        this.background(async () => {
          const c = await repo.cameraById(this.ctx.db, id);
          if (!c) return;
          if (seconds) await this.record(c, 'task', seconds, opts);
          else await this.take(c, 'task', opts);
        }, !seconds);
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
  kind: CameraTaskKind;
  durationSec?: number | undefined;
}
