import { loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { DataDirLockedError } from './platform/db/datadir-lock.ts';

const started = Date.now();
const config = loadConfig();
let built: Awaited<ReturnType<typeof buildApp>>;
try {
  built = await buildApp(config);
} catch (e) {
  if (e instanceof DataDirLockedError) {
    console.error(`\n${e.message}\n`);
    process.exit(2);
  }
  throw e;
}
await built.app.listen({ port: config.port, host: config.host });
if (built.generatedAdminPassword) {
  // Printed once, on the console only (never to the log): the first super administrator's password.
  process.stdout.write(
    `\n  First super administrator created.\n    account:  ${config.adminAccount}\n    password: ${built.generatedAdminPassword}\n  Change it after the first login. This is shown only once.\n\n`,
  );
}
built.app.log.info({ ms: Date.now() - started, db: built.ctx.db.kind, port: config.port }, 'Geosentry is up');

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    built.app.log.info({ sig }, 'shutting down');
    built
      .close()
      .then(() => process.exit(0))
      .catch(() => process.exit(1));
  });
}
