import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from './db/db.ts';
import type { SocketHub } from './ws.ts';

/** The app's shared services, built once by buildApp and handed to every module. */
export interface AppContext {
  config: Config;
  db: Db;
  secret: Buffer;
  hub: SocketHub;
  log: FastifyBaseLogger;
}
