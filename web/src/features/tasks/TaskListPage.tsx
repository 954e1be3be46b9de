import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Button, DatePicker, Flex, Input, Select, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { PlusOutlined, ScheduleOutlined } from '@ant-design/icons';
import { TASK_PRIORITIES, TASK_STATUSES, type Task, type TaskPriority, type TaskView } from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { SiteFilter } from '../../shared/table/SiteFilter.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { useSiteOptions } from '../../shared/sites.ts';
import { formatInZone, pickerValue } from '../../shared/time.ts';
import { mayUse, readCurrentUser } from '../../shared/currentUser.ts';
import { TASK_SORT_FIELDS, fetchTasks, taskKeys, taskPaths, type TaskListParams } from './tasksApi.ts';
import { PriorityTag, RateCell, RemainingCell, StatusTag } from './TaskParts.tsx';

const DAY = 'YYYY-MM-DD';
type Screen = 'receive' | 'assigned' | 'review' | 'query';
const VIEW: Record<Screen, TaskView> = { receive: 'received', assigned: 'assigned', review: 'review', query: 'all' };

/**
 * A list of tasks (server paging, sort and filters in the address): my tasks, tasks I assigned, tasks I review,
 * or every task one may see (task query).
 */
export function TaskList({ screen }: { screen: Screen }) {
  const { t } = useTranslation('tasks');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { sites } = useSiteOptions();
  const table = useServerTable<TaskListParams>({ pageNum: 1, pageSize: 10, view: VIEW[screen] }, TASK_SORT_FIELDS, {
    filters: {
      status: 'string',
      priority: 'string',
      platformId: 'number',
      startDate: 'string',
      endDate: 'string',
      keyword: 'string',
    },
  });
  const { params, setFilter } = table;
  const query = { ...params, view: VIEW[screen] };
  const [keyword, setKeyword] = useState(params.keyword ?? '');
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(() =>
    params.startDate || params.endDate
      ? [params.startDate ? pickerValue(params.startDate) : null, params.endDate ? pickerValue(params.endDate) : null]
      : null,
  );
  const list = useQuery({
    queryKey: taskKeys.list(query),
    queryFn: () => fetchTasks(query),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const canCreate = (screen === 'assigned' || screen === 'query') && mayUse(readCurrentUser(), 'task:assignedtask');
  const sortable = (key: string) => ({ key, sorter: true, sortOrder: table.sortOrderOf(key) });
  const open = (row: Task) => void navigate(taskPaths.detail(row.id, screen));

  const columns: ServerColumn<Task>[] = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      width: 190,
      hideable: false,
      ...sortable('name'),
      render: (v: string, row) => (
        <Flex vertical>
          <Typography.Link data-testid="task-open" onClick={() => open(row)}>
            {v}
          </Typography.Link>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {row.project} · {row.constructionPoint}
          </Typography.Text>
        </Flex>
      ),
    },
    { title: t('fields.site'), dataIndex: 'platformName', width: 120, ellipsis: true, ...sortable('platformName') },
    {
      title: t('fields.priority'),
      dataIndex: 'priority',
      width: 120,
      ...sortable('priority'),
      render: (v: TaskPriority) => <PriorityTag priority={v} />,
    },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      width: 100,
      ...sortable('status'),
      render: (_v, row) => <StatusTag status={row.status} />,
    },
    {
      title: t('fields.completionRate'),
      dataIndex: 'completionRate',
      width: 120,
      ...sortable('completionRate'),
      render: (_v, row) => <RateCell rate={row.completionRate} deviation={row.deviationRate} />,
    },
    // At 1280 px the list shows name to end time; reviewer, publisher, remaining days (also under the end time) and
    // grade are in the column settings.
    { title: t('fields.assignee'), dataIndex: 'assignee', key: 'assignee', width: 100, ellipsis: true },
    { title: t('fields.reviewer'), dataIndex: 'reviewer', key: 'reviewer', width: 100, hidden: true },
    { title: t('fields.publisher'), dataIndex: 'publisher', key: 'publisher', width: 110, hidden: true },
    {
      title: t('fields.endTime'),
      dataIndex: 'endTime',
      width: 140,
      ...sortable('endTime'),
      render: (v: string, row) => (
        <Flex vertical>
          {formatInZone(v, undefined, 'YYYY-MM-DD HH:mm')}
          {row.remainingDays !== null ? (
            <span style={{ fontSize: 12 }}>
              <RemainingCell days={row.remainingDays} />
            </span>
          ) : null}
        </Flex>
      ),
    },
    {
      title: t('fields.remainingDays'),
      dataIndex: 'remainingDays',
      key: 'remainingDays',
      width: 110,
      hidden: true,
      render: (v: number | null) => <RemainingCell days={v} />,
    },
    {
      title: t('fields.grade'),
      dataIndex: 'grade',
      key: 'grade',
      width: 90,
      hidden: true,
      render: (v: Task['grade']) => (v ? t(`grades.${v}`) : '-'),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 80,
      fixed: 'right',
      render: (_v, row) => (
        <Button type="link" size="small" onClick={() => open(row)}>
          {t('actions.open')}
        </Button>
      ),
    },
  ];

  return (
    <ListPage icon={<ScheduleOutlined />} title={t(`screens.${screen}`)} description={t(`descriptions.${screen}`)}>
      <ServerTable<Task>
        tableId={`tasks.${screen}`}
        rowKey="id"
        data-testid="task-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void queryClient.invalidateQueries({ queryKey: taskKeys.all })}
        totalText={(total) => t(list.data?.totalCapped ? 'list.totalMore' : 'list.total', { count: total })}
        filters={
          <>
            <Select<string>
              data-testid="task-filter-status"
              style={{ width: 140 }}
              value={params.status ?? 'all'}
              options={['all', ...TASK_STATUSES].map((s) => ({ value: s, label: t(`statuses.${s}`) }))}
              onChange={(v) => setFilter({ status: v === 'all' ? undefined : (v as TaskListParams['status']) })}
            />
            <Select<TaskPriority>
              allowClear
              style={{ width: 150 }}
              placeholder={t('filters.allPriorities')}
              value={params.priority}
              options={TASK_PRIORITIES.map((p) => ({ value: p, label: t(`priorities.${p}`) }))}
              onChange={(v) => setFilter({ priority: v ?? undefined })}
            />
            <SiteFilter
              placeholder={t('filters.allSites')}
              value={params.platformId}
              sites={sites}
              onChange={(platformId) => setFilter({ platformId })}
            />
            <DatePicker.RangePicker
              value={range}
              format={DAY}
              style={{ width: 240 }}
              placeholder={[t('filters.from'), t('filters.to')]}
              onChange={(v) => {
                setRange(v);
                setFilter({ startDate: v?.[0]?.format(DAY), endDate: v?.[1]?.format(DAY) });
              }}
            />
            <Input.Search
              allowClear
              data-testid="task-search"
              style={{ width: 200 }}
              placeholder={t('filters.keyword')}
              value={keyword}
              onChange={(e) => setKeyword(e.target.value)}
              onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
            />
          </>
        }
        actions={
          canCreate ? (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              data-testid="task-create"
              onClick={() => void navigate(taskPaths.create())}
            >
              {t('actions.create')}
            </Button>
          ) : null
        }
      />
    </ListPage>
  );
}

export const ReceivedTasksPage = () => <TaskList screen="receive" />;
export const AssignedTasksPage = () => <TaskList screen="assigned" />;
export const ReviewTasksPage = () => <TaskList screen="review" />;
export const TaskQueryPage = () => <TaskList screen="query" />;
