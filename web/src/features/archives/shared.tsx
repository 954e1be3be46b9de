import { Flex, Tag, Typography } from 'antd';
import { CheckCircleOutlined, ExclamationCircleOutlined, PaperClipOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ArchiveFile, ExpiryStatus, PlanStatus, RectificationState } from '@geosentry/contract';
import dayjs, { type Dayjs } from 'dayjs';
import { fileHref, type KnownFile } from '../files/index.ts';

export const DAY = 'YYYY-MM-DD';
export const toDay = (d: Dayjs | null | undefined): string | undefined => (d ? d.format(DAY) : undefined);
export const fromDay = (s: string | null | undefined): Dayjs | undefined => (s ? dayjs(s, DAY) : undefined);
export const knownFiles = (list: readonly ArchiveFile[] | undefined): KnownFile[] | undefined =>
  list?.map((a) => ({ file_id: a.file_id, name: a.name ?? undefined, mime: a.mime ?? undefined }));

/** Download links of a record's files. */
export function FileLinks({ files, testId }: { files: readonly ArchiveFile[]; testId?: string }) {
  if (files.length === 0) return <>-</>;
  return (
    <Flex vertical gap={2}>
      {files.map((a) => (
        <Typography.Link
          key={a.file_id}
          href={fileHref(a.file_id, true)}
          download={a.name ?? a.file_id}
          ellipsis
          style={{ maxWidth: 320 }}
          data-testid={testId}
        >
          <PaperClipOutlined style={{ marginRight: 4 }} />
          {a.name ?? a.file_id}
        </Typography.Link>
      ))}
    </Flex>
  );
}

/** The rectification state of the shared model: completed, incomplete, or overdue. */
export function RectificationTag({ state, overdue }: { state: RectificationState; overdue: boolean }) {
  const { t } = useTranslation('archives');
  if (state === 'completed')
    return (
      <Tag color="success" icon={<CheckCircleOutlined />}>
        {t('states.completed')}
      </Tag>
    );
  return (
    <Tag color={overdue ? 'error' : 'warning'} icon={overdue ? <ExclamationCircleOutlined /> : undefined}>
      {overdue ? t('states.overdue') : t('states.incomplete')}
    </Tag>
  );
}

const STATUS_COLOUR: Record<PlanStatus | ExpiryStatus, string> = {
  draft: 'default',
  none: 'default',
  valid: 'success',
  expiring: 'warning',
  expired: 'error',
};

/** A plan's status or a document's expiry. */
export function StatusTag({ status, kind }: { status: PlanStatus | ExpiryStatus; kind: 'plan' | 'expiry' }) {
  const { t } = useTranslation('archives');
  return (
    <Tag color={STATUS_COLOUR[status]} data-testid={`status-${status}`}>
      {t(kind === 'plan' ? `planStatuses.${status}` : `expiry.${status}`)}
    </Tag>
  );
}
