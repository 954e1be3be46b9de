import { expect } from 'vitest';
import type { Job } from '@geosentry/contract';
import type { TestApp } from '../../../test/harness.ts';

/** Fixtures of the report centre's tests. */
export const RJ = '/api/v2/data/report/job';
export const RS = '/api/v2/data/report/schedule';
export const JOB = '/api/v2/data/job';

/** A general report of a site for the first week of November 2026 (UTC). */
export const generalParams = (platformId: number) => ({
  kind: 'general',
  platformId,
  startTime: '2026-11-01',
  endTime: '2026-11-07',
  timeZone: 'UTC',
});

export async function submit(t: TestApp, token: string, body: Record<string, unknown>) {
  return t.api<Job>('POST', `${RJ}/submit`, { token, body });
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

/** GET download with the token in the query (as a link does). */
export async function download(t: TestApp, token: string, id: number, fileName?: string) {
  const q = new URLSearchParams({ id: String(id), token, ...(fileName ? { fileName } : {}) });
  return t.app.inject({ method: 'GET', url: `${RJ}/download?${q.toString()}`, headers: { language: 'en' } });
}
