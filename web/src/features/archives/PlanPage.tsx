import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import {
  Button,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Drawer,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Row,
  Select,
  Table,
  Tag,
  Typography,
  message,
} from 'antd';
import { CheckOutlined, PlusOutlined, ScheduleOutlined } from '@ant-design/icons';
import {
  DEFAULT_REMIND_DAYS,
  MAX_PLAN_FILES,
  MAX_REMIND_DAYS,
  PLAN_KINDS,
  PLAN_STATUSES,
  type Drill,
  type Plan,
  type PlanKind,
  type PlanStatus,
  type PlanVersion,
} from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { SiteFilter } from '../../shared/table/SiteFilter.tsx';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { formatTime, dateOf, todayDate } from '../../shared/time.ts';
import { useTimeZone } from '../../shared/useTimeZone.ts';
import { UploadField } from '../files/index.ts';
import {
  PLAN_SORT_FIELDS,
  addDrill,
  addPlan,
  addPlanVersion,
  approvePlanVersion,
  archivesKeys,
  deleteDrill,
  deletePlan,
  editPlan,
  fetchContacts,
  fetchPlan,
  fetchPlans,
  fetchSites,
  type PlanListParams,
} from './archivesApi.ts';
import { DAY, FileLinks, StatusTag, toDay } from './shared.tsx';

interface VersionShape {
  validity?: [Dayjs | null, Dayjs | null] | null;
  summary?: string;
  files?: string[];
}
interface PlanShape extends VersionShape {
  platformId?: number;
  kind?: PlanKind;
  name?: string;
  contactId?: number | null;
  remindDays?: number | null;
}

const versionValues = (v: VersionShape) => ({
  validFrom: toDay(v.validity?.[0]) ?? '',
  validTo: toDay(v.validity?.[1]) ?? '',
  summary: v.summary,
  files: v.files ?? [],
});

/** The validity period, a summary and up to 3 files: a plan's first version, or a new one. */
function VersionFields({ platformId, idPrefix }: { platformId: number | undefined; idPrefix: string }) {
  const { t } = useTranslation('archives');
  return (
    <>
      <Form.Item
        name="validity"
        label={t('fields.validity')}
        rules={[{ required: true, message: t('validation.validityRequired') }]}
      >
        <DatePicker.RangePicker
          id={`${idPrefix}-validity`}
          format={DAY}
          style={{ width: '100%' }}
          placeholder={[t('fields.validFrom'), t('fields.validTo')]}
        />
      </Form.Item>
      <Form.Item name="summary" label={t('fields.summary')}>
        <Input.TextArea id={`${idPrefix}-summary`} maxLength={4000} autoSize={{ minRows: 2, maxRows: 5 }} />
      </Form.Item>
      <Form.Item name="files" label={t('fields.planFiles')}>
        <UploadField
          id={`${idPrefix}-files`}
          kind="attachment"
          max={MAX_PLAN_FILES}
          platformId={platformId}
          disabled={platformId === undefined}
        />
      </Form.Item>
    </>
  );
}

function ContactSelect(props: { value?: number | null; onChange?: (v: number | null) => void; id?: string }) {
  const { t } = useTranslation('archives');
  const contacts = useQuery({ queryKey: archivesKeys.contacts, queryFn: fetchContacts, staleTime: 30_000 });
  return (
    <Select<number>
      id={props.id}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={t('fields.contactNone')}
      loading={contacts.isFetching}
      value={props.value ?? undefined}
      onChange={(v) => props.onChange?.(v ?? null)}
      options={(contacts.data ?? []).map((c) => ({ value: c.id, label: `${c.name} <${c.email}>` }))}
    />
  );
}

/** A plan: its header, every version (approve, add), and the drills held under it (record, delete). */
function PlanDrawer({
  planId,
  onClose,
  onChanged,
}: {
  planId: number | null;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation('archives');
  const { zone } = useTimeZone();
  const [msg, holder] = message.useMessage();
  const queryClient = useQueryClient();
  const [versionForm] = Form.useForm<VersionShape>();
  const [drillForm] = Form.useForm<{
    drillDate?: Dayjs | null;
    participants?: string;
    participantCount?: number | null;
    notes?: string;
    files?: string[];
  }>();
  const [adding, setAdding] = useState<'version' | 'drill' | null>(null);
  const detail = useQuery({
    queryKey: archivesKeys.plan(planId ?? 0),
    queryFn: () => fetchPlan(planId ?? 0),
    enabled: planId !== null,
    retry: retryUnlessCancelled,
  });
  const plan = detail.data;
  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: archivesKeys.plan(planId ?? 0) });
    onChanged();
  };
  const approve = useMutation({
    mutationFn: (id: number) => approvePlanVersion(id),
    onSuccess: () => {
      void msg.success(t('plan.approved'));
      reload();
    },
  });
  const addVersion = useMutation({
    mutationFn: (v: VersionShape) => addPlanVersion(planId ?? 0, versionValues(v)),
    onSuccess: () => {
      void msg.success(t('common.added'));
      setAdding(null);
      reload();
    },
  });
  const saveDrill = useMutation({
    mutationFn: (v: {
      drillDate?: Dayjs | null;
      participants?: string;
      participantCount?: number | null;
      notes?: string;
      files?: string[];
    }) =>
      addDrill(planId ?? 0, {
        drillDate: toDay(v.drillDate) ?? '',
        participants: v.participants ?? '',
        participantCount: v.participantCount ?? undefined,
        notes: v.notes,
        files: v.files ?? [],
      }),
    onSuccess: () => {
      void msg.success(t('common.added'));
      setAdding(null);
      reload();
    },
  });

  const versionColumns = [
    { key: 'version', title: t('fields.version'), dataIndex: 'version', width: 80, render: (v: number) => `v${v}` },
    {
      key: 'validity',
      title: t('fields.validity'),
      width: 200,
      render: (_: unknown, v: PlanVersion) => `${v.validFrom} ~ ${v.validTo}`,
    },
    { key: 'summary', title: t('fields.summary'), dataIndex: 'summary', render: (s: string | null) => s ?? '-' },
    {
      key: 'files',
      title: t('fields.planFiles'),
      width: 200,
      render: (_: unknown, v: PlanVersion) => <FileLinks files={v.files} />,
    },
    {
      key: 'approval',
      title: t('fields.approval'),
      width: 190,
      render: (_: unknown, v: PlanVersion) =>
        v.approvedAt ? (
          <Flex vertical>
            <Typography.Text data-testid="version-approved-by">
              <CheckOutlined style={{ color: '#52c41a' }} /> {v.approvedBy}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {formatTime(v.approvedAt)}
            </Typography.Text>
          </Flex>
        ) : plan && plan.version !== null && v.version < plan.version ? (
          <Tag>{t('plan.superseded')}</Tag>
        ) : (
          <Popconfirm
            title={t('plan.approveConfirm', { version: v.version })}
            okText={t('plan.approve')}
            cancelText={t('common.cancel')}
            onConfirm={() => approve.mutate(v.id)}
          >
            <Button
              size="small"
              type="primary"
              ghost
              loading={approve.isPending}
              data-testid={`version-approve-${v.version}`}
            >
              {t('plan.approve')}
            </Button>
          </Popconfirm>
        ),
    },
  ];
  const drillColumns = [
    { key: 'drillDate', title: t('fields.drillDate'), dataIndex: 'drillDate', width: 110 },
    {
      key: 'participants',
      title: t('fields.participants'),
      render: (_: unknown, d: Drill) => `${d.participants}${d.participantCount ? ` (${d.participantCount})` : ''}`,
    },
    { key: 'notes', title: t('fields.notes'), dataIndex: 'notes', render: (s: string | null) => s ?? '-' },
    {
      key: 'files',
      title: t('fields.drillFiles'),
      width: 180,
      render: (_: unknown, d: Drill) => <FileLinks files={d.files} />,
    },
    {
      key: 'actions',
      title: '',
      width: 70,
      render: (_: unknown, d: Drill) => (
        <DeleteAction
          title={t('plan.deleteDrillTitle', { date: d.drillDate })}
          description={t('common.deleteContent')}
          label={t('common.delete')}
          onDelete={() => deleteDrill(d.id)}
          success={t('common.deleted')}
          onDone={reload}
        />
      ),
    },
  ];

  return (
    <Drawer
      open={planId !== null}
      size={960}
      title={plan ? plan.name : t('plan.title')}
      onClose={onClose}
      destroyOnHidden
    >
      {holder}
      {plan ? (
        <>
          <Descriptions
            size="small"
            bordered
            column={3}
            style={{ marginBottom: 16 }}
            items={[
              { key: 'site', label: t('fields.site'), children: plan.platformName },
              { key: 'kind', label: t('fields.kind'), children: t(`kinds.${plan.kind}`) },
              { key: 'status', label: t('fields.status'), children: <StatusTag status={plan.status} kind="plan" /> },
              { key: 'version', label: t('fields.currentVersion'), children: plan.version ? `v${plan.version}` : '-' },
              { key: 'validTo', label: t('fields.validTo'), children: plan.validTo ?? '-' },
              {
                key: 'contact',
                label: t('fields.contact'),
                children: plan.contactName
                  ? t('plan.remindText', { name: plan.contactName, days: plan.remindDays })
                  : '-',
              },
            ]}
          />
          <Card
            size="small"
            title={t('plan.versions')}
            style={{ marginBottom: 16 }}
            extra={
              <Button
                size="small"
                icon={<PlusOutlined />}
                data-testid="version-add"
                onClick={() => {
                  versionForm.resetFields();
                  setAdding('version');
                }}
              >
                {t('plan.addVersion')}
              </Button>
            }
          >
            <Table<PlanVersion>
              rowKey="id"
              size="small"
              pagination={false}
              columns={versionColumns}
              dataSource={plan.versions}
              data-testid="version-table"
            />
          </Card>
          <Card
            size="small"
            title={t('plan.drills')}
            extra={
              <Button
                size="small"
                icon={<PlusOutlined />}
                data-testid="drill-add"
                onClick={() => {
                  drillForm.resetFields();
                  setAdding('drill');
                }}
              >
                {t('plan.addDrill')}
              </Button>
            }
          >
            <Table<Drill>
              rowKey="id"
              size="small"
              pagination={false}
              columns={drillColumns}
              dataSource={plan.drillList}
            />
          </Card>
          <Modal
            open={adding === 'version'}
            title={t('plan.addVersionTitle', { version: plan.latestVersion + 1 })}
            okText={t('common.save')}
            cancelText={t('common.cancel')}
            okButtonProps={{ loading: addVersion.isPending, 'data-testid': 'version-save' }}
            onOk={() => versionForm.submit()}
            onCancel={() => setAdding(null)}
            destroyOnHidden
          >
            <Form form={versionForm} layout="vertical" onFinish={(v) => addVersion.mutate(v)}>
              <VersionFields platformId={plan.platformId} idPrefix="version" />
            </Form>
          </Modal>
          <Modal
            open={adding === 'drill'}
            title={t('plan.addDrill')}
            okText={t('common.save')}
            cancelText={t('common.cancel')}
            okButtonProps={{ loading: saveDrill.isPending, 'data-testid': 'drill-save' }}
            onOk={() => drillForm.submit()}
            onCancel={() => setAdding(null)}
            destroyOnHidden
          >
            <Form form={drillForm} layout="vertical" onFinish={(v) => saveDrill.mutate(v)}>
              <Row gutter={16}>
                <Col span={12}>
                  <Form.Item
                    name="drillDate"
                    label={t('fields.drillDate')}
                    rules={[{ required: true, message: t('validation.dateRequired') }]}
                  >
                    <DatePicker
                      style={{ width: '100%' }}
                      format={DAY}
                      disabledDate={(d) => dateOf(d) > todayDate(zone)}
                    />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item name="participantCount" label={t('fields.participantCount')}>
                    <InputNumber min={1} max={100000} precision={0} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
              </Row>
              <Form.Item
                name="participants"
                label={t('fields.participants')}
                rules={[{ required: true, whitespace: true, message: t('validation.participantsRequired') }]}
              >
                <Input maxLength={2000} />
              </Form.Item>
              <Form.Item name="notes" label={t('fields.notes')}>
                <Input.TextArea maxLength={4000} autoSize={{ minRows: 2, maxRows: 5 }} />
              </Form.Item>
              <Form.Item name="files" label={t('fields.drillFiles')}>
                <UploadField kind="attachment" max={MAX_PLAN_FILES} platformId={plan.platformId} />
              </Form.Item>
            </Form>
          </Modal>
        </>
      ) : null}
    </Drawer>
  );
}

/** Safety supervision > plan management: emergency and prevention plans of the caller's sites. */
export default function PlanPage() {
  const { t } = useTranslation('archives');
  const queryClient = useQueryClient();
  const [msg, holder] = message.useMessage();
  const table = useServerTable<PlanListParams>({ pageNum: 1, pageSize: 10 }, PLAN_SORT_FIELDS, {
    filters: { platformId: 'number', kind: 'string', status: 'string', keyword: 'string' },
  });
  const { params, setFilter } = table;
  const [keyword, setKeyword] = useState(params.keyword ?? '');
  const [editing, setEditing] = useState<Plan | null | undefined>(undefined);
  const [opened, setOpened] = useState<number | null>(null);
  const [form] = Form.useForm<PlanShape>();
  const platformId = Form.useWatch('platformId', form);
  const list = useQuery({
    queryKey: archivesKeys.plans(params),
    queryFn: () => fetchPlans(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const sites = useQuery({ queryKey: archivesKeys.sites, queryFn: fetchSites, staleTime: 30_000 });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['archives', 'plans'] });
  const save = useMutation({
    mutationFn: (v: PlanShape) => {
      const header = {
        kind: v.kind ?? 'emergency',
        name: v.name ?? '',
        contactId: v.contactId ?? undefined,
        remindDays: v.remindDays ?? undefined,
      };
      return editing
        ? editPlan(editing.id, header).then(() => null)
        : addPlan({ ...header, platformId: v.platformId ?? 0, ...versionValues(v) });
    },
    onSuccess: () => {
      void msg.success(t(editing ? 'common.saved' : 'common.added'));
      setEditing(undefined);
      void refresh();
    },
  });
  const open = (p: Plan | null) => {
    form.resetFields();
    form.setFieldsValue(
      p
        ? { platformId: p.platformId, kind: p.kind, name: p.name, contactId: p.contactId, remindDays: p.remindDays }
        : { kind: 'emergency', remindDays: DEFAULT_REMIND_DAYS, files: [] },
    );
    setEditing(p);
  };

  const columns: ServerColumn<Plan>[] = [
    {
      key: 'name',
      title: t('fields.planName'),
      dataIndex: 'name',
      width: 200,
      sortable: true,
      hideable: false,
      render: (v: string, row) => (
        <Typography.Link onClick={() => setOpened(row.id)} data-testid="plan-open">
          {v}
        </Typography.Link>
      ),
    },
    { key: 'platformName', title: t('fields.site'), dataIndex: 'platformName', width: 150, sortable: true },
    {
      key: 'kind',
      title: t('fields.kind'),
      dataIndex: 'kind',
      width: 110,
      sortable: true,
      render: (k: PlanKind) => t(`kinds.${k}`),
    },
    {
      key: 'status',
      title: t('fields.status'),
      dataIndex: 'status',
      width: 100,
      render: (s: PlanStatus) => <StatusTag status={s} kind="plan" />,
    },
    {
      key: 'version',
      title: t('fields.currentVersion'),
      dataIndex: 'version',
      width: 120,
      sortable: true,
      render: (v: number | null, row) => (
        <Flex gap={4}>
          {v ? `v${v}` : '-'}
          {row.pendingVersions > 0 ? (
            <Tag color="processing">{t('plan.pending', { count: row.pendingVersions })}</Tag>
          ) : null}
        </Flex>
      ),
    },
    { key: 'validTo', title: t('fields.validTo'), dataIndex: 'validTo', width: 110, optional: 3, sortable: true },
    {
      key: 'approvedAt',
      title: t('fields.approval'),
      dataIndex: 'approvedAt',
      width: 170,
      sortable: true,
      optional: 2,
      render: (v: string | null, row) => (v ? `${row.approvedBy ?? ''} ${formatTime(v).slice(0, 10)}` : '-'),
    },
    {
      key: 'drills',
      title: t('fields.drills'),
      dataIndex: 'drills',
      width: 120,
      optional: 1,
      render: (n: number, row) => (n ? `${n} (${row.lastDrill ?? ''})` : '0'),
    },
    {
      key: 'actions',
      title: t('fields.actions'),
      width: 120,
      render: (_v, row) => (
        <Flex gap={0}>
          <Button type="link" size="small" onClick={() => open(row)}>
            {t('common.edit')}
          </Button>
          <DeleteAction
            title={t('plan.deleteTitle', { name: row.name })}
            description={t('plan.deleteContent')}
            label={t('common.delete')}
            onDelete={() => deletePlan(row.id)}
            success={t('common.deleted')}
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
    <ListPage icon={<ScheduleOutlined />} title={t('plan.title')} description={t('plan.description')}>
      {holder}
      <ServerTable<Plan>
        tableId="archives.plan"
        rowKey="id"
        data-testid="plan-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(n) => t('common.total', { count: n })}
        filters={
          <>
            <SiteFilter
              placeholder={t('filters.allSites')}
              value={params.platformId}
              loading={sites.isFetching}
              sites={sites.data ?? []}
              onChange={(platformId) => setFilter({ platformId })}
            />
            <Select<PlanKind>
              allowClear
              style={{ width: 150 }}
              placeholder={t('filters.allKinds')}
              value={params.kind}
              options={PLAN_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
              onChange={(v) => setFilter({ kind: v ?? undefined })}
            />
            <Select<PlanStatus>
              allowClear
              style={{ width: 150 }}
              placeholder={t('filters.allStatuses')}
              value={params.status}
              options={PLAN_STATUSES.map((s) => ({ value: s, label: t(`planStatuses.${s}`) }))}
              onChange={(v) => setFilter({ status: v ?? undefined })}
            />
            <Input.Search
              allowClear
              style={{ width: 200 }}
              placeholder={t('filters.keyword')}
              value={keyword}
              onChange={(e) => setKeyword(e.target.value)}
              onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
            />
          </>
        }
        actions={
          <Button type="primary" icon={<PlusOutlined />} data-testid="plan-add" onClick={() => open(null)}>
            {t('plan.add')}
          </Button>
        }
      />
      <Modal
        open={editing !== undefined}
        width={640}
        title={editing ? t('plan.editTitle', { name: editing.name }) : t('plan.addTitle')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        okButtonProps={{ loading: save.isPending, 'data-testid': 'plan-save' }}
        onOk={() => form.submit()}
        onCancel={() => setEditing(undefined)}
        destroyOnHidden
        forceRender
      >
        <Form<PlanShape> form={form} layout="vertical" onFinish={(v) => save.mutate(v)} data-testid="plan-form">
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item
                name="platformId"
                label={t('fields.site')}
                rules={[{ required: true, message: t('validation.siteRequired') }]}
              >
                <Select
                  id="plan-site"
                  disabled={Boolean(editing)}
                  showSearch={{ optionFilterProp: 'label' }}
                  options={(sites.data ?? []).map((s) => ({ value: s.platformId, label: s.name }))}
                />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="kind" label={t('fields.kind')} rules={[{ required: true }]}>
                <Select id="plan-kind" options={PLAN_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item
            name="name"
            label={t('fields.planName')}
            rules={[{ required: true, whitespace: true, message: t('validation.nameRequired') }]}
          >
            <Input id="plan-name" maxLength={200} />
          </Form.Item>
          <Row gutter={16}>
            <Col span={16}>
              <Form.Item name="contactId" label={t('fields.contact')} extra={t('plan.contactHint')}>
                <ContactSelect id="plan-contact" />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="remindDays" label={t('fields.remindDays')}>
                <InputNumber id="plan-remind" min={1} max={MAX_REMIND_DAYS} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
          {editing ? null : <VersionFields platformId={platformId} idPrefix="plan" />}
        </Form>
      </Modal>
      <PlanDrawer planId={opened} onClose={() => setOpened(null)} onChanged={() => void refresh()} />
    </ListPage>
  );
}
