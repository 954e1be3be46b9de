import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  App,
  Button,
  Checkbox,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Switch,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import {
  REPORT_JOB_FORMATS,
  REPORT_KINDS,
  SCHEDULE_FREQUENCIES,
  SCHEDULE_PERIODS,
  SCHEDULE_SORT_FIELDS,
  type ReportSchedule,
} from '@geosentry/contract';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { allTimeZones, formatInZone } from '../../shared/time.ts';
import { useTimeZone } from '../../shared/useTimeZone.ts';
import { ReportFields } from './ReportFields.tsx';
import {
  deleteSchedule,
  fetchGroupOptions,
  fetchSchedules,
  reportJobKeys,
  saveSchedule,
  type ScheduleParams,
  type ScheduleValues,
} from './reportJobsApi.ts';

const RUN_COLOUR: Record<string, string> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
};
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];

/**
 * The caller's report schedules: when each runs, what it covers, whom it mails, its next due time and last run
 * (with the reason of a failure); a form adds and edits them. Test hooks: rs-table, rs-new, #rs-save.
 */
export function SchedulesTab() {
  const { t } = useTranslation('reportJobs');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { zone } = useTimeZone();
  const table = useServerTable<ScheduleParams>({ pageNum: 1, pageSize: 20 }, SCHEDULE_SORT_FIELDS, {
    filters: { keyword: 'string', kind: 'string' },
  });
  const { params, setFilter } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
  const [editing, setEditing] = useState<ReportSchedule | null | undefined>(undefined);
  const [form] = Form.useForm<ScheduleValues>();
  const list = useQuery({
    queryKey: reportJobKeys.schedules(params),
    queryFn: () => fetchSchedules(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const groups = useQuery({
    queryKey: reportJobKeys.groups,
    queryFn: fetchGroupOptions,
    enabled: editing !== undefined,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['reportJobs', 'schedules'] });
  const save = useMutation({
    mutationFn: (v: ScheduleValues) => saveSchedule(editing?.id ?? null, v),
    onSuccess: () => {
      void message.success(t(editing ? 'common.saved' : 'common.added'));
      setEditing(undefined);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: deleteSchedule,
    onSuccess: () => {
      void message.success(t('common.deleted'));
      table.afterDelete(list.data?.list.length ?? 0);
      void refresh();
    },
  });
  const open = (row: ReportSchedule | null) => {
    form.resetFields();
    if (row)
      form.setFieldsValue({
        name: row.name,
        kind: row.kind,
        platformId: row.platformId,
        moduleId: row.params.moduleId as number | undefined,
        statisticsType: row.params.statisticsType as string | undefined,
        template: row.params.template as string | undefined,
        formats: row.formats,
        frequency: row.frequency,
        weekday: row.weekday ?? undefined,
        monthDay: row.monthDay ?? undefined,
        time: row.time,
        timeZone: row.timeZone,
        period: row.period,
        groupId: row.groupId,
        enabled: row.enabled,
      });
    else
      form.setFieldsValue({
        kind: 'general',
        formats: ['pdf'],
        frequency: 'monthly',
        monthDay: 1,
        weekday: 1,
        time: '08:00',
        timeZone: zone,
        period: 'lastMonth',
        enabled: true,
      });
    setEditing(row);
  };
  const when = (s: ReportSchedule) => {
    const at = `${s.time} (${s.timeZone})`;
    if (s.frequency === 'weekly') return t('when.weekly', { day: t(`weekday.${s.weekday ?? 1}`), at });
    if (s.frequency === 'monthly') return t('when.monthly', { day: s.monthDay ?? 1, at });
    return t('when.daily', { at });
  };
  const columns: ServerColumn<ReportSchedule>[] = [
    { title: t('schedules.name'), dataIndex: 'name', key: 'name', width: 170, sortable: true },
    {
      title: t('form.kind'),
      dataIndex: 'kind',
      key: 'kind',
      width: 150,
      sortable: true,
      render: (v: ReportSchedule['kind'], row) => (
        <Flex vertical>
          <span>{t(`kind.${v}`)}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {row.platformName ?? `#${row.platformId}`}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('schedules.when'),
      dataIndex: 'frequency',
      key: 'frequency',
      width: 220,
      sortable: true,
      render: (_v, row) => (
        <Flex vertical>
          <span>{when(row)}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(`period.${row.period}`)} · {row.formats.map((f) => f.toUpperCase()).join(', ')}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('schedules.group'),
      dataIndex: 'groupName',
      key: 'groupName',
      width: 140,
      optional: 1,
      render: (v: string | null) => v ?? '',
    },
    {
      title: t('schedules.nextDueAt'),
      dataIndex: 'nextDueAt',
      key: 'nextDueAt',
      width: 170,
      sortable: true,
      render: (v: string | null, row) =>
        row.enabled && v ? formatInZone(v, row.timeZone, 'YYYY-MM-DD HH:mm') : <Tag>{t('schedules.disabled')}</Tag>,
    },
    {
      title: t('schedules.lastRun'),
      dataIndex: 'lastRun',
      key: 'lastRun',
      width: 200,
      render: (r: ReportSchedule['lastRun']) =>
        r ? (
          <Flex vertical gap={2}>
            <span>
              <Tooltip title={r.reason ?? undefined}>
                <Tag color={RUN_COLOUR[r.state]} data-testid="rs-run" data-state={r.state}>
                  {t(`runState.${r.state}`)}
                </Tag>
              </Tooltip>
              {r.state === 'done' && t('schedules.mailed', { sent: r.sent, count: r.mails })}
            </span>
            {r.state === 'failed' && r.reason && (
              <Typography.Text type="danger" style={{ fontSize: 12 }}>
                {r.reason}
              </Typography.Text>
            )}
          </Flex>
        ) : (
          <Typography.Text type="secondary">{t('schedules.never')}</Typography.Text>
        ),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 130,
      render: (_v, row) => (
        <Flex>
          <Button type="link" size="small" onClick={() => open(row)}>
            {t('common.edit')}
          </Button>
          <Popconfirm
            title={t('schedules.deleteConfirm', { name: row.name })}
            okText={t('common.delete')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.cancel')}
            onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
          >
            <Button type="link" size="small" danger>
              {t('common.delete')}
            </Button>
          </Popconfirm>
        </Flex>
      ),
    },
  ];
  return (
    <>
      <ServerTable<ReportSchedule>
        tableId="reportJobs.schedules"
        rowKey="id"
        data-testid="rs-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(n) => t('common.total', { count: n })}
        empty={t('schedules.empty')}
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => open(null)} data-testid="rs-new">
            {t('schedules.add')}
          </Button>
        }
        filters={
          <Flex gap={8} wrap>
            <Input.Search
              allowClear
              style={{ width: 220 }}
              placeholder={t('schedules.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
            />
            <Select
              allowClear
              style={{ width: 180 }}
              placeholder={t('form.kind')}
              value={params.kind}
              options={REPORT_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
              onChange={(v) => setFilter({ kind: v ?? undefined })}
            />
          </Flex>
        }
      />
      <Modal
        open={editing !== undefined}
        title={editing ? t('schedules.editTitle', { name: editing.name }) : t('schedules.add')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        okButtonProps={{ loading: save.isPending, id: 'rs-save' }}
        onOk={() => form.submit()}
        onCancel={() => setEditing(undefined)}
        destroyOnHidden
        width={640}
      >
        <Form<ScheduleValues> form={form} layout="vertical" onFinish={(v) => save.mutate(v)}>
          <Form.Item
            name="name"
            label={t('schedules.name')}
            rules={[{ required: true, whitespace: true, message: t('form.required') }]}
          >
            <Input id="rs-name" maxLength={100} />
          </Form.Item>
          <ReportFields />
          <Flex gap={12} wrap>
            <Form.Item name="frequency" label={t('schedules.frequency')} style={{ minWidth: 140 }}>
              <Select options={SCHEDULE_FREQUENCIES.map((f) => ({ value: f, label: t(`frequency.${f}`) }))} />
            </Form.Item>
            <Form.Item noStyle dependencies={['frequency']}>
              {({ getFieldValue }) =>
                getFieldValue('frequency') === 'weekly' ? (
                  <Form.Item name="weekday" label={t('schedules.weekday')} style={{ minWidth: 130 }}>
                    <Select options={WEEKDAYS.map((d) => ({ value: d, label: t(`weekday.${d}`) }))} />
                  </Form.Item>
                ) : getFieldValue('frequency') === 'monthly' ? (
                  <Form.Item name="monthDay" label={t('schedules.monthDay')} extra={t('schedules.monthDayHint')}>
                    <InputNumber min={1} max={31} precision={0} style={{ width: 120 }} />
                  </Form.Item>
                ) : null
              }
            </Form.Item>
            <Form.Item
              name="time"
              label={t('schedules.time')}
              rules={[{ required: true, pattern: /^([01]\d|2[0-3]):[0-5]\d$/, message: t('schedules.timeFormat') }]}
            >
              <Input style={{ width: 100 }} placeholder="08:00" maxLength={5} />
            </Form.Item>
            <Form.Item name="timeZone" label={t('schedules.timeZone')} style={{ minWidth: 200 }}>
              <Select showSearch options={allTimeZones().map((z) => ({ value: z, label: z }))} />
            </Form.Item>
          </Flex>
          <Flex gap={12} wrap>
            <Form.Item name="period" label={t('form.period')} style={{ minWidth: 180 }}>
              <Select options={SCHEDULE_PERIODS.map((p) => ({ value: p, label: t(`period.${p}`) }))} />
            </Form.Item>
            <Form.Item
              name="formats"
              label={t('schedules.formats')}
              rules={[{ required: true, type: 'array', min: 1, message: t('form.required') }]}
            >
              <Checkbox.Group options={REPORT_JOB_FORMATS.map((f) => ({ value: f, label: t(`format.${f}`) }))} />
            </Form.Item>
          </Flex>
          <Form.Item
            name="groupId"
            label={t('schedules.group')}
            extra={t('schedules.groupHint')}
            rules={[{ required: true, message: t('form.required') }]}
          >
            <Select<number>
              loading={groups.isFetching}
              options={(groups.data ?? []).map((g) => ({
                value: g.id,
                label: `${g.name} · ${t('schedules.mailable', { count: g.mailable })}`,
              }))}
            />
          </Form.Item>
          <Form.Item name="enabled" label={t('schedules.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
