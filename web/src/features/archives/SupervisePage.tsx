import { useEffect, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import {
  Button,
  Card,
  Checkbox,
  Col,
  DatePicker,
  Descriptions,
  Drawer,
  Flex,
  Form,
  Input,
  Modal,
  Radio,
  Row,
  Select,
  Tag,
  Typography,
  message,
} from 'antd';
import { MinusCircleOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import {
  MAX_INSPECTION_ITEMS,
  MAX_INSPECTION_PROBLEMS,
  MAX_PROBLEM_PHOTOS,
  RECTIFICATION_STATES,
  type Inspection,
  type RectificationState,
} from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { SiteFilter } from '../../shared/table/SiteFilter.tsx';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { blankToUndefined, retryUnlessCancelled } from '../../shared/query.ts';
import { dateOf, pickerValue, todayDate } from '../../shared/time.ts';
import { useTimeZone } from '../../shared/useTimeZone.ts';
import { UploadField } from '../files/index.ts';
import {
  INSPECTION_SORT_FIELDS,
  addInspection,
  archivesKeys,
  deleteInspection,
  editInspection,
  fetchInspections,
  fetchSites,
  rectifyInspection,
  type InspectionListParams,
  type InspectionValues,
} from './archivesApi.ts';
import { DAY, FileLinks, RectificationTag, fromDay, knownFiles, toDay } from './shared.tsx';

interface FormShape {
  platformId?: number;
  inspectionDate?: Dayjs | null;
  inspector?: string;
  items: { name?: string; result: 'ok' | 'problem'; note?: string }[];
  problems: { description?: string; photos?: string[] }[];
  requirement?: string;
  deadline?: Dayjs | null;
  state: RectificationState;
  completedDate?: Dayjs | null;
  result?: string;
}

/** Records or edits an inspection: items checked, problems with photos, rectification and result. */
function InspectionDrawer({
  open,
  record,
  onClose,
  onSaved,
}: {
  open: boolean;
  record: Inspection | null;
  onClose: () => void;
  onSaved: (added: boolean) => void;
}) {
  const { t } = useTranslation('archives');
  const { zone } = useTimeZone();
  const [form] = Form.useForm<FormShape>();
  const platformId = Form.useWatch('platformId', form);
  const state = Form.useWatch('state', form);
  const sites = useQuery({ queryKey: archivesKeys.sites, queryFn: fetchSites, enabled: open, staleTime: 30_000 });

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (record)
      form.setFieldsValue({
        platformId: record.platformId,
        inspectionDate: fromDay(record.inspectionDate),
        inspector: record.inspector,
        items: record.items.map((i) => ({ name: i.name, result: i.result, note: i.note })),
        problems: record.problems.map((p) => ({ description: p.description, photos: p.photos.map((f) => f.file_id) })),
        requirement: record.requirement ?? undefined,
        deadline: fromDay(record.deadline),
        state: record.state,
        completedDate: fromDay(record.completedDate),
        result: record.result ?? undefined,
      });
    else
      form.setFieldsValue({
        inspectionDate: pickerValue(todayDate(zone)),
        items: [{ name: '', result: 'ok' }],
        problems: [],
        state: 'incomplete',
      });
  }, [open, record, form, zone]);

  const save = useMutation({
    mutationFn: (v: InspectionValues) => (record ? editInspection(record.id, v) : addInspection(v)),
    onSuccess: () => onSaved(record === null),
  });
  const submit = (v: FormShape) =>
    save.mutate({
      platformId: v.platformId ?? 0,
      inspectionDate: toDay(v.inspectionDate) ?? '',
      inspector: v.inspector ?? '',
      items: v.items.map((i) => ({ name: i.name ?? '', result: i.result, note: blankToUndefined(i.note) })),
      problems: (v.problems ?? []).map((p) => ({ description: p.description ?? '', photos: p.photos ?? [] })),
      requirement: v.requirement,
      deadline: toDay(v.deadline),
      state: v.state,
      completedDate: toDay(v.completedDate),
      result: v.result,
    });
  const future = (d: Dayjs) => dateOf(d) > todayDate(zone);
  const section = { size: 'small' as const, style: { marginBottom: 16 } };
  const storedPhotos = record?.problems.flatMap((p) => p.photos);

  return (
    <Drawer
      open={open}
      size={820}
      title={
        record
          ? t('supervise.editTitle', { site: record.platformName, date: record.inspectionDate })
          : t('supervise.addTitle')
      }
      onClose={onClose}
      destroyOnHidden
      extra={
        <Flex gap={8}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={save.isPending} data-testid="inspection-save" onClick={() => form.submit()}>
            {t('common.save')}
          </Button>
        </Flex>
      }
    >
      <Form<FormShape> form={form} layout="vertical" onFinish={submit} data-testid="inspection-form" scrollToFirstError>
        <Card {...section} title={t('supervise.sectionInspection')}>
          <Row gutter={16}>
            <Col span={10}>
              <Form.Item
                name="platformId"
                label={t('fields.site')}
                rules={[{ required: true, message: t('validation.siteRequired') }]}
              >
                <Select
                  id="inspection-site"
                  showSearch={{ optionFilterProp: 'label' }}
                  disabled={record !== null}
                  loading={sites.isFetching}
                  options={(sites.data ?? []).map((s) => ({ value: s.platformId, label: s.name }))}
                />
              </Form.Item>
            </Col>
            <Col span={7}>
              <Form.Item
                name="inspectionDate"
                label={t('fields.inspectionDate')}
                rules={[{ required: true, message: t('validation.dateRequired') }]}
              >
                <DatePicker id="inspection-date" style={{ width: '100%' }} format={DAY} disabledDate={future} />
              </Form.Item>
            </Col>
            <Col span={7}>
              <Form.Item
                name="inspector"
                label={t('fields.inspector')}
                rules={[{ required: true, whitespace: true, message: t('validation.inspectorRequired') }]}
              >
                <Input id="inspection-inspector" maxLength={100} />
              </Form.Item>
            </Col>
          </Row>
        </Card>
        <Card {...section} title={t('supervise.sectionItems')}>
          <Form.List name="items">
            {(fields, { add, remove }) => (
              <>
                {fields.map((f, i) => (
                  <Row gutter={8} key={f.key} align="top">
                    <Col span={8}>
                      <Form.Item
                        name={[f.name, 'name']}
                        rules={[{ required: true, whitespace: true, message: t('validation.itemRequired') }]}
                      >
                        <Input placeholder={t('fields.itemName')} maxLength={200} data-testid={`item-name-${i}`} />
                      </Form.Item>
                    </Col>
                    <Col span={6}>
                      <Form.Item name={[f.name, 'result']}>
                        <Radio.Group
                          optionType="button"
                          data-testid={`item-result-${i}`}
                          options={[
                            { value: 'ok', label: t('results.ok') },
                            { value: 'problem', label: t('results.problem') },
                          ]}
                        />
                      </Form.Item>
                    </Col>
                    <Col span={9}>
                      <Form.Item name={[f.name, 'note']}>
                        <Input placeholder={t('fields.itemNote')} maxLength={500} data-testid={`item-note-${i}`} />
                      </Form.Item>
                    </Col>
                    <Col span={1}>
                      {fields.length > 1 ? (
                        <MinusCircleOutlined
                          aria-label={t('common.remove')}
                          style={{ marginTop: 9 }}
                          onClick={() => remove(f.name)}
                        />
                      ) : null}
                    </Col>
                  </Row>
                ))}
                {fields.length < MAX_INSPECTION_ITEMS ? (
                  <Button
                    type="dashed"
                    icon={<PlusOutlined />}
                    onClick={() => add({ name: '', result: 'ok' })}
                    data-testid="item-add"
                  >
                    {t('supervise.addItem')}
                  </Button>
                ) : null}
              </>
            )}
          </Form.List>
        </Card>
        <Card {...section} title={t('supervise.sectionProblems')}>
          <Form.List name="problems">
            {(fields, { add, remove }) => (
              <>
                {fields.map((f, i) => (
                  <Row gutter={8} key={f.key} align="top">
                    <Col span={13}>
                      <Form.Item
                        name={[f.name, 'description']}
                        rules={[{ required: true, whitespace: true, message: t('validation.problemRequired') }]}
                      >
                        <Input.TextArea
                          placeholder={t('fields.problem')}
                          autoSize={{ minRows: 1, maxRows: 4 }}
                          maxLength={2000}
                          data-testid={`problem-description-${i}`}
                        />
                      </Form.Item>
                    </Col>
                    <Col span={10}>
                      <Form.Item
                        name={[f.name, 'photos']}
                        extra={platformId === undefined ? t('supervise.photosAfterSite') : undefined}
                      >
                        <UploadField
                          id={`problem-photos-${i}`}
                          kind="picture"
                          max={MAX_PROBLEM_PHOTOS}
                          platformId={platformId}
                          disabled={platformId === undefined}
                          known={knownFiles(storedPhotos)}
                        />
                      </Form.Item>
                    </Col>
                    <Col span={1}>
                      <MinusCircleOutlined
                        aria-label={t('common.remove')}
                        style={{ marginTop: 9 }}
                        onClick={() => remove(f.name)}
                      />
                    </Col>
                  </Row>
                ))}
                {fields.length < MAX_INSPECTION_PROBLEMS ? (
                  <Button
                    type="dashed"
                    icon={<PlusOutlined />}
                    onClick={() => add({ description: '', photos: [] })}
                    data-testid="problem-add"
                  >
                    {t('supervise.addProblem')}
                  </Button>
                ) : null}
              </>
            )}
          </Form.List>
        </Card>
        <Card {...section} title={t('supervise.sectionRectification')}>
          <Form.Item name="requirement" label={t('fields.requirement')} extra={t('supervise.requirementHint')}>
            <Input.TextArea id="inspection-requirement" maxLength={4000} autoSize={{ minRows: 2, maxRows: 5 }} />
          </Form.Item>
          <Row gutter={16}>
            <Col span={8}>
              <Form.Item name="deadline" label={t('fields.deadline')}>
                <DatePicker id="inspection-deadline" style={{ width: '100%' }} format={DAY} />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="state" label={t('fields.state')}>
                <Radio.Group
                  optionType="button"
                  options={RECTIFICATION_STATES.map((s) => ({ value: s, label: t(`states.${s}`) }))}
                />
              </Form.Item>
            </Col>
            <Col span={8}>
              {state === 'completed' ? (
                <Form.Item
                  name="completedDate"
                  label={t('fields.completedDate')}
                  rules={[{ required: true, message: t('validation.completedDateRequired') }]}
                >
                  <DatePicker id="inspection-completed" style={{ width: '100%' }} format={DAY} disabledDate={future} />
                </Form.Item>
              ) : null}
            </Col>
          </Row>
          <Form.Item name="result" label={t('fields.result')} style={{ marginBottom: 0 }}>
            <Input.TextArea id="inspection-result" maxLength={4000} autoSize={{ minRows: 2, maxRows: 5 }} />
          </Form.Item>
        </Card>
      </Form>
    </Drawer>
  );
}

function InspectionDetail({ row }: { row: Inspection }) {
  const { t } = useTranslation('archives');
  return (
    <Descriptions
      size="small"
      bordered
      column={1}
      data-testid="inspection-detail"
      items={[
        {
          key: 'items',
          label: t('fields.items'),
          children: (
            <Flex vertical gap={4}>
              {row.items.map((i, n) => (
                <Flex key={n} gap={8} align="baseline" wrap>
                  <Tag color={i.result === 'problem' ? 'error' : 'success'}>{t(`results.${i.result}`)}</Tag>
                  <Typography.Text>{i.name}</Typography.Text>
                  {i.note ? <Typography.Text type="secondary">{i.note}</Typography.Text> : null}
                </Flex>
              ))}
            </Flex>
          ),
        },
        {
          key: 'problems',
          label: t('fields.problems'),
          children: row.problems.length ? (
            <Flex vertical gap={8}>
              {row.problems.map((p, n) => (
                <Flex key={n} vertical gap={2}>
                  <Typography.Text>
                    {n + 1}. {p.description}
                  </Typography.Text>
                  <FileLinks files={p.photos} testId="inspection-photo" />
                </Flex>
              ))}
            </Flex>
          ) : (
            '-'
          ),
        },
        { key: 'requirement', label: t('fields.requirement'), children: row.requirement ?? '-' },
        { key: 'result', label: t('fields.result'), children: row.result ?? '-' },
        { key: 'createdBy', label: t('fields.createdBy'), children: row.createdBy ?? '-' },
      ]}
    />
  );
}

/** Safety supervision > dynamic supervision: inspections of the caller's sites over time. */
export default function SupervisePage() {
  const { t } = useTranslation('archives');
  const queryClient = useQueryClient();
  const [msg, holder] = message.useMessage();
  const { zone } = useTimeZone();
  const table = useServerTable<InspectionListParams>({ pageNum: 1, pageSize: 10 }, INSPECTION_SORT_FIELDS, {
    filters: {
      platformId: 'number',
      state: 'string',
      startDate: 'string',
      endDate: 'string',
      withProblems: 'boolean',
      overdue: 'boolean',
      keyword: 'string',
    },
  });
  const { params, setFilter } = table;
  const [keyword, setKeyword] = useState(params.keyword ?? '');
  const [editing, setEditing] = useState<Inspection | null | undefined>(undefined);
  const [rectifying, setRectifying] = useState<Inspection | null>(null);
  const [rectifyForm] = Form.useForm<{ completedDate?: Dayjs | null; result?: string }>();
  const list = useQuery({
    queryKey: archivesKeys.inspections(params),
    queryFn: () => fetchInspections(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const sites = useQuery({ queryKey: archivesKeys.sites, queryFn: fetchSites, staleTime: 30_000 });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['archives', 'inspections'] });
  const rectify = useMutation({
    mutationFn: (v: { id: number; completedDate: string; result?: string | undefined }) =>
      rectifyInspection(v.id, v.completedDate, v.result),
    onSuccess: () => {
      void msg.success(t('supervise.rectified'));
      setRectifying(null);
      void refresh();
    },
  });

  const columns: ServerColumn<Inspection>[] = [
    {
      key: 'inspectionDate',
      title: t('fields.inspectionDate'),
      dataIndex: 'inspectionDate',
      width: 125,
      sortable: true,
      hideable: false,
    },
    { key: 'platformName', title: t('fields.site'), dataIndex: 'platformName', width: 160, sortable: true },
    { key: 'inspector', title: t('fields.inspector'), dataIndex: 'inspector', width: 100, optional: 3, sortable: true },
    {
      key: 'problemCount',
      title: t('fields.problems'),
      dataIndex: 'problemCount',
      width: 110,
      sortable: true,
      render: (n: number) =>
        n > 0 ? (
          <Tag color="error">{t('supervise.problemCount', { count: n })}</Tag>
        ) : (
          <Tag color="success">{t('supervise.allOk')}</Tag>
        ),
    },
    {
      key: 'state',
      title: t('fields.state'),
      dataIndex: 'state',
      width: 120,
      sortable: true,
      render: (_v, row) => <RectificationTag state={row.state} overdue={row.overdue} />,
    },
    {
      key: 'deadline',
      title: t('fields.deadline'),
      dataIndex: 'deadline',
      width: 115,
      sortable: true,
      render: (v: string | null, row) =>
        v ? <Typography.Text type={row.overdue ? 'danger' : undefined}>{v}</Typography.Text> : '-',
    },
    {
      key: 'completedDate',
      title: t('fields.completedDate'),
      dataIndex: 'completedDate',
      width: 120,
      sortable: true,
      optional: 2,
    },
    { key: 'requirement', title: t('fields.requirement'), dataIndex: 'requirement', width: 220, optional: 1 },
    {
      key: 'actions',
      title: t('fields.actions'),
      width: 200,
      render: (_v, row) => (
        <Flex gap={0}>
          <Button type="link" size="small" data-testid="inspection-edit" onClick={() => setEditing(row)}>
            {t('common.edit')}
          </Button>
          {row.state === 'incomplete' ? (
            <Button
              type="link"
              size="small"
              data-testid="inspection-rectify"
              onClick={() => {
                rectifyForm.resetFields();
                rectifyForm.setFieldsValue({
                  completedDate: pickerValue(todayDate(zone)),
                  result: row.result ?? undefined,
                });
                setRectifying(row);
              }}
            >
              {t('supervise.rectify')}
            </Button>
          ) : null}
          <DeleteAction
            title={t('supervise.deleteTitle', { site: row.platformName, date: row.inspectionDate })}
            description={t('common.deleteContent')}
            label={t('common.delete')}
            onDelete={() => deleteInspection(row.id)}
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
    <ListPage icon={<SearchOutlined />} title={t('supervise.title')} description={t('supervise.description')}>
      {holder}
      <ServerTable<Inspection>
        tableId="archives.supervise"
        rowKey="id"
        data-testid="inspection-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(n) => t('common.total', { count: n })}
        expandable={{ expandedRowRender: (row) => <InspectionDetail row={row} /> }}
        filters={
          <>
            <SiteFilter
              placeholder={t('filters.allSites')}
              value={params.platformId}
              loading={sites.isFetching}
              sites={sites.data ?? []}
              onChange={(platformId) => setFilter({ platformId })}
            />
            <Select<RectificationState>
              allowClear
              style={{ width: 150 }}
              placeholder={t('filters.allStates')}
              value={params.state}
              options={RECTIFICATION_STATES.map((s) => ({ value: s, label: t(`states.${s}`) }))}
              onChange={(v) => setFilter({ state: v ?? undefined })}
            />
            <DatePicker.RangePicker
              format={DAY}
              placeholder={[t('filters.from'), t('filters.to')]}
              value={
                params.startDate || params.endDate
                  ? [fromDay(params.startDate) ?? null, fromDay(params.endDate) ?? null]
                  : null
              }
              onChange={(v) => setFilter({ startDate: toDay(v?.[0]), endDate: toDay(v?.[1]) })}
            />
            <Checkbox
              checked={params.withProblems === true}
              onChange={(e) => setFilter({ withProblems: e.target.checked ? true : undefined })}
            >
              {t('filters.withProblems')}
            </Checkbox>
            <Checkbox
              checked={params.overdue === true}
              onChange={(e) => setFilter({ overdue: e.target.checked ? true : undefined })}
            >
              {t('filters.overdue')}
            </Checkbox>
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
          <Button type="primary" icon={<PlusOutlined />} data-testid="inspection-add" onClick={() => setEditing(null)}>
            {t('supervise.add')}
          </Button>
        }
      />
      <InspectionDrawer
        open={editing !== undefined}
        record={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={(added) => {
          void msg.success(t(added ? 'common.added' : 'common.saved'));
          setEditing(undefined);
          void refresh();
        }}
      />
      <Modal
        open={rectifying !== null}
        title={
          rectifying
            ? t('supervise.rectifyTitle', { site: rectifying.platformName, date: rectifying.inspectionDate })
            : ''
        }
        okText={t('supervise.rectify')}
        cancelText={t('common.cancel')}
        okButtonProps={{ loading: rectify.isPending, 'data-testid': 'inspection-rectify-save' }}
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
            rectify.mutate({ id: rectifying.id, completedDate: toDay(v.completedDate) ?? '', result: v.result })
          }
        >
          <Form.Item
            name="completedDate"
            label={t('fields.completedDate')}
            rules={[{ required: true, message: t('validation.completedDateRequired') }]}
          >
            <DatePicker
              style={{ width: '100%' }}
              format={DAY}
              disabledDate={(d) =>
                dateOf(d) > todayDate(zone) || (rectifying ? dateOf(d) < rectifying.inspectionDate : false)
              }
            />
          </Form.Item>
          <Form.Item name="result" label={t('fields.result')}>
            <Input.TextArea maxLength={4000} autoSize={{ minRows: 2, maxRows: 5 }} />
          </Form.Item>
        </Form>
      </Modal>
    </ListPage>
  );
}
