import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { DatePicker, Progress, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { HistoryOutlined } from '@ant-design/icons';
import type { TaskProgress } from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { SiteFilter } from '../../shared/table/SiteFilter.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { useSiteOptions } from '../../shared/sites.ts';
import { formatTime, pickerValue } from '../../shared/time.ts';
import { fetchProgress, taskKeys, taskPaths, type TaskProgressParams } from './tasksApi.ts';
import { Files } from './TaskDetailPage.tsx';

const DAY = 'YYYY-MM-DD';
const daysAgo = (n: number): string => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/** Daily history: every day's progress entries (text, photos, position) of the tasks one may see. */
export default function DailyHistoryPage() {
  const { t } = useTranslation('tasks');
  const navigate = useNavigate();
  const { sites } = useSiteOptions();
  // The last 30 days unless the address says otherwise (a day's history is read recent first).
  const table = useServerTable<TaskProgressParams>({ pageNum: 1, pageSize: 20, startDate: daysAgo(30) }, [], {
    filters: { platformId: 'number', startDate: 'string', endDate: 'string' },
  });
  const { params, setFilter } = table;
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(() =>
    params.startDate || params.endDate
      ? [params.startDate ? pickerValue(params.startDate) : null, params.endDate ? pickerValue(params.endDate) : null]
      : null,
  );
  const list = useQuery({
    queryKey: taskKeys.progress(params),
    queryFn: () => fetchProgress(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const columns: ServerColumn<TaskProgress>[] = [
    { title: t('fields.day'), dataIndex: 'day', key: 'day', width: 100, hideable: false },
    {
      title: t('fields.name'),
      dataIndex: 'taskName',
      key: 'taskName',
      width: 170,
      render: (v: string, row) => (
        <Typography.Link onClick={() => void navigate(taskPaths.detail(row.taskId))}>{v}</Typography.Link>
      ),
    },
    { title: t('fields.site'), dataIndex: 'platformName', key: 'platformName', width: 120, ellipsis: true },
    { title: t('fields.reporter'), dataIndex: 'user', key: 'user', width: 100, ellipsis: true },
    { title: t('fields.progressText'), dataIndex: 'text', key: 'text', width: 220, ellipsis: true },
    {
      title: t('fields.completionRate'),
      dataIndex: 'completionRate',
      key: 'completionRate',
      width: 120,
      render: (v: number) => <Progress percent={v} size="small" />,
    },
    { title: t('fields.photos'), key: 'photos', width: 130, render: (_v, row) => <Files files={row.photos} /> },
    {
      title: t('fields.position'),
      key: 'position',
      width: 170,
      // At 1280 px the list shows day to photos; position and the time of the report are in the column settings.
      hidden: true,
      render: (_v, row) =>
        row.lat !== null && row.lon !== null ? `${row.lat.toFixed(5)}, ${row.lon.toFixed(5)}` : '-',
    },
    {
      title: t('fields.reportedAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 160,
      hidden: true,
      render: (v: string) => formatTime(v),
    },
  ];
  return (
    <ListPage icon={<HistoryOutlined />} title={t('screens.history')} description={t('descriptions.history')}>
      <ServerTable<TaskProgress>
        tableId="tasks.history"
        rowKey="id"
        data-testid="task-history"
        table={table}
        query={list}
        columns={columns}
        totalText={(total) => t(list.data?.totalCapped ? 'list.entriesMore' : 'list.entries', { count: total })}
        filters={
          <>
            <SiteFilter
              placeholder={t('filters.allSites')}
              value={params.platformId}
              sites={sites}
              onChange={(platformId) => setFilter({ platformId })}
            />
            <DatePicker.RangePicker
              value={range}
              format={DAY}
              placeholder={[t('filters.from'), t('filters.to')]}
              onChange={(v) => {
                setRange(v);
                setFilter({ startDate: v?.[0]?.format(DAY), endDate: v?.[1]?.format(DAY) });
              }}
            />
          </>
        }
      />
    </ListPage>
  );
}
