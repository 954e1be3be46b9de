import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dateOf, pickerValue, todayDate } from '../../shared/time.ts';
import { useTimeZone } from '../../shared/useTimeZone.ts';
import type { Dayjs } from 'dayjs';
import {
  Button,
  Checkbox,
  DatePicker,
  Descriptions,
  Flex,
  Form,
  Input,
  Modal,
  Select,
  Tag,
  Tooltip,
  Typography,
  message,
} from 'antd';
import {
  AuditOutlined,
  CheckCircleOutlined,
  ExclamationCircleOutlined,
  PaperClipOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import {
  TS_ITEMS,
  TS_MAX_ATTACHMENTS,
  TS_PROBLEM_TYPES,
  TS_STATES,
  type TsAttachment,
  type TsProblemType,
  type TsRecord,
  type TsState,
} from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { SiteFilter } from '../../shared/table/SiteFilter.tsx';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { blankToUndefined, retryUnlessCancelled } from '../../shared/query.ts';
import { UploadField, fileHref } from '../files/index.ts';
import {
  TS_SORT_FIELDS,
  deleteTsRecord,
  fetchTsPersons,
  fetchTsRecords,
  fetchTsSites,
  setTsRectified,
  tsKeys,
  type TsListParams,
} from './tsManagementApi.ts';
import { TsRecordDrawer } from './TsRecordDrawer.tsx';

const DAY = 'YYYY-MM-DD';

function StateTag({ row }: { row: TsRecord }) {
  const { t } = useTranslation('tsManagement');
  if (row.state === 'completed')
    return (
      <Tag color="success" icon={<CheckCircleOutlined />}>
        {t('states.completed')}
      </Tag>
    );
  return (
    <Tag color={row.overdue ? 'error' : 'warning'} icon={row.overdue ? <ExclamationCircleOutlined /> : undefined}>
      {row.overdue ? t('states.overdue') : t('states.incomplete')}
    </Tag>
  );
}

function Attachments({ files }: { files: TsAttachment[] }) {
  if (files.length === 0) return <>-</>;
  return (
    <Flex vertical gap={2}>
      {files.map((a) => (
        <Typography.Link
          key={a.file_id}
          href={fileHref(a.file_id, true)}
          download={a.name ?? a.file_id}
          ellipsis
          style={{ maxWidth: 360 }}
          data-testid="ts-attachment"
        >
          <PaperClipOutlined style={{ marginRight: 4 }} />
          {a.name ?? a.file_id}
        </Typography.Link>
      ))}
    </Flex>
  );
}

/** The whole record, in the order of the spec's supervision record, shown when its row is expanded. */
function RecordDetail({ row }: { row: TsRecord }) {
  const { t } = useTranslation('tsManagement');
  const filled = 'filled' as const;
  return (
    <Descriptions
      size="small"
      bordered
      column={{ xs: 1, md: 2 }}
      data-testid="ts-detail"
      items={[
        { key: 'enterprise', label: t('fields.enterprise'), children: row.enterpriseName ?? '-' },
        {
          key: 'pondStatus',
          label: t('fields.pondStatus'),
          children: row.pondStatus ? t(`pondStatuses.${row.pondStatus}`) : '-',
        },
        {
          key: 'problemType',
          label: t('fields.problemType'),
          children: row.problemType ? t(`problemTypes.${row.problemType}`) : '-',
        },
        { key: 'deadline', label: t('fields.deadline'), children: row.deadline ?? '-' },
        {
          key: 'responsible',
          label: t('fields.responsiblePerson'),
          children: row.responsiblePerson
            ? `${row.responsiblePerson}${row.responsiblePhone ? ` (${row.responsiblePhone})` : ''}`
            : '-',
        },
        { key: 'regulatory', label: t('fields.regulatoryPerson'), children: row.regulatoryPerson ?? '-' },
        ...TS_ITEMS.map((k) => {
          const c = row.items[k];
          return {
            key: k,
            label: t(`items.${k}`),
            children: (
              <Flex gap={8} align="baseline" wrap>
                <Tag color={c?.result === 'problem' ? 'error' : 'success'}>{t(`results.${c?.result ?? 'ok'}`)}</Tag>
                {k === 'dryBeachLength' && row.dryBeachLength !== null ? (
                  <Typography.Text>
                    {row.dryBeachLength} {t('units.m')}
                  </Typography.Text>
                ) : null}
                {c?.note ? <Typography.Text type="secondary">{c.note}</Typography.Text> : null}
              </Flex>
            ),
          };
        }),
        { key: 'findings', label: t('fields.findings'), span: filled, children: row.findings ?? '-' },
        { key: 'requirement', label: t('fields.requirement'), span: filled, children: row.requirement ?? '-' },
        {
          key: 'attachments',
          label: t('fields.attachments'),
          span: filled,
          children: <Attachments files={row.attachments} />,
        },
        { key: 'result', label: t('fields.result'), span: filled, children: row.result ?? '-' },
        {
          key: 'resultAttachments',
          label: t('fields.resultAttachments'),
          span: filled,
          children: <Attachments files={row.resultAttachments} />,
        },
        { key: 'createdBy', label: t('fields.createdBy'), children: row.createdBy ?? '-' },
      ]}
    />
  );
}

/**
 * Information > TS management: tailings supervision records. Server-side paging, sorting and filters (site,
 * problem type, responsible person, completion status, inspection date range, overdue, keyword); add, edit,
 * mark rectified (with the result and result documents) and delete.
 */
export default function TsManagementPage() {
  const { t } = useTranslation('tsManagement');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const table = useServerTable<TsListParams>({ pageNum: 1, pageSize: 10 }, TS_SORT_FIELDS, {
    filters: {
      platformId: 'number',
      problemType: 'string',
      responsiblePersonId: 'number',
      state: 'string',
      startDate: 'string',
      endDate: 'string',
      overdue: 'boolean',
      keyword: 'string',
    },
  });
  const { params, setFilter } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(() =>
    params.startDate || params.endDate
      ? [params.startDate ? pickerValue(params.startDate) : null, params.endDate ? pickerValue(params.endDate) : null]
      : null,
  );
  const [editing, setEditing] = useState<TsRecord | null | undefined>(undefined);
  const [rectifying, setRectifying] = useState<TsRecord | null>(null);
  // "Today" is the user's zone's (issue 14): the default date and the last one that can be picked.
  const { zone } = useTimeZone();
  const [rectifyForm] = Form.useForm<{ completedDate?: Dayjs | null; result?: string; resultAttachments?: string[] }>();

  const list = useQuery({
    queryKey: tsKeys.list(params),
    queryFn: () => fetchTsRecords(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const sites = useQuery({
    queryKey: tsKeys.sites,
    queryFn: fetchTsSites,
    staleTime: 30_000,
    retry: retryUnlessCancelled,
  });
  const persons = useQuery({
    queryKey: tsKeys.persons(undefined),
    queryFn: () => fetchTsPersons(),
    staleTime: 30_000,
    retry: retryUnlessCancelled,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: tsKeys.all });

  const rectify = useMutation({
    mutationFn: (v: { id: number; completedDate: string; result?: string | undefined; resultAttachments: string[] }) =>
      setTsRectified(v.id, v),
    onSuccess: () => {
      void msg.success(t('messages.rectified'));
      setRectifying(null);
      void refresh();
    },
  });
  const sortable = (key: string) => ({ key, sorter: true, sortOrder: table.sortOrderOf(key) });

  const columns: ServerColumn<TsRecord>[] = [
    {
      title: t('fields.inspectionDate'),
      dataIndex: 'inspectionDate',
      width: 120,
      hideable: false,
      ...sortable('inspectionDate'),
    },
    {
      title: t('fields.site'),
      dataIndex: 'platformName',
      width: 200,
      ...sortable('platformName'),
      render: (v: string, row) => (
        <Flex vertical>
          <Typography.Text strong>{v}</Typography.Text>
          {row.enterpriseName ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {row.enterpriseName}
            </Typography.Text>
          ) : null}
        </Flex>
      ),
    },
    {
      title: t('fields.state'),
      dataIndex: 'state',
      width: 150,
      ...sortable('state'),
      render: (_v: TsState, row) => <StateTag row={row} />,
    },
    {
      title: t('fields.problemType'),
      dataIndex: 'problemType',
      width: 150,
      ...sortable('problemType'),
      render: (v: TsProblemType | null) => (v ? t(`problemTypes.${v}`) : '-'),
    },
    {
      title: t('fields.responsiblePerson'),
      dataIndex: 'responsiblePerson',
      width: 130,
      ...sortable('responsiblePerson'),
      render: (v: string | null) => v ?? '-',
    },
    { title: t('fields.inspector'), dataIndex: 'inspector', width: 110, ...sortable('inspector') },
    {
      title: t('fields.problems'),
      dataIndex: 'problems',
      key: 'problems',
      width: 130,
      render: (n: number) =>
        n > 0 ? (
          <Tag color="error">{t('list.problems', { count: n })}</Tag>
        ) : (
          <Tag color="success">{t('list.allOk')}</Tag>
        ),
    },
    {
      title: t('fields.deadline'),
      dataIndex: 'deadline',
      width: 120,
      ...sortable('deadline'),
      render: (v: string | null, row) =>
        v ? <Typography.Text type={row.overdue ? 'danger' : undefined}>{v}</Typography.Text> : '-',
    },
    {
      title: t('fields.completedDate'),
      dataIndex: 'completedDate',
      width: 130,
      ...sortable('completedDate'),
      render: (v: string | null) => v ?? '-',
    },
    {
      title: t('fields.requirement'),
      dataIndex: 'requirement',
      key: 'requirement',
      width: 240,
      ellipsis: true,
      render: (v: string | null) => (v ? <Tooltip title={v}>{v}</Tooltip> : '-'),
    },
    {
      title: <PaperClipOutlined aria-label={t('fields.attachments')} />,
      key: 'attachments',
      width: 60,
      align: 'center',
      render: (_v, row) =>
        row.attachments.length > 0 ? (
          <Tooltip title={row.attachments.map((a) => a.name ?? a.file_id).join(', ')}>
            <Typography.Text data-testid="ts-attachment-count">
              <PaperClipOutlined /> {row.attachments.length}
            </Typography.Text>
          </Tooltip>
        ) : (
          '-'
        ),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 230,
      fixed: 'right',
      render: (_v, row) => (
        <Flex gap={0} wrap={false}>
          <Button type="link" size="small" data-testid="ts-edit" onClick={() => setEditing(row)}>
            {t('actions.edit')}
          </Button>
          {row.state === 'incomplete' ? (
            <Button
              type="link"
              size="small"
              data-testid="ts-rectify"
              onClick={() => {
                rectifyForm.resetFields();
                rectifyForm.setFieldsValue({
                  completedDate: pickerValue(todayDate(zone)),
                  result: row.result ?? undefined,
                  resultAttachments: row.resultAttachments.map((a) => a.file_id),
                });
                setRectifying(row);
              }}
            >
              {t('actions.rectify')}
            </Button>
          ) : null}
          <DeleteAction
            title={t('confirm.deleteTitle', { site: row.platformName, date: row.inspectionDate })}
            description={t('confirm.deleteContent')}
            label={t('actions.delete')}
            data-testid="ts-delete"
            onDelete={() => deleteTsRecord(row.id)}
            success={t('messages.deleted')}
            onDone={() => {
              table.afterDelete(list.data?.list.length ?? 0);
              void refresh();
            }}
          />
        </Flex>
      ),
    },
  ];

  return (
    <ListPage icon={<AuditOutlined />} title={t('title')} description={t('description')}>
      {msgHolder}
      <ServerTable<TsRecord>
        tableId="tsManagement"
        rowKey="id"
        data-testid="ts-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(total) => t('list.total', { count: total })}
        expandable={{ expandedRowRender: (row) => <RecordDetail row={row} /> }}
        filters={
          <>
            <SiteFilter
              data-testid="ts-filter-site"
              placeholder={t('filters.allSites')}
              value={params.platformId}
              loading={sites.isFetching}
              sites={sites.data ?? []}
              onChange={(platformId) => setFilter({ platformId })}
            />
            <Select<TsProblemType>
              data-testid="ts-filter-problemType"
              allowClear
              style={{ width: 190 }}
              placeholder={t('filters.allProblemTypes')}
              value={params.problemType}
              options={TS_PROBLEM_TYPES.map((p) => ({ value: p, label: t(`problemTypes.${p}`) }))}
              onChange={(v) => setFilter({ problemType: v ?? undefined })}
            />
            <Select<number>
              data-testid="ts-filter-person"
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              style={{ width: 180 }}
              placeholder={t('filters.allPersons')}
              value={params.responsiblePersonId}
              loading={persons.isFetching}
              options={(persons.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
              onChange={(v) => setFilter({ responsiblePersonId: v ?? undefined })}
            />
            <Select<TsState>
              data-testid="ts-filter-state"
              allowClear
              style={{ width: 160 }}
              placeholder={t('filters.allStates')}
              value={params.state}
              options={TS_STATES.map((s) => ({ value: s, label: t(`states.${s}`) }))}
              onChange={(v) => setFilter({ state: v ?? undefined })}
            />
            <DatePicker.RangePicker
              data-testid="ts-filter-range"
              value={range}
              format={DAY}
              placeholder={[t('filters.from'), t('filters.to')]}
              onChange={(v) => {
                setRange(v);
                setFilter({ startDate: v?.[0]?.format(DAY), endDate: v?.[1]?.format(DAY) });
              }}
            />
            <Checkbox
              data-testid="ts-filter-overdue"
              checked={params.overdue === true}
              onChange={(e) => setFilter({ overdue: e.target.checked ? true : undefined })}
            >
              {t('filters.overdue')}
            </Checkbox>
            <Input.Search
              allowClear
              data-testid="ts-search"
              style={{ width: 220 }}
              placeholder={t('filters.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
            />
            <Button
              onClick={() => {
                setRange(null);
                setKeywordInput('');
                table.resetFilters();
              }}
            >
              {t('filters.reset')}
            </Button>
          </>
        }
        actions={
          <Button type="primary" icon={<PlusOutlined />} data-testid="ts-add" onClick={() => setEditing(null)}>
            {t('actions.add')}
          </Button>
        }
      />
      <TsRecordDrawer
        open={editing !== undefined}
        record={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={(added) => {
          void msg.success(t(added ? 'messages.added' : 'messages.saved'));
          setEditing(undefined);
          void refresh();
        }}
      />
      <Modal
        open={rectifying !== null}
        title={rectifying ? t('rectify.title', { site: rectifying.platformName, date: rectifying.inspectionDate }) : ''}
        okText={t('actions.rectify')}
        cancelText={t('common.cancel')}
        okButtonProps={{ loading: rectify.isPending, 'data-testid': 'ts-rectify-save' }}
        onOk={() => rectifyForm.submit()}
        onCancel={() => setRectifying(null)}
        destroyOnHidden
      >
        {rectifying?.requirement ? (
          <Typography.Paragraph type="secondary">{rectifying.requirement}</Typography.Paragraph>
        ) : null}
        <Form
          form={rectifyForm}
          layout="vertical"
          onFinish={(v) =>
            rectifying &&
            rectify.mutate({
              id: rectifying.id,
              completedDate: v.completedDate?.format(DAY) ?? '',
              result: blankToUndefined(v.result),
              resultAttachments: v.resultAttachments ?? [],
            })
          }
        >
          <Form.Item
            name="completedDate"
            label={t('fields.completedDate')}
            rules={[{ required: true, message: t('validation.completedDateRequired') }]}
          >
            <DatePicker
              id="ts-rectify-date"
              style={{ width: '100%' }}
              format={DAY}
              disabledDate={(d) =>
                dateOf(d) > todayDate(zone) || (rectifying ? dateOf(d) < rectifying.inspectionDate : false)
              }
            />
          </Form.Item>
          <Form.Item name="result" label={t('fields.result')}>
            <Input.TextArea id="ts-rectify-result" maxLength={4000} autoSize={{ minRows: 2, maxRows: 5 }} />
          </Form.Item>
          <Form.Item name="resultAttachments" label={t('fields.resultAttachments')} style={{ marginBottom: 0 }}>
            <UploadField
              id="ts-rectify-resultAttachments"
              kind="attachment"
              max={TS_MAX_ATTACHMENTS}
              platformId={rectifying?.platformId}
              known={rectifying?.resultAttachments.map((a) => ({
                file_id: a.file_id,
                name: a.name ?? undefined,
                mime: a.mime ?? undefined,
              }))}
            />
          </Form.Item>
        </Form>
      </Modal>
    </ListPage>
  );
}
