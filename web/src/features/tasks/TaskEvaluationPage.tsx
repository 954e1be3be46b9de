import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, DatePicker, Flex, Statistic, Table } from 'antd';
import type { Dayjs } from 'dayjs';
import { TrophyOutlined } from '@ant-design/icons';
import type { TaskEvaluation } from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { SiteFilter } from '../../shared/table/SiteFilter.tsx';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { useSiteOptions } from '../../shared/sites.ts';
import { fetchEvaluation, taskKeys } from './tasksApi.ts';

const DAY = 'YYYY-MM-DD';
type Person = TaskEvaluation['persons'][number];

/** Task evaluation: grades and on-time rates per responsible person and for the team over a period. */
export default function TaskEvaluationPage() {
  const { t } = useTranslation('tasks');
  const { sites } = useSiteOptions();
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [platformId, setPlatformId] = useState<number | undefined>();
  const p = { startDate: range?.[0]?.format(DAY), endDate: range?.[1]?.format(DAY), platformId };
  const q = useQuery({
    queryKey: taskKeys.evaluation(p),
    queryFn: () => fetchEvaluation(p),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const team = q.data?.team;
  const rate = (v: number | null) => (v === null ? '-' : `${v}%`);
  return (
    <ListPage
      icon={<TrophyOutlined />}
      title={t('screens.evaluation')}
      description={t('descriptions.evaluation')}
      above={
        <Card size="small">
          <Flex gap={32} wrap data-testid="task-team">
            <Statistic title={t('evaluation.tasks')} value={team?.tasks ?? 0} />
            <Statistic title={t('evaluation.completed')} value={team?.completed ?? 0} />
            <Statistic title={t('evaluation.onTimeRate')} value={rate(team?.onTimeRate ?? null)} />
            <Statistic title={t('grades.excellent')} value={team?.excellent ?? 0} />
            <Statistic title={t('grades.good')} value={team?.good ?? 0} />
            <Statistic title={t('grades.normal')} value={team?.normal ?? 0} />
            <Statistic title={t('evaluation.failedReviews')} value={team?.failedReviews ?? 0} />
          </Flex>
        </Card>
      }
    >
      <Flex gap={8} wrap style={{ marginBottom: 12 }}>
        <DatePicker.RangePicker
          value={range}
          format={DAY}
          placeholder={[t('filters.from'), t('filters.to')]}
          onChange={(v) => setRange(v)}
        />
        <SiteFilter placeholder={t('filters.allSites')} value={platformId} sites={sites} onChange={setPlatformId} />
        {q.data ? (
          <span style={{ alignSelf: 'center', color: 'rgba(0,0,0,0.45)' }}>
            {q.data.startDate} ~ {q.data.endDate}
          </span>
        ) : null}
      </Flex>
      <Table<Person>
        rowKey="userId"
        size="middle"
        loading={q.isFetching}
        dataSource={q.data?.persons ?? []}
        pagination={false}
        data-testid="task-evaluation"
        columns={[
          { title: t('evaluation.person'), dataIndex: 'name' },
          { title: t('evaluation.tasks'), dataIndex: 'tasks', align: 'right' },
          { title: t('evaluation.completed'), dataIndex: 'completed', align: 'right' },
          { title: t('evaluation.onTime'), dataIndex: 'onTime', align: 'right' },
          { title: t('evaluation.onTimeRate'), dataIndex: 'onTimeRate', align: 'right', render: rate },
          { title: t('grades.excellent'), dataIndex: 'excellent', align: 'right' },
          { title: t('grades.good'), dataIndex: 'good', align: 'right' },
          { title: t('grades.normal'), dataIndex: 'normal', align: 'right' },
          { title: t('evaluation.failedReviews'), dataIndex: 'failedReviews', align: 'right' },
        ]}
      />
    </ListPage>
  );
}
