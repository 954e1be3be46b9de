import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { Status, type LiveQuality, type LiveStream } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { AppError } from '../../platform/http/errors.ts';
import { rtspInput } from './cameras.rtsp.ts';

/**
 * Live video: one ffmpeg child per camera stream being watched (main or sub), remuxing (`-c copy`, never
 * transcoding) the camera's RTSP H.264 into short HLS segments in a folder under DATA_DIR/live. Each viewer (a session watching a camera)
 * gets its own id and a signed address that expires; every fetch of the playlist or a segment refreshes the viewer.
 * A camera's process stops when its last viewer closes or stops fetching; a camera that goes away is retried every
 * two seconds while someone watches (its state is then `lost`).
 */

export interface StreamSource {
  cameraId: number;
  /** The stream served (rtsp.ts servedQuality). */
  quality: LiveQuality;
  /** The RTSP address with credentials: only handed to ffmpeg, never logged or answered. */
  url: string;
}

interface Viewer {
  id: string;
  cameraId: number;
  quality: LiveQuality;
  userId: number;
  sessionId: number;
  lastSeen: number;
  sessionCheckedAt: number;
}

type State = 'starting' | 'playing' | 'lost';

interface CameraStream {
  cameraId: number;
  quality: LiveQuality;
  dir: string;
  url: string;
  proc: ChildProcess | null;
  state: State;
  /** The next HLS segment number (kept across restarts so players see one rising sequence). */
  nextSegment: number;
  restartTimer: NodeJS.Timeout | null;
  stopped: boolean;
  startedAt: number;
}

const streamKey = (cameraId: number, quality: LiveQuality): string => `${cameraId}:${quality}`;

export class LiveStreams {
  private readonly viewers = new Map<string, Viewer>();
  /** Streams by streamKey (camera and quality). */
  private readonly streams = new Map<string, CameraStream>();
  private readonly root: string;
  private readonly reaper: NodeJS.Timeout;
  /** Started and ended processes (tests count them). */
  readonly counters = { started: 0, exited: 0 };

  constructor(private readonly ctx: AppContext) {
    this.root = path.join(ctx.config.dataDir, 'live');
    fs.rmSync(this.root, { recursive: true, force: true });
    fs.mkdirSync(this.root, { recursive: true });
    this.reaper = setInterval(() => this.reap(), Math.min(2000, ctx.config.camera.idleMs / 2));
    this.reaper.unref();
  }

  private sign(viewerId: string, exp: number): string {
    return crypto.createHmac('sha256', this.ctx.secret).update(`live.${viewerId}.${exp}`).digest('base64url');
  }

  /** ffmpeg processes started and not yet ended, stopping ones included. */
  private readonly alive = new Set<ChildProcess>();

  /** The number of ffmpeg processes alive, stopping ones included (tests). */
  processes(): number {
    return this.alive.size;
  }

  /** Opens a viewer of a camera the caller sees; refused past the system and per-user limits (spec §5). */
  open(user: SessionUser, src: StreamSource): LiveStream {
    const cfg = this.ctx.config.camera;
    const mine = [...this.viewers.values()].filter((v) => v.userId === user.id);
    const key = streamKey(src.cameraId, src.quality);
    const same = mine.find(
      (v) => v.cameraId === src.cameraId && v.quality === src.quality && v.sessionId === user.sessionId,
    );
    if (!same && mine.length >= cfg.maxStreamsPerUser)
      throw new AppError(Status.invalid, 'cameraConcurrencyLimit', { max: cfg.maxStreamsPerUser });
    if (!this.streams.has(key) && this.streams.size >= cfg.maxStreams)
      throw new AppError(Status.invalid, 'cameraConcurrencyLimit', { max: cfg.maxStreams });
    const now = Date.now();
    const viewer: Viewer = same ?? {
      id: crypto.randomBytes(18).toString('base64url'),
      cameraId: src.cameraId,
      quality: src.quality,
      userId: user.id,
      sessionId: user.sessionId,
      lastSeen: now,
      sessionCheckedAt: now,
    };
    viewer.lastSeen = now;
    this.viewers.set(viewer.id, viewer);
    const s = this.streams.get(key);
    if (!s) this.start(src);
    else if (s.url !== src.url) {
      s.url = src.url; // the camera was edited: the next restart takes the new address
    }
    const exp = Math.floor((now + cfg.streamUrlMs) / 1000);
    return {
      streamId: viewer.id,
      quality: src.quality,
      url: `/api/v2/data/camera/live/hls/${viewer.id}/index.m3u8?exp=${exp}&sig=${this.sign(viewer.id, exp)}`,
      expiresAt: new Date(exp * 1000).toISOString(),
    };
  }

  /** Closes the caller's viewer; a foreign or unknown id answers like a missing stream. */
  close(user: SessionUser, viewerId: string): void {
    const v = this.viewers.get(viewerId);
    if (!v || v.userId !== user.id) throw new AppError(Status.notFound, 'cameraStreamNotFound');
    this.viewers.delete(viewerId);
    this.stopUnwatched();
  }

  status(user: SessionUser, viewerId: string): State {
    const v = this.viewers.get(viewerId);
    if (!v || v.userId !== user.id) throw new AppError(Status.notFound, 'cameraStreamNotFound');
    v.lastSeen = Date.now();
    return this.streams.get(streamKey(v.cameraId, v.quality))?.state ?? 'lost';
  }

  /** Ends the viewers of a camera (it was deleted or the caller lost it). */
  dropCamera(cameraId: number): void {
    for (const [id, v] of this.viewers) if (v.cameraId === cameraId) this.viewers.delete(id);
    this.stopUnwatched();
  }

  /**
   * A file of a viewer's stream, after checking the signature, the expiry and that the session still lives.
   * Answers null (a 404 to the player) otherwise; the playlist's segment addresses carry the same signature.
   */
  async file(
    viewerId: string,
    file: string,
    exp: number,
    sig: string,
    sessionAlive: (sessionId: number) => Promise<boolean>,
  ): Promise<{ body: Buffer | string; type: string } | null> {
    const v = this.viewers.get(viewerId);
    if (!v || exp * 1000 < Date.now()) return null;
    const want = Buffer.from(this.sign(viewerId, exp));
    const got = Buffer.from(sig);
    if (want.length !== got.length || !crypto.timingSafeEqual(want, got)) return null;
    const now = Date.now();
    if (now - v.sessionCheckedAt > 5000) {
      if (!(await sessionAlive(v.sessionId))) {
        this.viewers.delete(viewerId);
        this.stopUnwatched();
        return null;
      }
      v.sessionCheckedAt = now;
    }
    v.lastSeen = now;
    const s = this.streams.get(streamKey(v.cameraId, v.quality));
    if (!s) return null;
    if (file === 'index.m3u8') {
      const text = await fs.promises.readFile(path.join(s.dir, 'index.m3u8'), 'utf8').catch(() => null);
      if (text === null) return null;
      const q = `?exp=${exp}&sig=${sig}`;
      return {
        body: text.replace(/^(seg_\d+\.ts)$/gm, `$1${q}`),
        type: 'application/vnd.apple.mpegurl',
      };
    }
    if (!/^seg_\d{1,9}\.ts$/.test(file)) return null;
    const body = await fs.promises.readFile(path.join(s.dir, file)).catch(() => null);
    return body ? { body, type: 'video/mp2t' } : null;
  }

  private start(src: StreamSource): void {
    const dir = fs.mkdtempSync(path.join(this.root, `cam${src.cameraId}-${src.quality}-`));
    const s: CameraStream = {
      cameraId: src.cameraId,
      quality: src.quality,
      dir,
      url: src.url,
      proc: null,
      state: 'starting',
      nextSegment: 0,
      restartTimer: null,
      stopped: false,
      startedAt: Date.now(),
    };
    this.streams.set(streamKey(src.cameraId, src.quality), s);
    this.spawn(s);
  }

  private spawn(s: CameraStream): void {
    // The address (with the camera's credentials) goes to ffmpeg on stdin, never on its command line.
    const input = rtspInput(s.url);
    const args = [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      '-fflags',
      'nobuffer',
      ...input.args,
      '-map',
      '0:v:0',
      '-c',
      'copy',
      '-f',
      'hls',
      '-hls_time',
      '0.5',
      '-hls_list_size',
      '6',
      '-hls_flags',
      'delete_segments+omit_endlist+temp_file',
      '-start_number',
      String(s.nextSegment),
      '-hls_segment_filename',
      path.join(s.dir, 'seg_%d.ts'),
      path.join(s.dir, 'index.m3u8'),
    ];
    const proc = spawn(this.ctx.config.camera.ffmpeg, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    proc.stdin?.on('error', () => undefined); // ffmpeg missing or gone before reading it: 'close' handles that
    proc.stdin?.end(input.list);
    this.counters.started++;
    this.alive.add(proc);
    s.proc = proc;
    s.state = 'starting';
    let err = '';
    proc.stderr?.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-2000);
    });
    const watch = setInterval(() => {
      if (s.state === 'starting' && fs.existsSync(path.join(s.dir, 'index.m3u8'))) s.state = 'playing';
    }, 250);
    proc.on('error', () => undefined);
    proc.on('close', () => {
      clearInterval(watch);
      this.alive.delete(proc);
      this.counters.exited++;
      if (s.proc === proc) s.proc = null;
      s.nextSegment = this.lastSegment(s.dir) + 1;
      if (s.stopped) {
        fs.rmSync(s.dir, { recursive: true, force: true });
        return;
      }
      // The camera went away (or never answered): say so, and try again while someone watches.
      s.state = 'lost';
      fs.rmSync(path.join(s.dir, 'index.m3u8'), { force: true });
      this.ctx.log.warn(
        { cameraId: s.cameraId, quality: s.quality, reason: err.replace(/rtsps?:\/\/\S+/g, '[camera]').trim() },
        'camera stream ended',
      );
      s.restartTimer = setTimeout(() => {
        s.restartTimer = null;
        if (!s.stopped) this.spawn(s);
      }, 2000);
    });
  }

  private lastSegment(dir: string): number {
    let max = -1;
    for (const f of fs.readdirSync(dir, { withFileTypes: true })) {
      const m = /^seg_(\d+)\.ts$/.exec(f.name);
      if (m) max = Math.max(max, Number(m[1]));
    }
    return max;
  }

  private reap(): void {
    const now = Date.now();
    for (const [id, v] of this.viewers) if (now - v.lastSeen > this.ctx.config.camera.idleMs) this.viewers.delete(id);
    this.stopUnwatched();
  }

  private stopUnwatched(): void {
    const watched = new Set([...this.viewers.values()].map((v) => streamKey(v.cameraId, v.quality)));
    for (const [key, s] of this.streams) if (!watched.has(key)) this.stop(key, s);
  }

  private stop(key: string, s: CameraStream): void {
    this.streams.delete(key);
    s.stopped = true;
    if (s.restartTimer) clearTimeout(s.restartTimer);
    if (s.proc) {
      const p = s.proc;
      p.kill('SIGTERM');
      setTimeout(() => {
        if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
      }, 2000).unref();
    } else fs.rmSync(s.dir, { recursive: true, force: true });
  }

  /** Stops everything (server shutdown); resolves when every process has ended. */
  async closeAll(): Promise<void> {
    clearInterval(this.reaper);
    this.viewers.clear();
    for (const [id, s] of this.streams) this.stop(id, s);
    const procs = [...this.alive];
    await Promise.all(
      procs.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.exitCode !== null || p.signalCode !== null) resolve();
            else p.once('close', () => resolve());
          }),
      ),
    );
  }
}
