// The device simulator: data loggers that publish plausible readings over real MQTT, as a field installation
// would (architecture.md §4 device contract). Used by DEMO (in-process, to the server's own broker) and by
// `npm run simulate` (tools/simulate.ts) against any server.
import mqtt, { type MqttClient } from 'mqtt';
import { INGEST_LIMITS, readingTopic } from '@geosentry/contract';
import { readingAt, seedOf, type SimDevice } from './series.ts';

/** One simulated device: its number (the MQTT topic) and monitor type (which quantities it reports). */
export interface SimDeviceSpec {
  number: string;
  moduleId: number;
}

/** One data logger: it connects as username = terminal id, password = its key, and publishes for its devices. */
export interface SimTerminal {
  terminalId: number | string;
  key: string;
  devices: SimDeviceSpec[];
}

export interface SimulatorLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface SimulatorOptions {
  /** mqtt://host:port of the broker. */
  mqttUrl: string;
  terminals: SimTerminal[];
  /** Live reading interval per device (default 10 s). */
  intervalMs?: number;
  /** Publish this many past hours first, as arrays (default 0: no backfill). */
  backfillHours?: number;
  /** Spacing of backfilled readings (default 1 h). */
  backfillStepMs?: number;
  /** Readings per backfill message (default and most 500). */
  batchSize?: number;
  /** The weather seed shared by every device (default 1): same seed, same series. */
  seed?: number;
  log?: SimulatorLog;
  /** Clock (tests). */
  now?: () => number;
}

export interface SimulatorStats {
  /** Messages acknowledged by the broker (QoS 1 PUBACK). */
  published: number;
  /** Readings in those messages. */
  readings: number;
  /** Readings skipped because the simulated device was offline. */
  offline: number;
  /** Messages that failed (connection lost, refused). */
  failed: number;
  /** Terminals connected now. */
  connected: number;
}

export interface Simulator {
  /** Resolves when every terminal has finished its backfill (or could not). */
  readonly backfilled: Promise<void>;
  stats(): SimulatorStats;
  stop(): Promise<void>;
}

const noLog: SimulatorLog = { info: () => undefined, warn: () => undefined };

/** Starts the simulator: one MQTT connection per terminal, QoS 1 publishes, backfill first when asked. */
export function startSimulator(opts: SimulatorOptions): Simulator {
  const interval = Math.max(50, opts.intervalMs ?? 10_000);
  const step = Math.max(1000, opts.backfillStepMs ?? 3_600_000);
  const batch = Math.min(500, INGEST_LIMITS.maxReadings, Math.max(1, opts.batchSize ?? 500));
  const world = opts.seed ?? 1;
  const now = opts.now ?? Date.now;
  const log = opts.log ?? noLog;
  const stats: SimulatorStats = { published: 0, readings: 0, offline: 0, failed: 0, connected: 0 };
  let stopped = false;
  const timers: NodeJS.Timeout[] = [];
  const clients: MqttClient[] = [];

  const publish = async (client: MqttClient, number: string, payload: unknown, n: number): Promise<boolean> => {
    try {
      await client.publishAsync(readingTopic(number), JSON.stringify(payload), { qos: 1 });
      stats.published++;
      stats.readings += n;
      return true;
    } catch (e) {
      stats.failed++;
      if (!stopped) log.warn({ device: number, err: (e as Error).message }, 'simulator: publish failed');
      return false;
    }
  };

  const runTerminal = async (term: SimTerminal): Promise<void> => {
    const devices = term.devices.map((d) => ({
      spec: d,
      sim: { moduleId: d.moduleId, seed: seedOf(d.number), world } satisfies SimDevice,
    }));
    const client = mqtt.connect(opts.mqttUrl, {
      username: String(term.terminalId),
      password: term.key,
      clientId: `geosentry-sim-${term.terminalId}-${Math.random().toString(16).slice(2, 10)}`,
      clean: true,
      reconnectPeriod: 2000,
      connectTimeout: 10_000,
      // A reading is sent only while connected: a lost one is simply a gap, as with a real logger's live feed.
      queueQoSZero: false,
    });
    clients.push(client);
    let up = false;
    client.on('connect', () => {
      if (!up) stats.connected++;
      up = true;
    });
    client.on('close', () => {
      if (up) stats.connected--;
      up = false;
    });
    client.on('error', (e) => {
      if (!stopped) log.warn({ terminal: term.terminalId, err: e.message }, 'simulator: connection error');
    });
    await new Promise<void>((resolve) => {
      if (client.connected) return resolve();
      const done = (): void => {
        client.off('connect', done);
        client.off('end', done);
        resolve();
      };
      client.on('connect', done);
      client.on('end', done);
    });
    if (stopped) return;

    // Backfill: readings on a grid of `step` over the past hours, oldest first, in arrays of <= batch.
    const hours = opts.backfillHours ?? 0;
    if (hours > 0) {
      const end = Math.floor(now() / step) * step;
      const start = end - hours * 3_600_000;
      for (const d of devices) {
        let items: { ts: number; values: Record<string, number> }[] = [];
        for (let ts = start + step; ts <= end && !stopped; ts += step) {
          const values = readingAt(d.sim, ts, step);
          if (!values) {
            stats.offline++;
            continue;
          }
          items.push({ ts, values });
          if (items.length >= batch) {
            await publish(client, d.spec.number, items, items.length);
            items = [];
          }
        }
        if (items.length && !stopped) await publish(client, d.spec.number, items, items.length);
      }
      log.info({ terminal: term.terminalId, devices: devices.length, hours }, 'simulator: backfill published');
    }

    // Live: one reading per device per interval; a tick is skipped while the previous one is still in flight.
    let busy = false;
    const tick = async (): Promise<void> => {
      if (busy || stopped || !client.connected) return;
      busy = true;
      try {
        const ts = now();
        await Promise.all(
          devices.map(async (d) => {
            const values = readingAt(d.sim, ts, interval);
            if (!values) {
              stats.offline++;
              return;
            }
            await publish(client, d.spec.number, { ts, values }, 1);
          }),
        );
      } finally {
        busy = false;
      }
    };
    if (stopped) return;
    void tick();
    timers.push(setInterval(() => void tick(), interval));
  };

  const backfilled = Promise.all(
    opts.terminals.map((t) =>
      runTerminal(t).catch((e: unknown) =>
        log.warn({ terminal: t.terminalId, err: (e as Error).message }, 'simulator: terminal stopped'),
      ),
    ),
  ).then(() => undefined);

  return {
    backfilled,
    stats: () => ({ ...stats }),
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
      // A publish cut off by the forced end may never settle: do not wait for it for long.
      await Promise.race([backfilled, new Promise((r) => setTimeout(r, 2000).unref())]);
    },
  };
}
