import { useEffect, useRef, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { App, Button, DatePicker, Flex, Form, Input, Modal, Radio, Select, Tag, Typography } from 'antd';
import { DownloadOutlined, PlusOutlined } from '@ant-design/icons';
import {
  JOB_STATES,
  REPORT_JOB_FORMATS,
  REPORT_JOB_SORT_FIELDS,
  REPORT_KINDS,
  type ReportJob,
} from '@geosentry/contract';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { JobProgress, isFinal } from '../../shared/jobs/index.ts';
import { dateOf, formatTime, pickerValue, shiftDate, todayDate } from '../../shared/time.ts';
import { useTimeZone } from '../../shared/useTimeZone.ts';
import { ReportFields } from './ReportFields.tsx';
import {
  downloadJob,
  fetchReportJobs,
  reportJobKeys,
  submitJob,
  type JobParams,
  type JobValues,
} from './reportJobsApi.ts';

const STATE_COLOUR: Record<string, string> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
  cancelled: 'warning',
};

type FormValues = Omit<JobValues, 'startTime' | 'endTime' | 'timeZone'> & { range: [Dayjs, Dayjs] };

/**
 * The caller's report jobs: state (live progress while it runs), download when done, cancel while queued or
 * running; a form queues a new one. Test hooks: rj-table, rj-new, #rj-submit, rj-download-<id>.
 */
export function ReportJobsTab() {
  const { t } = useTranslation('reportJobs');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { zone } = useTimeZone();
  const table = useServerTable<JobParams>({ pageNum: 1, pageSize: 20 }, REPORT_JOB_SORT_FIELDS, {
    filters: { state: 'string', reportKind: 'string' },
  });
  const { params, setFilter } = table;
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<FormValues>();
  const list = useQuery({
    queryKey: reportJobKeys.jobs(params),
    queryFn: () => fetchReportJobs(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
    // A job still moving: its row shows JobProgress (live); the list refreshes now and then for the others.
    refetchInterval: (q) => (q.state.data?.list.some((j) => !isFinal(j.state)) ? 5000 : false),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['reportJobs', 'jobs'] });
  const queue = useMutation({
    mutationFn: (v: FormValues) =>
      submitJob({ ...v, startTime: dateOf(v.range[0]), endTime: dateOf(v.range[1]), timeZone: zone }),
    onSuccess: () => {
      void message.success(t('jobs.queued'));
      setOpen(false);
      void refresh();
    },
  });
  const download = async (id: number) => {
    try {
      const name = await downloadJob(id);
      void message.success(t('jobs.saved', { name }));
    } catch (e) {
      // Spec §8: a failed download shows 'unsuccessful' for one second (with the server's reason).
      void message.error(`${t('jobs.unsuccessful')}: ${(e as Error).message}`, 1);
    }
  };
  const columns: ServerColumn<ReportJob>[] = [
    {
      title: t('jobs.createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 160,
      sortable: true,
      render: (v: string) => formatTime(v),
    },
    {
      title: t('form.kind'),
      dataIndex: 'reportKind',
      key: 'reportKind',
      width: 170,
      sortable: true,
      render: (v: ReportJob['reportKind']) => t(`kind.${v}`),
    },
    {
      title: t('form.site'),
      dataIndex: 'platformName',
      key: 'platformName',
      width: 160,
      sortable: true,
      render: (v: string | null) => v ?? <Typography.Text type="secondary">{t('jobs.siteHidden')}</Typography.Text>,
    },
    {
      title: t('form.format'),
      dataIndex: 'format',
      key: 'format',
      width: 80,
      render: (v: string) => <Tag>{v.toUpperCase()}</Tag>,
    },
    {
      title: t('jobs.state'),
      dataIndex: 'state',
      key: 'state',
      width: 300,
      sortable: true,
      render: (_v, row) =>
        isFinal(row.state) ? (
          <Flex vertical gap={2}>
            <span>
              <Tag color={STATE_COLOUR[row.state]} data-testid="rj-state" data-state={row.state}>
                {t(`state.${row.state}`)}
              </Tag>
            </span>
            {row.state === 'failed' && row.error && <Typography.Text type="danger">{row.error}</Typography.Text>}
          </Flex>
        ) : (
          <JobProgress jobId={row.id}>
            {(job) => <OnFinal final={!!job && isFinal(job.state)} run={refresh} />}
          </JobProgress>
        ),
    },
    {
      title: t('jobs.file'),
      dataIndex: 'fileName',
      key: 'fileName',
      width: 220,
      optional: 1,
      ellipsis: true,
      render: (v: string | null) => v ?? '',
    },
    {
      title: t('jobs.expiresAt'),
      dataIndex: 'expiresAt',
      key: 'expiresAt',
      width: 160,
      optional: 2,
      render: (v: string | null) => (v ? formatTime(v) : ''),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 120,
      render: (_v, row) =>
        row.state === 'done' && row.resultFileId ? (
          <Button
            type="link"
            size="small"
            icon={<DownloadOutlined />}
            data-testid={`rj-download-${row.id}`}
            onClick={() => void download(row.id)}
          >
            {t('jobs.download')}
          </Button>
        ) : null,
    },
  ];
  const openForm = () => {
    form.resetFields();
    const today = todayDate(zone);
    form.setFieldsValue({
      format: 'pdf',
      range: [pickerValue(shiftDate(today, -7)), pickerValue(shiftDate(today, -1))],
    });
    setOpen(true);
  };
  return (
    <>
      <ServerTable<ReportJob>
        tableId="reportJobs.jobs"
        rowKey="id"
        data-testid="rj-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(n) => t('common.total', { count: n })}
        empty={t('jobs.empty')}
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={openForm} data-testid="rj-new">
            {t('jobs.new')}
          </Button>
        }
        filters={
          <Flex gap={8} wrap>
            <Select
              allowClear
              style={{ width: 180 }}
              placeholder={t('form.kind')}
              value={params.reportKind}
              options={REPORT_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
              onChange={(v) => setFilter({ reportKind: v ?? undefined })}
            />
            <Select
              allowClear
              style={{ width: 140 }}
              placeholder={t('jobs.state')}
              value={params.state}
              options={JOB_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
              onChange={(v) => setFilter({ state: v ?? undefined })}
            />
          </Flex>
        }
      />
      <Modal
        open={open}
        title={t('jobs.new')}
        okText={t('jobs.queue')}
        cancelText={t('common.cancel')}
        okButtonProps={{ loading: queue.isPending, id: 'rj-submit' }}
        onOk={() => form.submit()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
        width={560}
      >
        <Typography.Paragraph type="secondary">{t('jobs.hint')}</Typography.Paragraph>
        <Form<FormValues> form={form} layout="vertical" onFinish={(v) => queue.mutate(v)}>
          <ReportFields />
          <Form.Item name="range" label={t('form.period')} rules={[{ required: true, message: t('form.required') }]}>
            <DatePicker.RangePicker allowClear={false} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="format" label={t('form.format')}>
            <Radio.Group
              optionType="button"
              options={REPORT_JOB_FORMATS.map((f) => ({ value: f, label: t(`format.${f}`) }))}
            />
          </Form.Item>
          <Form.Item name="fileName" label={t('form.fileName')} extra={t('form.fileNameHint')}>
            <Input maxLength={120} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

/** Runs `run` once when a row's job reaches a final state (the list then shows its outcome). */
function OnFinal({ final, run }: { final: boolean; run: () => unknown }) {
  const once = useRef(false);
  useEffect(() => {
    if (!final || once.current) return;
    once.current = true;
    void run();
  }, [final, run]);
  return null;
}
