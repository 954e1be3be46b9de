import { expect } from 'vitest';
import type { Job } from '@geosentry/contract';
import type { TestApp } from '../../../test/harness.ts';
import { multipart } from '../files/files.testkit.ts';

/** Fixtures of the data import tests. */
export const DI = '/api/v2/data/dataImport';
export const JOB = '/api/v2/data/job';

export async function uploadFile(t: TestApp, token: string, name: string, data: Buffer) {
  const m = multipart([{ name: 'file', filename: name, data }]);
  const r = await t.raw('POST', `${DI}/upload`, {
    token,
    payload: m.payload,
    headers: { ...m.headers, language: 'en' },
  });
  return r.json() as { status: number; info: string; data: { fileId: string; header: string[]; sheets: string[] } };
}

/** Waits until a job reaches a final state (through the API, as the console does); answers it. */
export async function settled(t: TestApp, token: string, id: number, timeoutMs = 30_000): Promise<Job> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await t.api<Job>('GET', `${JOB}/get`, { token, query: { id: String(id) } });
    expect(r.status, r.info).toBe(0);
    if (['done', 'failed', 'cancelled'].includes(r.data.state)) return r.data;
    if (Date.now() > end) throw new Error(`job ${id} still ${r.data.state}`);
    await new Promise((res) => setTimeout(res, 30));
  }
}

/** Dry run with a mapping, settled. */
export async function dryRun(t: TestApp, token: string, body: Record<string, unknown>): Promise<Job> {
  const r = await t.api<Job>('POST', `${DI}/dryRun`, { token, body });
  expect(r.status, r.info).toBe(0);
  return settled(t, token, r.data.id);
}

/** Import of a dry run, settled. */
export async function importOf(t: TestApp, token: string, dryRunJobId: number): Promise<Job> {
  const r = await t.api<Job>('POST', `${DI}/import`, { token, body: { jobId: dryRunJobId } });
  expect(r.status, r.info).toBe(0);
  return settled(t, token, r.data.id);
}
