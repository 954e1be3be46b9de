import { useEffect, useMemo } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dateOf, pickerValue, todayDate } from '../../shared/time.ts';
import { useTimeZone } from '../../shared/useTimeZone.ts';
import dayjs, { type Dayjs } from 'dayjs';
import {
  Button,
  Card,
  Col,
  DatePicker,
  Drawer,
  Flex,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Typography,
} from 'antd';
import {
  TS_ITEMS,
  TS_MAX_ATTACHMENTS,
  TS_PROBLEM_TYPES,
  type TsAttachment,
  type TsItem,
  type TsProblemType,
  type TsRecord,
  type TsState,
} from '@geosentry/contract';
import { UploadField, type KnownFile } from '../files/index.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import {
  addTsRecord,
  editTsRecord,
  fetchTsPersons,
  fetchTsSites,
  tsKeys,
  type TsFormValues,
} from './tsManagementApi.ts';

/** What the form holds: dates as dayjs values for the pickers. */
interface FormShape extends Omit<TsFormValues, 'inspectionDate' | 'deadline' | 'completedDate'> {
  inspectionDate?: Dayjs | null;
  deadline?: Dayjs | null;
  completedDate?: Dayjs | null;
}

export interface TsRecordDrawerProps {
  open: boolean;
  /** The record to edit, or null to add one. */
  record: TsRecord | null;
  onClose: () => void;
  onSaved: (added: boolean) => void;
}

const DAY = 'YYYY-MM-DD';
const toDay = (d: Dayjs | null | undefined): string | undefined => (d ? d.format(DAY) : undefined);
const fromDay = (s: string | null | undefined): Dayjs | undefined => (s ? dayjs(s, DAY) : undefined);
const okItems = () => Object.fromEntries(TS_ITEMS.map((k) => [k, { result: 'ok' }])) as FormShape['items'];
const knownFiles = (list: TsAttachment[] | undefined): KnownFile[] | undefined =>
  list?.map((a) => ({ file_id: a.file_id, name: a.name ?? undefined, mime: a.mime ?? undefined }));

/**
 * Adds or edits a tailings supervision record, in the order of the spec's record: the pond (its name, and
 * read-only its affiliated enterprise and pond status, which are the site's), the inspection and the people
 * (inspector, responsible person chosen from the site's responsible persons, regulatory person), each
 * inspected item (ok or a problem with its description), the problem type, rectification content, deadline
 * and up to 3 documents, then the completion: status, time, result and up to 3 result documents. The rules
 * are the server's: an item with a problem needs a description and a problem type; a problem needs the
 * rectification content and a deadline; the deadline and completion follow the inspection; nothing is dated
 * in the future; completed needs its date.
 */
export function TsRecordDrawer({ open, record, onClose, onSaved }: TsRecordDrawerProps) {
  const { t } = useTranslation('tsManagement');
  const { zone } = useTimeZone();
  const [form] = Form.useForm<FormShape>();
  const isEdit = record !== null;
  const platformId = Form.useWatch('platformId', form);
  const state = Form.useWatch('state', form) as TsState | undefined;
  const items = Form.useWatch('items', form) as FormShape['items'] | undefined;
  const problemType = Form.useWatch('problemType', form) as TsProblemType | null | undefined;
  const itemProblem = useMemo(() => TS_ITEMS.some((k) => items?.[k]?.result === 'problem'), [items]);
  const hasProblem = itemProblem || !!problemType;

  const sites = useQuery({
    queryKey: tsKeys.sites,
    queryFn: fetchTsSites,
    enabled: open,
    staleTime: 30_000,
    retry: retryUnlessCancelled,
  });
  const persons = useQuery({
    queryKey: tsKeys.persons(platformId),
    queryFn: () => fetchTsPersons(platformId),
    enabled: open && platformId !== undefined,
    staleTime: 30_000,
    retry: retryUnlessCancelled,
  });
  const site = sites.data?.find((s) => s.platformId === platformId);
  const personOptions = (persons.data ?? []).map((p) => ({
    value: p.id,
    label: p.title ? `${p.name} (${p.title})` : p.name,
  }));
  // The stored person stays choosable even when no longer bound to the site.
  if (record?.responsiblePersonId && !personOptions.some((o) => o.value === record.responsiblePersonId))
    personOptions.push({ value: record.responsiblePersonId, label: record.responsiblePerson ?? '' });

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (record) {
      form.setFieldsValue({
        platformId: record.platformId,
        inspectionDate: fromDay(record.inspectionDate),
        inspector: record.inspector,
        problemType: record.problemType,
        responsiblePersonId: record.responsiblePersonId,
        regulatoryPerson: record.regulatoryPerson ?? undefined,
        items: Object.fromEntries(
          TS_ITEMS.map((k) => [k, { result: record.items[k]?.result ?? 'ok', note: record.items[k]?.note }]),
        ) as FormShape['items'],
        dryBeachLength: record.dryBeachLength,
        findings: record.findings ?? undefined,
        requirement: record.requirement ?? undefined,
        deadline: fromDay(record.deadline),
        state: record.state,
        completedDate: fromDay(record.completedDate),
        result: record.result ?? undefined,
        attachments: record.attachments.map((a) => a.file_id),
        resultAttachments: record.resultAttachments.map((a) => a.file_id),
      });
    } else {
      form.setFieldsValue({
        items: okItems(),
        state: 'incomplete',
        attachments: [],
        resultAttachments: [],
        inspectionDate: pickerValue(todayDate(zone)),
      });
    }
  }, [open, record, form, zone]);

  const save = useMutation({
    mutationFn: (v: TsFormValues) => (record ? editTsRecord(record.id, v) : addTsRecord(v)),
    onSuccess: () => onSaved(!isEdit),
  });

  const submit = (v: FormShape) =>
    save.mutate({
      ...v,
      inspectionDate: toDay(v.inspectionDate) ?? '',
      deadline: toDay(v.deadline),
      completedDate: toDay(v.completedDate),
      attachments: v.attachments ?? [],
      resultAttachments: v.resultAttachments ?? [],
    });

  // "Today" is the user's zone's (issue 14), whatever the browser's zone.
  const future = (d: Dayjs) => dateOf(d) > todayDate(zone);
  const beforeInspection = (d: Dayjs) => {
    const i = form.getFieldValue('inspectionDate') as Dayjs | undefined;
    return i ? d.isBefore(i, 'day') : false;
  };
  const afterInspection = (message: string) => ({
    validator: (_r: unknown, v: Dayjs | null | undefined) =>
      !v || !beforeInspection(v) ? Promise.resolve() : Promise.reject(new Error(message)),
  });
  const afterSite = platformId === undefined ? t('form.attachmentsAfterSite') : undefined;
  const section = { size: 'small' as const, style: { marginBottom: 16 } };

  return (
    <Drawer
      open={open}
      size={860}
      title={
        isEdit ? t('form.editTitle', { site: record.platformName, date: record.inspectionDate }) : t('form.addTitle')
      }
      onClose={onClose}
      destroyOnHidden
      mask={{ closable: !save.isPending }}
      extra={
        <Flex gap={8}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={save.isPending} data-testid="ts-save" onClick={() => form.submit()}>
            {t('common.save')}
          </Button>
        </Flex>
      }
    >
      <Form<FormShape> form={form} layout="vertical" onFinish={submit} data-testid="ts-form" scrollToFirstError>
        <Card {...section} title={t('form.pondTitle')} data-testid="ts-section-pond">
          <Row gutter={16}>
            <Col xs={24} md={10}>
              <Form.Item
                name="platformId"
                label={t('fields.site')}
                style={{ marginBottom: 0 }}
                rules={[{ required: true, message: t('validation.siteRequired') }]}
              >
                <Select<number>
                  id="ts-platformId"
                  showSearch={{ optionFilterProp: 'label' }}
                  placeholder={t('form.sitePlaceholder')}
                  loading={sites.isFetching}
                  options={(sites.data ?? []).map((s) => ({ value: s.platformId, label: s.name, title: s.name }))}
                  notFoundContent={sites.isFetching ? undefined : t('form.noSites')}
                  onChange={() => form.setFieldValue('responsiblePersonId', undefined)}
                  disabled={isEdit}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item label={t('fields.enterprise')} tooltip={t('form.fromSite')} style={{ marginBottom: 0 }}>
                <Input
                  id="ts-enterprise"
                  readOnly
                  variant="filled"
                  value={(site?.enterpriseName ?? record?.enterpriseName) || '-'}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={6}>
              <Form.Item label={t('fields.pondStatus')} tooltip={t('form.fromSite')} style={{ marginBottom: 0 }}>
                <Input
                  id="ts-pondStatus"
                  readOnly
                  variant="filled"
                  value={
                    (site?.pondStatus ?? record?.pondStatus)
                      ? t(`pondStatuses.${site?.pondStatus ?? record?.pondStatus}`)
                      : '-'
                  }
                />
              </Form.Item>
            </Col>
          </Row>
        </Card>

        <Card {...section} title={t('form.inspectionTitle')}>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item
                name="inspectionDate"
                label={t('fields.inspectionDate')}
                rules={[{ required: true, message: t('validation.inspectionDateRequired') }]}
              >
                <DatePicker id="ts-inspectionDate" style={{ width: '100%' }} disabledDate={future} format={DAY} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="inspector"
                label={t('fields.inspector')}
                rules={[{ required: true, whitespace: true, message: t('validation.inspectorRequired') }]}
              >
                <Input id="ts-inspector" maxLength={100} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="responsiblePersonId" label={t('fields.responsiblePerson')}>
                <Select<number>
                  id="ts-responsiblePersonId"
                  allowClear
                  showSearch={{ optionFilterProp: 'label' }}
                  placeholder={platformId === undefined ? t('form.personAfterSite') : t('form.personPlaceholder')}
                  loading={persons.isFetching}
                  disabled={platformId === undefined}
                  options={personOptions}
                  notFoundContent={persons.isFetching ? undefined : t('form.noPersons')}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="regulatoryPerson" label={t('fields.regulatoryPerson')}>
                <Input id="ts-regulatoryPerson" maxLength={100} />
              </Form.Item>
            </Col>
          </Row>
        </Card>

        <Card {...section} title={t('form.itemsTitle')} data-testid="ts-items">
          {TS_ITEMS.map((k: TsItem) => {
            const problem = items?.[k]?.result === 'problem';
            return (
              <Row key={k} gutter={12} align="top" data-testid={`ts-item-${k}`}>
                <Col xs={24} md={7} style={{ paddingTop: 5 }}>
                  <Typography.Text strong>{t(`items.${k}`)}</Typography.Text>
                </Col>
                <Col xs={24} md={7}>
                  <Form.Item name={['items', k, 'result']} style={{ marginBottom: 12 }}>
                    <Radio.Group
                      optionType="button"
                      buttonStyle="solid"
                      size="small"
                      data-testid={`ts-item-${k}-result`}
                      options={[
                        { value: 'ok', label: t('results.ok') },
                        { value: 'problem', label: t('results.problem') },
                      ]}
                    />
                  </Form.Item>
                </Col>
                {k === 'dryBeachLength' ? (
                  <Col xs={24} md={4}>
                    <Form.Item name="dryBeachLength" style={{ marginBottom: 12 }}>
                      <InputNumber<number>
                        id="ts-dryBeachLength"
                        size="small"
                        style={{ width: '100%' }}
                        min={0}
                        max={100000}
                        placeholder={t('form.measured')}
                        suffix={t('units.m')}
                      />
                    </Form.Item>
                  </Col>
                ) : null}
                <Col xs={24} md={k === 'dryBeachLength' ? 6 : 10}>
                  <Form.Item
                    name={['items', k, 'note']}
                    style={{ marginBottom: 12 }}
                    rules={[{ required: problem, whitespace: true, message: t('validation.itemNoteRequired') }]}
                  >
                    <Input
                      id={`ts-item-${k}-note`}
                      size="small"
                      maxLength={500}
                      placeholder={problem ? t('form.problemNote') : t('form.okNote')}
                    />
                  </Form.Item>
                </Col>
              </Row>
            );
          })}
          <Form.Item name="findings" label={t('fields.findings')} style={{ marginBottom: 0 }}>
            <Input.TextArea id="ts-findings" maxLength={4000} autoSize={{ minRows: 2, maxRows: 6 }} />
          </Form.Item>
        </Card>

        <Card {...section} title={t('form.problemTitle')} data-testid="ts-section-problem">
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item
                name="problemType"
                label={t('fields.problemType')}
                rules={[{ required: itemProblem, message: t('validation.problemTypeRequired') }]}
              >
                <Select<TsProblemType>
                  id="ts-problemType"
                  allowClear
                  placeholder={t('form.problemTypePlaceholder')}
                  options={TS_PROBLEM_TYPES.map((p) => ({ value: p, label: t(`problemTypes.${p}`) }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="deadline"
                label={t('fields.deadline')}
                dependencies={['inspectionDate']}
                rules={[
                  { required: hasProblem, message: t('validation.deadlineRequired') },
                  afterInspection(t('validation.deadlineBeforeInspection')),
                ]}
              >
                <DatePicker id="ts-deadline" style={{ width: '100%' }} disabledDate={beforeInspection} format={DAY} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item
            name="requirement"
            label={t('fields.requirement')}
            rules={[{ required: hasProblem, whitespace: true, message: t('validation.requirementRequired') }]}
          >
            <Input.TextArea id="ts-requirement" maxLength={4000} autoSize={{ minRows: 2, maxRows: 6 }} />
          </Form.Item>
          <Form.Item name="attachments" label={t('fields.attachments')} extra={afterSite} style={{ marginBottom: 0 }}>
            <UploadField
              id="ts-attachments"
              kind="attachment"
              max={TS_MAX_ATTACHMENTS}
              platformId={platformId}
              known={knownFiles(record?.attachments)}
              disabled={platformId === undefined}
            />
          </Form.Item>
        </Card>

        <Card {...section} title={t('form.completionTitle')} data-testid="ts-section-completion">
          <Row gutter={16}>
            <Col xs={24} md={10}>
              <Form.Item name="state" label={t('fields.state')}>
                <Radio.Group
                  data-testid="ts-state"
                  options={[
                    { value: 'incomplete', label: t('states.incomplete') },
                    { value: 'completed', label: t('states.completed') },
                  ]}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={14}>
              <Form.Item
                name="completedDate"
                label={t('fields.completedDate')}
                dependencies={['inspectionDate', 'state']}
                rules={[
                  { required: state === 'completed', message: t('validation.completedDateRequired') },
                  afterInspection(t('validation.completedBeforeInspection')),
                ]}
              >
                <DatePicker
                  id="ts-completedDate"
                  style={{ width: '100%' }}
                  disabled={state !== 'completed'}
                  disabledDate={(d) => future(d) || beforeInspection(d)}
                  format={DAY}
                />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="result" label={t('fields.result')}>
            <Input.TextArea id="ts-result" maxLength={4000} autoSize={{ minRows: 2, maxRows: 5 }} />
          </Form.Item>
          <Form.Item
            name="resultAttachments"
            label={t('fields.resultAttachments')}
            extra={afterSite}
            style={{ marginBottom: 0 }}
          >
            <UploadField
              id="ts-resultAttachments"
              kind="attachment"
              max={TS_MAX_ATTACHMENTS}
              platformId={platformId}
              known={knownFiles(record?.resultAttachments)}
              disabled={platformId === undefined}
            />
          </Form.Item>
        </Card>
      </Form>
    </Drawer>
  );
}
