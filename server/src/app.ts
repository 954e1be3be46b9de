import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import websocket from '@fastify/websocket';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import { ZodError } from 'zod';
import { LOGIN, PUBLIC, Status, type RoutePermission } from '@geosentry/contract';
import type { Config } from './config.ts';
import { openDb, type Db } from './platform/db/db.ts';
import { migrate } from './platform/db/migrate.ts';
import { loadSecret } from './platform/auth/crypto.ts';
import { SocketHub, originAllowed, socketRights } from './platform/ws.ts';
import { AppError, isDbInputRefusal } from './platform/http/errors.ts';
import { parseLanguage, RULES, translate } from './platform/http/messages.ts';
import { registerJsonCompression } from './platform/http/compress.ts';
import { tokenOf } from './platform/http/route.ts';
import { resolveSession } from './platform/auth/sessions.ts';
import { seed } from './platform/seed.ts';
import type { AppContext } from './platform/context.ts';
import { purgeExpired } from './modules/session/session.repository.ts';
import { registerSession } from './modules/session/session.routes.ts';
import { registerUsers } from './modules/users/users.routes.ts';
import { registerRoles } from './modules/roles/roles.routes.ts';
import { registerPermissions } from './modules/permissions/permissions.routes.ts';
import { registerAudit } from './modules/audit/audit.routes.ts';
import { registerPlatforms } from './modules/platforms/platforms.routes.ts';
import { seedDemo } from './modules/demo/demo.seed.ts';
import { registerRegions } from './modules/regions/regions.routes.ts';
import { registerEnterprises } from './modules/enterprises/enterprises.routes.ts';
import { registerSections } from './modules/sections/sections.routes.ts';
import { registerTerminals } from './modules/terminals/terminals.routes.ts';
import { registerDevices } from './modules/devices/devices.routes.ts';
import { registerMonitorTypes } from './modules/monitorTypes/monitorTypes.routes.ts';
import { registerPersons } from './modules/persons/persons.routes.ts';
import { registerExternalFiles } from './modules/externalFiles/externalFiles.routes.ts';
import { registerFiles } from './modules/files/files.routes.ts';
import { registerImageComparison } from './modules/imageComparison/index.ts';
import { registerTemplates } from './modules/templates/templates.routes.ts';
import { registerComments } from './modules/comments/comments.routes.ts';
import { registerTsManagement } from './modules/tsManagement/tsManagement.routes.ts';
import { ArchiveReminders, registerArchives } from './modules/archives/index.ts';
import { registerThreeD } from './modules/threeD/threeD.routes.ts';
import { registerPanoramas } from './modules/panoramas/panoramas.routes.ts';
import { registerMonitorViews } from './modules/monitorViews/monitorViews.routes.ts';
import { IngestService } from './modules/ingest/ingest.service.ts';
import { registerIngest } from './modules/ingest/ingest.routes.ts';
import { registerForecast } from './modules/forecast/forecast.routes.ts';
import { registerAlerts } from './modules/alerts/alerts.routes.ts';
import { AlertEngine } from './modules/alerts/alerts.engine.ts';
import { AlertEvents } from './modules/alerts/alerts.events.ts';
import { registerAlertNotifications } from './modules/alertNotifications/alertNotifications.routes.ts';
import { AlertNotifier } from './modules/alertNotifications/alertNotifications.outbox.ts';
import { startDemoSimulator } from './modules/simulator/simulator.demo.ts';
import type { Simulator } from './modules/simulator/simulator.ts';
import { registerModuleData } from './modules/moduleData/moduleData.routes.ts';
import { connectExternalBroker, startEmbeddedBroker, type MqttIngest } from './modules/ingest/ingest.mqtt.ts';
import { JobRunner, registerJobs } from './platform/jobs/index.ts';
import { DataImportService, registerDataImport } from './modules/dataImport/index.ts';
import { registerVibration } from './modules/vibration/index.ts';
import { registerReservoir } from './modules/reservoir/index.ts';
import { GeneralReportService, registerGeneralReport } from './modules/generalReport/index.ts';
import { registerDashboard } from './modules/dashboard/index.ts';
import { registerMaps } from './modules/maps/index.ts';
import { registerAreas } from './modules/areas/index.ts';
import { ModuleDataService } from './modules/moduleData/index.ts';
import { VibrationService } from './modules/vibration/index.ts';
import { ReservoirService } from './modules/reservoir/index.ts';
import { ReportJobsService, ReportSchedulesService, registerReportJobs } from './modules/reportJobs/index.ts';
import { TasksService, registerTasks } from './modules/tasks/index.ts';
import { alertById } from './modules/alerts/index.ts';
import { registerCameras, type CamerasModule } from './modules/cameras/index.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: RoutePermission;
  }
}

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** The first super administrator's password, when it was generated at this start. */
  generatedAdminPassword: string | null;
  /** Device ingest (its writer, counters and listeners). */
  ingest: IngestService;
  /** Alert evaluation of committed readings (tests wait on `alertEngine.idle()`; the bench reads its counters). */
  alertEngine: AlertEngine;
  /** The alert event bus: the engine emits on it, the notifier listens. */
  alertEvents: AlertEvents;
  /** The notification outbox and its sender. */
  notifier: AlertNotifier;
  /** The MQTT side: the embedded broker's port, or null with an external broker or none. */
  mqtt: MqttIngest | null;
  /** Background jobs (data import; tests wait on `jobs.idle()`). */
  jobs: JobRunner;
  /** Reminders of expiring plans and certificates (tests call `archiveReminders.check()`). */
  archiveReminders: ArchiveReminders;
  /** Scheduled reports (tests call `reportSchedules.tick()`). */
  reportSchedules: ReportSchedulesService;
  /** Cameras: live streams (tests count their processes), tasks and alert snapshots. */
  cameras: CamerasModule;
  /** Field tasks (tests call `tasks.sweepReminders()`). */
  tasks: TasksService;
  close(): Promise<void>;
}

/** Every route the app registered, with its declared permission (tests walk this). */
export interface RouteRecord {
  method: string;
  url: string;
  permission: RoutePermission | undefined;
}

/** Builds the whole server: database, migrations, seed, plugins and feature modules. Tests use it directly. */
/**
 * PostgreSQL errors caused by a value (SQLSTATE class 22): malformed number, date or text, out of range,
 * unrepresentable character, too long.
 */

export async function buildApp(
  config: Config,
  opts: { db?: Db; logger?: boolean } = {},
): Promise<BuiltApp & { routes: RouteRecord[] }> {
  const db = opts.db ?? (await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  await migrate(db);
  const secret = loadSecret(config.secretKey, config.dataDir);
  const seeded = await seed(db, secret, { account: config.adminAccount, password: config.adminPassword });

  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: {
              paths: [
                'req.headers.token',
                'req.headers.authorization',
                'req.headers.cookie',
                'body.password',
                'body.signature',
              ],
              censor: '[redacted]',
            },
            serializers: {
              req: (req: { method: string; url: string; ip?: string }) => ({
                method: req.method,
                url: req.url.replace(/([?&]token=)[^&]*/g, '$1[redacted]'),
                ip: req.ip,
              }),
            },
          },
    bodyLimit: 1024 * 1024,
    // X-Forwarded-For is believed only from the proxies TRUST_PROXY names (off by default: req.ip is the peer).
    trustProxy: config.trustProxy,
  });
  const hub = new SocketHub();
  const ctx: AppContext = { config, db, secret, hub, log: app.log };
  const routes: RouteRecord[] = [];

  app.addHook('onRoute', (r) => {
    // The API documentation and the static console files are public by declaration.
    if (
      r.url.startsWith('/api/docs') ||
      (!r.url.startsWith('/api/') && !(r.config as { permission?: unknown } | undefined)?.permission)
    ) {
      r.config = { ...(r.config ?? {}), permission: PUBLIC };
    }
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    for (const m of methods)
      routes.push({
        method: m,
        url: r.url,
        permission: (r.config as { permission?: RoutePermission } | undefined)?.permission,
      });
  });

  // The validators of the contract run in defineRoute; Fastify's own validation is off (its schemas feed the OpenAPI document).
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  // Response schemas document the answers (and are checked under CHECK_RESPONSES); they never reshape what is sent.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await app.register(formbody);
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Geosentry API',
        version: '2',
        description:
          'Every answer is an envelope {status, info, data}. Send the session token in the `token` header and the language (en, zh, ko) in `language`.',
      },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'token' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  registerJsonCompression(app);
  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    // Answers of the API hold site data and session state: never stored by a browser or proxy (a file sets its own
    // private caching).
    if (req.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    if (req.url.startsWith('/api/docs')) {
      // The API document is never framed (clickjacking of its "try it out" forms).
      reply.header('x-frame-options', 'DENY');
      const csp = reply.getHeader('content-security-policy');
      reply.header(
        'content-security-policy',
        csp
          ? `${String(csp).replace(/;?\s*frame-ancestors[^;]*/g, '')}; frame-ancestors 'none'`
          : "frame-ancestors 'none'",
      );
    } else {
      reply.header('x-frame-options', 'SAMEORIGIN');
      const type = String(reply.getHeader('content-type') ?? '');
      if (type.startsWith('text/html')) {
        reply.header(
          'content-security-policy',
          "default-src 'self'; img-src 'self' data: blob: https: http:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self' ws: wss:; media-src 'self' blob:; worker-src 'self' blob:; frame-ancestors 'self'; object-src 'none'; base-uri 'self'",
        );
      }
    }
    return payload;
  });

  app.setErrorHandler((err: FastifyError | AppError | ZodError | Error, req, reply) => {
    const lang = parseLanguage(req.headers.language);
    const send = (status: number, info: string, data: unknown = null) => reply.code(200).send({ status, info, data });
    if (err instanceof AppError) return send(err.status, translate(lang, err.key, err.params), err.data);
    if (err instanceof ZodError) {
      const errors = err.issues.map((i) => {
        const field = i.path.join('.') || '(body)';
        const missing = i.code === 'invalid_type' && (i as { input?: unknown }).input === undefined;
        // A custom issue may name its own rule (a RULES key) in params.rule, e.g. a malformed JSON array.
        const own = i.code === 'custom' ? (i as { params?: { rule?: unknown } }).params?.rule : undefined;
        const rule = missing ? 'required' : typeof own === 'string' && RULES[own] ? own : i.code;
        return { field, rule, message: `${field} ${(RULES[rule] ?? RULES.custom!)[lang]}` };
      });
      return send(Status.invalid, translate(lang, 'validation', { details: errors.map((e) => e.message).join('; ') }), {
        errors,
      });
    }
    const fe = err as FastifyError;
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(Status.tooLarge, translate(lang, 'tooLarge'));
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      return send(Status.notAcceptable, translate(lang, 'unsupportedType'));
    if (
      fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      (fe.statusCode === 400 && err.name === 'SyntaxError')
    )
      return send(Status.badRequest, translate(lang, 'malformedBody', { format: 'JSON' }));
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500)
      return send(Status.badRequest, translate(lang, 'badRequest'));
    // Safety net: input the validation let through but the database refused is the caller's error, not a crash.
    // (Logged: each one is a validation rule to add.) A unique violation is a race two requests ran.
    const code = (err as { code?: unknown }).code;
    if (code === '23505') return send(Status.conflict, translate(lang, 'alreadyExists'));
    if (isDbInputRefusal(code)) {
      req.log.warn({ err }, 'input refused by the database');
      return send(Status.invalid, translate(lang, 'valueOutOfRange'));
    }
    req.log.error({ err }, 'unhandled error');
    return send(Status.serverError, translate(lang, 'serverError'));
  });

  app.setNotFoundHandler((req, reply) => {
    if (
      req.url.startsWith('/api/') ||
      req.method !== 'GET' ||
      !config.webDist ||
      !fs.existsSync(path.join(config.webDist, 'index.html'))
    ) {
      return reply.code(200).send({
        status: Status.notFound,
        info: translate(parseLanguage(req.headers.language), 'notFound'),
        data: null,
      });
    }
    return reply.type('text/html').sendFile('index.html');
  });

  // The path of a reading, once its transaction commits (services built here, in that order, and handed to the
  // modules that need them):
  //   ingest (MQTT / HTTP -> IngestService -> ReadingWriter commits)
  //     -> browser sockets of the site (IngestService.afterCommit)
  //     -> AlertEngine.onReadings: evaluates the device's rules and stores alerts; evaluation far behind holds
  //        ingest back (addBacklog: slower MQTT acks, HTTP 503)
  //        -> AlertEvents.emitTx inside the alert's transaction -> AlertNotifier writes its outbox rows
  //        -> AlertEvents.emit after commit -> AlertNotifier sends (mail, SMS, voice, webhook)
  // Device state changes of ingest (offline sweep, back online) raise offline alerts the same way; readings an
  // operator edits are forgotten by the engine's windows; the device registry tells ingest's cache what changed.
  const ingest = new IngestService(ctx);
  const alertEvents = new AlertEvents();
  const alertEngine = new AlertEngine(ctx, alertEvents);
  ingest.onReadings((r) => alertEngine.onReadings(r));
  ingest.onDeviceState((c) => alertEngine.onDeviceState(c));
  ingest.onReadingsEdited((ids) => alertEngine.forgetReadings(ids));
  ingest.addBacklog(alertEngine);
  const notifier = new AlertNotifier(ctx);
  alertEvents.onEventsTx((tx, e) => notifier.onEventsInTx(tx, e));
  alertEvents.onEvent((e) => notifier.onEventAfterCommit(e));
  // Readings committed just before the last stop may not have been evaluated: evaluate them again (idempotent).
  setImmediate(
    () => void alertEngine.catchUp().catch((e: unknown) => ctx.log.warn({ err: e }, 'alert catch-up failed')),
  );

  registerSession(app, ctx);
  registerUsers(app, ctx);
  registerRoles(app, ctx);
  registerPermissions(app, ctx);
  registerAudit(app, ctx);
  registerPlatforms(app, ctx);
  registerRegions(app, ctx);
  registerEnterprises(app, ctx);
  registerSections(app, ctx);
  registerTerminals(app, ctx);
  registerDevices(app, ctx, (numbers) => ingest.forgetDevices(numbers));
  registerMonitorTypes(app, ctx);
  registerPersons(app, ctx);
  registerExternalFiles(app, ctx);
  const files = registerFiles(app, ctx);
  registerImageComparison(app, ctx, files);
  registerTemplates(app, ctx);
  registerComments(app, ctx);
  registerTsManagement(app, ctx);
  // Safety supervision: inspections, plans, security files; reminders mailed through the outbox.
  registerArchives(app, ctx);
  const archiveReminders = new ArchiveReminders(ctx, notifier);
  registerPanoramas(app, ctx);
  registerMonitorViews(app, ctx);
  registerIngest(app, ctx, ingest);
  registerAlerts(app, ctx, alertEngine);
  registerForecast(app, ctx);
  registerAlertNotifications(app, ctx, notifier);
  registerModuleData(app, ctx, ingest);
  registerDashboard(app, ctx);
  // An alert raised on a site with cameras gets a snapshot of each (after its commit).
  const cameras = registerCameras(app, ctx);
  alertEvents.onEvent((e) => cameras.onAlert(e));
  const maps = registerMaps(app, ctx);
  // A site's terrain in 3D is draped with the offline map.
  registerThreeD(app, ctx, maps);
  registerAreas(app, ctx);
  // Background jobs: the runner is built here and handed to the modules that register handlers. Imported
  // readings recent enough (IMPORT_SILENT_HOURS) are judged by the alert engine as live ones are.
  const jobs = new JobRunner(ctx);
  registerJobs(app, ctx, jobs);
  registerDataImport(app, ctx, new DataImportService(ctx, jobs, (r) => void alertEngine.onReadings(r)));
  registerVibration(app, ctx);
  registerReservoir(app, ctx);
  registerGeneralReport(app, ctx);
  // The report centre: any report as a job, and reports mailed on a schedule through the outbox. It renders
  // with the report features' own services (the same calls as their file routes).
  const reportSources = {
    moduleData: new ModuleDataService(ctx),
    vibration: new VibrationService(ctx),
    reservoir: new ReservoirService(ctx),
    general: new GeneralReportService(ctx),
  };
  const reportJobs = new ReportJobsService(ctx, jobs, reportSources);
  const reportSchedules = new ReportSchedulesService(ctx, jobs, notifier, reportSources);
  registerReportJobs(app, ctx, reportJobs, reportSchedules);
  // Field tasks: made from alerts (read through the alerts module), their messages queued in the alerts' outbox
  // and sent by its sender; reminders before a task's end time checked every minute.
  const tasks = new TasksService(ctx, {
    alertById: async (scope, id) => {
      const a = await alertById(db, scope, id);
      return a && { ...a, firstAt: a.firstAt, evidence: a.evidence };
    },
    kickOutbox: () => notifier.kick(),
  });
  registerTasks(app, ctx, tasks);

  // Browser socket: authenticated by the session token (query ?token=, as browsers cannot set headers).
  // A foreign page may not open it (Origin checked before the upgrade; see originAllowed).
  const sameOrigin = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (originAllowed(req.headers.origin, [req.headers.host, req.host], config.allowedOrigins)) return;
    await reply.code(403).send({
      status: Status.forbidden,
      info: translate(parseLanguage(req.headers.language), 'originNotAllowed'),
      data: null,
    });
  };
  app.get(
    '/api/v2/ws',
    { websocket: true, preValidation: sameOrigin, config: { permission: LOGIN } },
    (socket, req) => {
      resolveSession(db, tokenOf(req), config.sessionIdleMs)
        .then((user) => {
          hub.add(user.sessionId, socket, socketRights(user.roleCode, user.permissions, user.scope), user.id);
          socket.send(JSON.stringify({ type: 'hello', userId: user.id }));
        })
        .catch((e: unknown) => {
          const status = e instanceof AppError ? e.status : Status.notLoggedIn;
          socket.close(4001, String(status));
        });
    },
  );

  app.get(
    '/api/health',
    { config: { permission: PUBLIC }, schema: { summary: 'Liveness and database check', tags: ['system'] } },
    async () => {
      await db.k.selectFrom('roles').select('id').limit(1).execute();
      return { status: Status.ok, info: 'ok', data: { db: db.kind, sockets: hub.count() } };
    },
  );

  if (config.webDist && fs.existsSync(config.webDist)) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      prefix: '/',
      index: ['index.html'],
      wildcard: false,
      // index.html and the assets are sent as the build's .br / .gz siblings when the client accepts them
      // (web/vite.config.ts writes them), with Vary: Accept-Encoding.
      preCompressed: true,
      // Hashed assets never change under their name; index.html (which names them) is revalidated every time.
      setHeaders: (reply, file) => {
        reply.header(
          'cache-control',
          /[\\/]assets[\\/]/.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  // The demo portfolio, on the first start (the administrator was just created and there is no site).
  if (config.demo && seeded.created && !(await db.k.selectFrom('platforms').select('id').limit(1).executeTakeFirst())) {
    const demo = await seedDemo(app, db, config.adminAccount);
    app.log.info({ sites: demo.sites, devices: demo.devices }, 'demo portfolio seeded');
  }

  ingest.start();
  jobs.start();
  archiveReminders.start();
  reportSchedules.start();
  tasks.startReminders();
  let mqttIngest: MqttIngest | null = null;
  if (config.mqttUrl) mqttIngest = await connectExternalBroker(ctx, ingest, config.mqttUrl);
  else if (config.mqttPort >= 0) mqttIngest = await startEmbeddedBroker(ctx, ingest, config.mqttPort);
  // DEMO: the demo sites' loggers, simulated in-process over real MQTT to the embedded broker.
  let simulator: Simulator | null = null;
  if (config.demo && mqttIngest?.port != null) {
    simulator = await startDemoSimulator(ctx, mqttIngest.port).catch((err: unknown) => {
      app.log.error({ err }, 'demo simulator not started');
      return null;
    });
  }

  // Open sockets follow their session and the user's current rights (within a second), not those of connect time.
  hub.start(db, { idleMs: config.sessionIdleMs, maxMs: config.sessionMaxMs });
  const purge = setInterval(() => void purgeExpired(db).catch(() => undefined), 10 * 60_000);
  purge.unref();

  return {
    app,
    ctx,
    routes,
    generatedAdminPassword: seeded.generatedPassword,
    ingest,
    alertEngine,
    alertEvents,
    notifier,
    mqtt: mqttIngest,
    jobs,
    reportSchedules,
    archiveReminders,
    cameras,
    tasks,
    async close() {
      clearInterval(purge);
      await archiveReminders.close();
      await tasks.close();
      await cameras.close();
      await reportSchedules.close();
      await jobs.close();
      await simulator?.stop();
      await mqttIngest?.close();
      await ingest.close();
      hub.closeAll();
      await app.close();
      if (!opts.db) await db.close();
    },
  };
}
