import { useCallback, useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { JOB_FINAL_STATES, JOB_SOCKET_EVENT, jobRoutes, type Job, type JobState } from '@geosentry/contract';
import { call } from '../api.ts';
import { onSocketMessage, useSocketConnected } from '../socket.ts';
import { change, retryUnlessCancelled } from '../query.ts';

/** Polling while the socket is down (or between its messages, as a safety net). */
export const JOB_POLL_MS = 1500;
const JOB_POLL_LIVE_MS = 10_000;

export const jobKey = (id: number) => ['jobs', 'get', id] as const;

/** The socket message of a job's move (server/src/platform/jobs/jobs.runner.ts). */
interface JobMessage {
  type: typeof JOB_SOCKET_EVENT;
  id: number;
  state: JobState;
  phase: string | null;
  done: number;
  total: number | null;
}
const isJobMessage = (m: unknown): m is JobMessage =>
  typeof m === 'object' &&
  m !== null &&
  (m as { type?: unknown }).type === JOB_SOCKET_EVENT &&
  typeof (m as { id?: unknown }).id === 'number';

export const isFinal = (s: JobState | undefined): boolean => !!s && JOB_FINAL_STATES.includes(s);

export interface UseJob {
  job: Job | undefined;
  /** Loading failed (e.g. the job is not the caller's, or expired). */
  error: Error | null;
  final: boolean;
  /** Asks the server to cancel the job (a running one stops at its next batch). */
  cancel: () => Promise<void>;
}

/**
 * A background job's live state: read from jobs/get, moved by the session socket's `job` messages (state,
 * phase, done, total) and polled every JOB_POLL_MS while the socket is down; read once more when it reaches a
 * final state (for its result and error). `id` null: nothing.
 */
export function useJob(id: number | null): UseJob {
  const qc = useQueryClient();
  const connected = useSocketConnected();
  const q = useQuery({
    queryKey: jobKey(id ?? 0),
    queryFn: () => call(jobRoutes.get, { id: id! }, { silent: true, keepEarlier: true }),
    enabled: id !== null,
    retry: retryUnlessCancelled,
    refetchInterval: (query) => (isFinal(query.state.data?.state) ? false : connected ? JOB_POLL_LIVE_MS : JOB_POLL_MS),
  });
  useEffect(() => {
    if (id === null) return;
    return onSocketMessage((m) => {
      if (!isJobMessage(m) || m.id !== id) return;
      qc.setQueryData<Job>(jobKey(id), (old) =>
        old && !isFinal(old.state) ? { ...old, state: m.state, phase: m.phase, done: m.done, total: m.total } : old,
      );
      if (isFinal(m.state)) void qc.invalidateQueries({ queryKey: jobKey(id) });
    });
  }, [id, qc]);
  const cancel = useCallback(async () => {
    if (id === null) return;
    const j = await call(jobRoutes.cancel, { id }, change);
    qc.setQueryData(jobKey(id), j);
  }, [id, qc]);
  return { job: q.data, error: (q.error as Error | null) ?? null, final: isFinal(q.data?.state), cancel };
}
