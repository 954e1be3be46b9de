import net from 'node:net';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { READING_TOPIC_FILTER, deviceOfTopic } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { IngestService, TerminalIdentity } from './ingest.service.ts';
import { ConnectionsPerIp, guardSocket, type FrameViolation } from './ingest.mqtt.guard.ts';

/**
 * Reasons after which the publishing connection is closed without an ack (MQTT 3.1.1 has no negative
 * PUBACK): a foreign device, and the transient refusals (rate limit, overload), which must not be
 * acknowledged because the reading was not stored; the logger sends them again after reconnecting.
 */
const DISCONNECT = new Set(['notYourDevice', 'badCredentials', 'rateLimited', 'overloaded']);

/**
 * TEST-ONLY FAULT INJECTION. With INGEST_UNSAFE_ACK_FIRST=1 the embedded broker acknowledges a reading
 * at once and stores it afterwards, which loses acknowledged readings when the process dies. It exists
 * so the crash test (ingest.crash.pg.test.ts) can prove it detects that; never set it in production.
 */
const UNSAFE_ACK_FIRST = process.env.INGEST_UNSAFE_ACK_FIRST === '1';

/** How long the external broker keeps the server's session (and queues readings) while it is away. */
const SESSION_EXPIRY_SECONDS = 7 * 24 * 3600;

/** The address a process on this machine reaches the embedded broker at, when it listens on `host`. */
export function localBrokerUrl(host: string, port: number): string {
  const h = !host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `mqtt://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

export type BrokerRefusal = 'tooManyConnections' | FrameViolation;

export interface MqttIngest {
  /** The port the embedded broker listens on (null with an external broker). */
  port: number | null;
  /** Connections the embedded broker closed by a limit, per limit (empty with an external broker). */
  refused: Partial<Record<BrokerRefusal, number>>;
  close(): Promise<void>;
}

/**
 * The embedded broker (aedes) on MQTT_PORT. A terminal connects with username = terminal id and
 * password = its key, and publishes on devices/{number}/readings for its own devices. The reading is
 * stored inside authorizePublish, so aedes sends the QoS 1 PUBACK only after the commit; a failed
 * commit closes the connection without an ack, and the logger sends again. A malformed payload is
 * acknowledged (resending it would not help), counted and logged, and never stored.
 */
export async function startEmbeddedBroker(ctx: AppContext, ingest: IngestService, port: number): Promise<MqttIngest> {
  const cfg = ctx.config;
  const who = new WeakMap<object, TerminalIdentity>();
  /**
   * Which terminal holds each client id. aedes closes the older connection when a second one CONNECTs with the
   * same id ([MQTT-3.1.4-2]); here only the same terminal may take its id over, another terminal's CONNECT is
   * refused (identifier rejected) and the holder stays connected. Set synchronously once a terminal is known,
   * so two CONNECTs racing for one id cannot both pass.
   */
  const holders = new Map<string, { terminalId: number; client: { closed: boolean } }>();
  const broker = await Aedes.createBroker({
    concurrency: 1000,
    queueLimit: 1000,
    // No CONNECT within this time: the connection is closed (aedes' own timer, cleared when a CONNECT is parsed).
    connectTimeout: cfg.mqttConnectTimeoutMs,
    authenticate: (client, username, password, done) => {
      const fail = (returnCode = 4): void => {
        const e = Object.assign(new Error(returnCode === 2 ? 'identifier rejected' : 'bad username or password'), {
          returnCode,
        });
        done(e as Parameters<typeof done>[0], false);
      };
      if (!username || !password) return fail();
      ingest
        .terminal(username, password.toString())
        .then((id) => {
          if (!id) {
            ingest.reject('badCredentials', `terminal ${username.slice(0, 20)}`, 'mqtt');
            return fail();
          }
          const held = holders.get(client.id);
          if (held && held.client !== client && !held.client.closed && held.terminalId !== id.terminalId) {
            ctx.log.warn(
              { terminal: id.terminalId, holder: held.terminalId, clientId: client.id.slice(0, 64) },
              'MQTT client id held by another terminal: connection refused',
            );
            return fail(2);
          }
          holders.set(client.id, { terminalId: id.terminalId, client });
          who.set(client, id);
          done(null, true);
        })
        .catch(() => fail());
    },
    authorizePublish: (client, packet, done) => {
      const number = deviceOfTopic(packet.topic);
      const id = client ? who.get(client) : undefined;
      if (!number || !id) {
        ingest.reject('badShape', `topic ${packet.topic.slice(0, 80)}`, 'mqtt');
        return done(new Error('topic not allowed'));
      }
      if (UNSAFE_ACK_FIRST) {
        done(null);
        void ingest.ingest(id, number, packet.payload, { source: 'mqtt', maxWaitSeconds: 30 }).catch(() => undefined);
        return;
      }
      ingest
        .ingest(id, number, packet.payload, { source: 'mqtt', maxWaitSeconds: 30 })
        .then((r) => {
          if (!r.ok && DISCONNECT.has(r.reason)) return done(new Error(r.reason));
          done(null);
        })
        .catch((e: unknown) => {
          ctx.log.error({ err: e }, 'reading not stored; connection closed without ack');
          done(e instanceof Error ? e : new Error('store failed'));
        });
    },
    // Terminals only send; they may not read other devices' readings.
    authorizeSubscribe: (_client, _sub, done) => done(new Error('subscriptions are not allowed'), null),
    // Nobody subscribes: skip forwarding work entirely.
    authorizeForward: () => null,
  });
  broker.on('clientDisconnect', (client) => {
    if (holders.get(client.id)?.client === client) holders.delete(client.id);
  });
  const perIp = new ConnectionsPerIp(cfg.mqttMaxConnectionsPerIp);
  const refused: Record<BrokerRefusal, number> = { tooManyConnections: 0, tooLarge: 0, notConnect: 0, malformed: 0 };
  let loggedAt = 0;
  const refuse = (why: BrokerRefusal, socket: net.Socket): void => {
    refused[why]++;
    // At most one line per 10 s: a flood of refused connections must not flood the log too.
    if (Date.now() - loggedAt < 10_000) return;
    loggedAt = Date.now();
    ctx.log.warn({ why, address: socket.remoteAddress, refused }, 'MQTT connection refused by a broker limit');
  };
  const server = net.createServer((socket) => {
    if (!perIp.admit(socket)) {
      refuse('tooManyConnections', socket);
      socket.destroy();
      return;
    }
    guardSocket(socket, cfg.mqttMaxPacketBytes, (v) => refuse(v, socket));
    // A connection closed by a limit must not take the process down with an unhandled socket error.
    socket.on('error', () => undefined);
    broker.handle(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // The broker listens where the HTTP server does (HOST), not on every interface.
    server.listen(port, cfg.host, () => resolve());
  });
  const actual = (server.address() as net.AddressInfo).port;
  ctx.log.info({ port: actual }, 'embedded MQTT broker listening');
  return {
    port: actual,
    refused,
    async close() {
      await new Promise<void>((r) => broker.close(() => r()));
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * Subscribes to an external broker (MQTT_URL) with a persistent session, so readings published while
 * the server is down are delivered when it returns. The external broker authenticates terminals and
 * limits each to its own topics (Mosquitto: password file and ACL `pattern write devices/%u/...` or
 * dynamic security); the server trusts the topic. The PUBACK to the broker goes out after commit.
 * Several connections share the subscription ($share) so commits overlap.
 */
export async function connectExternalBroker(ctx: AppContext, ingest: IngestService, url: string): Promise<MqttIngest> {
  const n = 4;
  const prefix = ctx.config.mqttClientId;
  // The share group is named after the client id prefix: another deployment on the same broker (its own
  // prefix) gets its own copy of every reading instead of taking turns with this one.
  const filter = `$share/${prefix.replace(/[^A-Za-z0-9_-]/g, '_')}/${READING_TOPIC_FILTER}`;
  const clients: MqttClient[] = [];
  const ready: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    const client = mqtt.connect(url, {
      clientId: `${prefix}-${i}`,
      clean: false,
      reconnectPeriod: 2000,
      protocolVersion: 5,
      // MQTT 5: without an expiry interval the broker drops the session (and what it queued) on disconnect.
      properties: { sessionExpiryInterval: SESSION_EXPIRY_SECONDS },
    });
    const redeliver = (): void => {
      // No ack: the broker sends the message again on the reconnect (persistent session).
      client.end(true, undefined, () => client.reconnect());
    };
    client.handleMessage = (packet, callback) => {
      const number = deviceOfTopic(packet.topic);
      if (!number) return callback();
      ingest
        .ingest(null, number, packet.payload, { source: 'mqtt-external', maxWaitSeconds: 30, trustBroker: true })
        .then((r) => {
          if (!r.ok && (r.reason === 'rateLimited' || r.reason === 'overloaded')) return redeliver();
          callback();
        })
        .catch((e: unknown) => {
          ctx.log.error({ err: e }, 'reading not stored; reconnecting without ack');
          redeliver();
        });
    };
    ready.push(
      new Promise<void>((resolve) => {
        client.on('connect', (ack) => {
          if (ack.sessionPresent) return resolve();
          client.subscribe(filter, { qos: 1 }, (err) => {
            if (err) ctx.log.warn({ err: err.message }, 'external MQTT broker refused the subscription');
            resolve();
          });
        });
      }),
    );
    client.on('error', (e) => ctx.log.warn({ err: e.message }, 'external MQTT broker'));
    clients.push(client);
  }
  // Wait (a while) for the sessions, so readings sent right after the start are not missed on a first start.
  let timer: NodeJS.Timeout | undefined;
  const connected = await Promise.race([
    Promise.all(ready).then(() => true),
    new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 10_000))),
  ]);
  clearTimeout(timer);
  const where = url.replace(/\/\/[^@]*@/, '//***@');
  if (connected) ctx.log.info({ url: where }, 'subscribed to external MQTT broker');
  else ctx.log.warn({ url: where }, 'external MQTT broker not reachable yet; retrying in the background');
  return {
    port: null,
    refused: {},
    async close() {
      await Promise.all(clients.map((c) => c.endAsync()));
    },
  };
}
