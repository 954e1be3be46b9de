import { Progress, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TaskPriority, TaskStatus } from '@geosentry/contract';

const STATUS_COLOUR: Record<TaskStatus, string> = {
  notStarted: 'default',
  ongoing: 'processing',
  toBeReviewed: 'warning',
  completed: 'success',
};
const PRIORITY_COLOUR: Record<TaskPriority, string> = {
  importantUrgent: 'red',
  importantNotUrgent: 'orange',
  commonUrgent: 'gold',
  commonNotUrgent: 'blue',
};

export function StatusTag({ status }: { status: TaskStatus }) {
  const { t } = useTranslation('tasks');
  return (
    <Tag color={STATUS_COLOUR[status]} data-testid="task-status">
      {t(`statuses.${status}`)}
    </Tag>
  );
}

export function PriorityTag({ priority }: { priority: TaskPriority }) {
  const { t } = useTranslation('tasks');
  return <Tag color={PRIORITY_COLOUR[priority]}>{t(`priorities.${priority}`)}</Tag>;
}

/** Reported completion and the deviation from the plan (negative: behind). */
export function RateCell({ rate, deviation }: { rate: number; deviation: number }) {
  const { t } = useTranslation('tasks');
  return (
    <div style={{ minWidth: 110 }}>
      <Progress percent={rate} size="small" />
      <Typography.Text type={deviation < -10 ? 'danger' : 'secondary'} style={{ fontSize: 12 }}>
        {t('fields.deviationRate')} {deviation > 0 ? '+' : ''}
        {deviation}
      </Typography.Text>
    </div>
  );
}

export function RemainingCell({ days }: { days: number | null }) {
  const { t } = useTranslation('tasks');
  if (days === null) return <>-</>;
  if (days < 0) return <Typography.Text type="danger">{t('list.overdue', { count: -days })}</Typography.Text>;
  return <Typography.Text type={days <= 1 ? 'warning' : undefined}>{t('list.days', { count: days })}</Typography.Text>;
}
