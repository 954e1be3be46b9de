import fs from 'node:fs';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { cameraRoutes, Status, type AlertEvent } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { decrypt } from '../../platform/auth/crypto.ts';
import { AppError } from '../../platform/http/errors.ts';
import { CameraRegistry, publicCamera } from './cameras.service.ts';
import { LiveStreams } from './cameras.live.ts';
import { CameraSnapshots } from './cameras.snapshots.ts';
import { servedQuality, rtspAddress } from './cameras.rtsp.ts';
import * as onvif from './cameras.onvif.ts';
import type { CameraRow } from './cameras.repository.ts';

/** Can a TCP connection be made to the address's host and port within 3 s? */
function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  const port = Number(u.port || (u.protocol === 'rtsps:' ? 322 : u.protocol === 'http:' ? 80 : 554));
  return new Promise((resolve) => {
    const s = net.connect({ host: u.hostname.replace(/^\[|\]$/g, ''), port });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(3000, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

/**
 * The single byte range of a Range header (RFC 9110 §14.1.2) within a file of `size` bytes: null for no header or
 * one that is not a single bytes range (answer the whole file), 'unsatisfiable' for a range past its end.
 */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/** The camera module as app.ts wires it: its routes, the live streams, the tasks and the alert snapshots. */
export interface CamerasModule {
  live: LiveStreams;
  snapshots: CameraSnapshots;
  /** Hand it the alert events (app.ts: `alertEvents.onEvent(e => cameras.onAlert(e))`). */
  onAlert(e: AlertEvent): void;
  close(): Promise<void>;
}

export function registerCameras(app: FastifyInstance, ctx: AppContext): CamerasModule {
  const reg = new CameraRegistry(ctx);
  const live = new LiveStreams(ctx);
  const snapshots = new CameraSnapshots(ctx);
  snapshots.start();
  const r = cameraRoutes;

  const password = (c: CameraRow): string | null => (c.vmPasswordEnc ? decrypt(ctx.secret, c.vmPasswordEnc) : null);
  const ptzTarget = async (user: SessionUser, id: number): Promise<onvif.OnvifTarget> => {
    const c = await reg.mustCamera(user, id);
    if (!c.ptz || !c.onvifUrl) throw new AppError(Status.invalid, 'cameraNoPtz');
    return { url: c.onvifUrl, user: c.vmUser, password: password(c) };
  };
  const ptz = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof onvif.OnvifError)
        throw e.message === 'unreachable'
          ? new AppError(Status.invalid, 'cameraUnreachable')
          : new AppError(Status.invalid, 'cameraPtzFailed', { reason: e.message });
      throw e;
    }
  };

  defineRoute(app, ctx, r.groupTree, async (c) => ({ data: await reg.tree(caller(c)) }));
  defineRoute(app, ctx, r.groupAdd, async (c) => ({
    key: 'created',
    data: { id: await reg.addGroup(caller(c), c.body) },
  }));
  defineRoute(app, ctx, r.groupEdit, async (c) => {
    await reg.editGroup(caller(c), c.body);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, r.groupDelete, async (c) => ({
    key: 'deleted',
    data: await reg.deleteGroup(caller(c), c.body.id),
  }));
  defineRoute(app, ctx, r.list, async (c) => {
    const page = await reg.list(caller(c), c.query);
    return {
      data: {
        list: page.list.map(publicCamera),
        total: page.total,
        pageNum: c.query.pageNum,
        pageSize: c.query.pageSize,
      },
    };
  });
  defineRoute(app, ctx, r.add, async (c) => ({ key: 'created', data: { id: await reg.add(caller(c), c.body) } }));
  defineRoute(app, ctx, r.edit, async (c) => {
    const { id, ...input } = c.body;
    await reg.edit(caller(c), id, input);
    live.dropCamera(id);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, r.delete, async (c) => {
    await reg.remove(caller(c), c.body.id);
    live.dropCamera(c.body.id);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, r.roleConfig, async (c) => ({ data: await reg.roleConfig(caller(c), c.query.roleId) }));
  defineRoute(app, ctx, r.roleSetConfig, async (c) => {
    await reg.setRoleConfig(caller(c), c.body, c.ip);
    return { key: 'setOk' };
  });

  defineRoute(app, ctx, r.liveOpen, async (c) => {
    const user = caller(c);
    const cam = await reg.mustCamera(user, c.body.cameraId);
    const quality = servedQuality(cam, c.body.quality);
    const external = ctx.config.camera.mediaServer;
    if (external) {
      // An external media server pulls the cameras itself; the address names the camera (and the stream, when the
      // operator's address has a {quality} place).
      const served = external.includes('{quality}') ? quality : 'main';
      const url = external.replace('{camera}', String(cam.id)).replace('{quality}', served);
      return {
        data: {
          streamId: `ext-${cam.id}`,
          quality: served,
          url,
          expiresAt: new Date(Date.now() + ctx.config.camera.streamUrlMs).toISOString(),
        },
      };
    }
    let url: string;
    try {
      url = rtspAddress(cam, password(cam), quality);
    } catch {
      throw new AppError(Status.invalid, 'cameraRtspRequired');
    }
    if (!(await reachable(url))) throw new AppError(Status.invalid, 'cameraUnreachable');
    return { data: live.open(user, { cameraId: cam.id, quality, url }) };
  });
  defineRoute(app, ctx, r.liveClose, async (c) => {
    live.close(caller(c), c.body.streamId);
  });
  defineRoute(app, ctx, r.liveStatus, async (c) => ({
    data: { streamId: c.query.streamId, state: live.status(caller(c), c.query.streamId) },
  }));
  const sessionAlive = async (id: number): Promise<boolean> => {
    const s = await ctx.db.k
      .selectFrom('sessions')
      .select('id')
      .where('id', '=', id)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    return s !== undefined;
  };
  defineRoute(app, ctx, r.liveFile, async (c) => {
    const f = await live.file(c.params.streamId ?? '', c.params.file ?? '', c.query.exp, c.query.sig, sessionAlive);
    if (!f) {
      await c.reply.code(404).header('cache-control', 'no-store').send('');
      return;
    }
    await c.reply.header('content-type', f.type).header('cache-control', 'no-store').send(f.body);
  });

  defineRoute(app, ctx, r.ptzMove, async (c) => {
    const t = await ptzTarget(caller(c), c.body.cameraId);
    await ptz(() => onvif.continuousMove(t, c.body.direction, c.body.speed));
    return { key: 'ok' };
  });
  defineRoute(app, ctx, r.ptzStop, async (c) => {
    const t = await ptzTarget(caller(c), c.body.cameraId);
    await ptz(() => onvif.stop(t));
  });
  defineRoute(app, ctx, r.ptzPresets, async (c) => {
    const t = await ptzTarget(caller(c), c.query.cameraId);
    return { data: await ptz(() => onvif.presets(t)) };
  });
  defineRoute(app, ctx, r.ptzGoto, async (c) => {
    const t = await ptzTarget(caller(c), c.body.cameraId);
    await ptz(() => onvif.gotoPreset(t, c.body.presetToken, c.body.speed));
  });

  defineRoute(app, ctx, r.taskList, async (c) => {
    const page = await snapshots.tasks(caller(c), c.query);
    return { data: { ...page, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, r.taskAdd, async (c) => ({
    key: 'created',
    data: { id: await snapshots.addTask(caller(c), c.body) },
  }));
  defineRoute(app, ctx, r.taskEdit, async (c) => {
    const { id, ...b } = c.body;
    await snapshots.editTask(caller(c), id, b);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, r.taskDelete, async (c) => {
    await snapshots.deleteTask(caller(c), c.body.id);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, r.snapshotTake, async (c) => {
    const cam = await reg.mustCamera(caller(c), c.body.cameraId);
    return { data: await snapshots.take(cam, 'manual') };
  });
  defineRoute(app, ctx, r.snapshotList, async (c) => {
    const page = await snapshots.list(caller(c), c.query);
    return { data: { ...page, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, r.snapshotFile, async (c) => {
    const file = await snapshots.file(caller(c), c.query.id);
    const size = fs.statSync(file.path).size;
    c.reply
      .header('content-type', file.media === 'mp4' ? 'video/mp4' : 'image/jpeg')
      .header('cache-control', 'private, max-age=86400')
      .header('accept-ranges', 'bytes');
    // A <video> seeks with Range requests: answer the one range asked for (bytes=a-b, a- or -n).
    const range = byteRange(c.req.headers.range, size);
    if (range === 'unsatisfiable') {
      await c.reply.code(416).header('content-range', `bytes */${size}`).send();
      return;
    }
    if (range) {
      await c.reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
        .header('content-length', range.end - range.start + 1)
        .send(fs.createReadStream(file.path, range));
      return;
    }
    await c.reply.header('content-length', size).send(fs.createReadStream(file.path));
  });

  return {
    live,
    snapshots,
    onAlert: (e) => snapshots.onAlert(e),
    async close() {
      await live.closeAll();
      await snapshots.close();
    },
  };
}
