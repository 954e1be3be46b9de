import type { ReactNode } from 'react';
import { Alert, Button, Progress, Space, Tag, Typography } from 'antd';
import { DownloadOutlined, StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Job, JobState } from '@geosentry/contract';
import { useJob } from './useJob.ts';

const STATE_COLOUR: Record<JobState, string> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
  cancelled: 'warning',
};

/** Percent done of a job (0–100), null when its size is not known yet. */
export function jobPercent(job: Pick<Job, 'state' | 'done' | 'total'>): number | null {
  if (job.state === 'done') return 100;
  if (!job.total || job.total <= 0) return null;
  return Math.min(100, Math.floor((job.done / job.total) * 100));
}

export interface JobProgressProps {
  jobId: number | null;
  /** Shown when the job is done (its counts); receives the job. */
  renderResult?: (job: Job) => ReactNode;
  /** Shows a download button when the job is done with a file. */
  onDownload?: (job: Job) => void;
  /** Called once per render in which the job is final (e.g. to refresh a list). */
  children?: (job: Job | undefined) => ReactNode;
}

/**
 * A background job's progress: a bar (done of total, or a moving bar while the size is unknown), the state as a
 * label, the step it is in, a cancel button while it runs, the translated error when it failed, the result (and
 * its download) when done. Live over the socket with a polling fallback (useJob).
 * Test hooks: data-testid job-progress, job-state (data-state), job-cancel, job-error, job-download.
 */
export function JobProgress({ jobId, renderResult, onDownload, children }: JobProgressProps) {
  const { t } = useTranslation('reports');
  const { job, error, final, cancel } = useJob(jobId);
  if (jobId === null) return null;
  if (error) return <Alert type="error" showIcon message={error.message} data-testid="job-error" />;
  if (!job) return <Progress percent={0} status="active" data-testid="job-progress" />;
  const pct = jobPercent(job);
  const counts = job.total
    ? t('job.counts', { done: job.done, total: job.total })
    : job.done > 0
      ? t('job.done', { done: job.done })
      : null;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="job-progress" data-state={job.state}>
      <Space wrap>
        <Tag color={STATE_COLOUR[job.state]} data-testid="job-state" data-state={job.state}>
          {t(`job.state.${job.state}`)}
        </Tag>
        {job.phase && !final && (
          <Typography.Text type="secondary">{t(`job.phase.${job.phase}`, { defaultValue: '' })}</Typography.Text>
        )}
        {counts && <Typography.Text>{counts}</Typography.Text>}
        {!final && (
          <Button
            size="small"
            danger
            icon={<StopOutlined />}
            disabled={job.cancelRequested}
            onClick={() => void cancel().catch(() => undefined)}
            data-testid="job-cancel"
          >
            {job.cancelRequested ? t('job.cancelling') : t('job.cancel')}
          </Button>
        )}
        {final && job.state === 'done' && job.resultFileId && onDownload && (
          <Button size="small" icon={<DownloadOutlined />} onClick={() => onDownload(job)} data-testid="job-download">
            {t('job.download')}
          </Button>
        )}
      </Space>
      <Progress
        percent={pct ?? (final ? 100 : 30)}
        showInfo={pct !== null}
        status={job.state === 'failed' ? 'exception' : job.state === 'done' ? 'success' : final ? 'normal' : 'active'}
      />
      {job.state === 'failed' && job.error && (
        <Alert type="error" showIcon message={job.error} data-testid="job-error" />
      )}
      {job.state === 'done' && renderResult?.(job)}
      {children?.(job)}
    </Space>
  );
}
