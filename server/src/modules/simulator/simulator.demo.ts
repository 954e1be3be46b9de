// DEMO wiring: the in-process simulator that feeds the demo sites over real MQTT to the server's own broker.
import { SUPER_ADMIN_ROLE } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { FULL_SCOPE, type SessionUser } from '../../platform/auth/access.ts';
import { DEMO_SITES } from '../demo/index.ts';
import { TerminalsService } from '../terminals/index.ts';
import { localBrokerUrl } from '../ingest/index.ts';
import * as repo from './simulator.repository.ts';
import { startSimulator, type Simulator, type SimTerminal } from './simulator.ts';

/** The serial demo.seed.ts gives the data logger of a demo site. */
export const demoTerminalSerial = (siteKey: string): string => `DL-${siteKey}-001`;

/** History the demo publishes on its first start: 7 days of hourly readings. */
export const DEMO_BACKFILL_HOURS = 7 * 24;

/** The simulator acts as the system, not as a person: every site, no session. */
const SYSTEM: SessionUser = {
  id: 0,
  account: 'system',
  name: 'demo simulator',
  roleId: 0,
  roleCode: SUPER_ADMIN_ROLE,
  permissions: new Set(),
  scope: FULL_SCOPE,
  sessionId: 0,
};

/**
 * Starts the demo simulator against the embedded broker on `mqttPort`. The demo terminals' keys are known only
 * when they are made, so each start issues new ones (the terminals service's rotation; the old keys stop
 * working) and keeps them in memory only. History is backfilled only while no reading is stored.
 * Answers null when the demo sites are not there (e.g. deleted).
 */
export async function startDemoSimulator(
  ctx: AppContext,
  mqttPort: number,
  opts: { intervalMs?: number; backfillHours?: number; serials?: readonly string[]; now?: () => number } = {},
): Promise<Simulator | null> {
  const found = await repo.terminalsWithDevices(
    ctx.db,
    opts.serials ?? DEMO_SITES.map((s) => demoTerminalSerial(s.key)),
  );
  const withDevices = found.filter((t) => t.devices.length > 0);
  if (!withDevices.length) return null;
  const backfill = !(await repo.hasReadings(ctx.db));
  const terminals = new TerminalsService(ctx);
  const sim: SimTerminal[] = [];
  for (const t of withDevices) {
    const { key } = await terminals.rotateKey(SYSTEM, t.terminalId);
    sim.push({ terminalId: t.terminalId, key, devices: t.devices });
  }
  const devices = sim.reduce((n, t) => n + t.devices.length, 0);
  const backfillHours = backfill ? (opts.backfillHours ?? DEMO_BACKFILL_HOURS) : 0;
  ctx.log.info({ terminals: sim.length, devices, backfillHours }, 'demo simulator starting');
  return startSimulator({
    mqttUrl: localBrokerUrl(ctx.config.host, mqttPort),
    terminals: sim,
    intervalMs: opts.intervalMs ?? 10_000,
    backfillHours,
    seed: 2026,
    log: ctx.log,
    now: opts.now,
  });
}
