import { useEffect, useMemo } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
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
import { TS_ITEMS, TS_MAX_ATTACHMENTS, type TsItem, type TsRecord, type TsState } from '@geosentry/contract';
import { UploadField } from '../files/index.ts';
import { retryUnlessCancelled } from '../monitorTypes/shared/query.ts';
import { addTsRecord, editTsRecord, fetchTsSites, tsKeys, type TsFormValues } from './tsManagementApi.ts';

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

/**
 * Adds or edits a tailings supervision record: the site and inspection, each inspected item (ok or a problem
 * with its description), findings, the rectification required and by when, its state, and up to 3
 * attachments. The rules are the server's: a problem needs a description, a requirement and a deadline; the
 * deadline and completion follow the inspection; nothing is dated in the future; completed needs its date.
 */
export function TsRecordDrawer({ open, record, onClose, onSaved }: TsRecordDrawerProps) {
  const { t } = useTranslation('tsManagement');
  const [form] = Form.useForm<FormShape>();
  const isEdit = record !== null;
  const platformId = Form.useWatch('platformId', form);
  const state = Form.useWatch('state', form) as TsState | undefined;
  const items = Form.useWatch('items', form) as FormShape['items'] | undefined;
  const hasProblem = useMemo(() => TS_ITEMS.some((k) => items?.[k]?.result === 'problem'), [items]);

  const sites = useQuery({
    queryKey: tsKeys.sites,
    queryFn: fetchTsSites,
    enabled: open,
    staleTime: 30_000,
    retry: retryUnlessCancelled,
  });

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (record) {
      form.setFieldsValue({
        platformId: record.platformId,
        inspectionDate: fromDay(record.inspectionDate),
        inspector: record.inspector,
        responsiblePerson: record.responsiblePerson ?? undefined,
        items: Object.fromEntries(
          TS_ITEMS.map((k) => [k, { result: record.items[k]?.result ?? 'ok', note: record.items[k]?.note }]),
        ) as FormShape['items'],
        dryBeachLength: record.dryBeachLength,
        findings: record.findings ?? undefined,
        requirement: record.requirement ?? undefined,
        deadline: fromDay(record.deadline),
        state: record.state,
        completedDate: fromDay(record.completedDate),
        completionNote: record.completionNote ?? undefined,
        attachments: record.attachments.map((a) => a.file_id),
      });
    } else {
      form.setFieldsValue({ items: okItems(), state: 'incomplete', attachments: [], inspectionDate: dayjs() });
    }
  }, [open, record, form]);

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
    });

  const future = (d: Dayjs) => d.isAfter(dayjs(), 'day');
  const beforeInspection = (d: Dayjs) => {
    const i = form.getFieldValue('inspectionDate') as Dayjs | undefined;
    return i ? d.isBefore(i, 'day') : false;
  };
  const afterInspection = (message: string) => ({
    validator: (_r: unknown, v: Dayjs | null | undefined) =>
      !v || !beforeInspection(v) ? Promise.resolve() : Promise.reject(new Error(message)),
  });
  const known = record?.attachments.map((a) => ({
    file_id: a.file_id,
    name: a.name ?? undefined,
    mime: a.mime ?? undefined,
  }));

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
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="platformId"
              label={t('fields.site')}
              rules={[{ required: true, message: t('validation.siteRequired') }]}
            >
              <Select<number>
                id="ts-platformId"
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={t('form.sitePlaceholder')}
                loading={sites.isFetching}
                options={(sites.data ?? []).map((s) => ({
                  value: s.platformId,
                  label: s.name,
                  title: s.name,
                }))}
                notFoundContent={sites.isFetching ? undefined : t('form.noSites')}
                disabled={isEdit}
              />
            </Form.Item>
          </Col>
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
            <Form.Item name="responsiblePerson" label={t('fields.responsiblePerson')}>
              <Input id="ts-responsiblePerson" maxLength={100} />
            </Form.Item>
          </Col>
        </Row>

        <Card size="small" title={t('form.itemsTitle')} style={{ marginBottom: 16 }} data-testid="ts-items">
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
        </Card>

        <Form.Item name="findings" label={t('fields.findings')}>
          <Input.TextArea id="ts-findings" maxLength={4000} autoSize={{ minRows: 2, maxRows: 6 }} />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} md={16}>
            <Form.Item
              name="requirement"
              label={t('fields.requirement')}
              rules={[{ required: hasProblem, whitespace: true, message: t('validation.requirementRequired') }]}
            >
              <Input.TextArea id="ts-requirement" maxLength={4000} autoSize={{ minRows: 2, maxRows: 6 }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
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

        <Card size="small" title={t('form.rectificationTitle')} style={{ marginBottom: 16 }}>
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
          <Form.Item name="completionNote" label={t('fields.completionNote')} style={{ marginBottom: 0 }}>
            <Input.TextArea id="ts-completionNote" maxLength={4000} autoSize={{ minRows: 2, maxRows: 5 }} />
          </Form.Item>
        </Card>

        <Form.Item
          name="attachments"
          label={t('fields.attachments')}
          extra={platformId === undefined ? t('form.attachmentsAfterSite') : undefined}
        >
          <UploadField
            id="ts-attachments"
            kind="attachment"
            max={TS_MAX_ATTACHMENTS}
            platformId={platformId}
            known={known}
            disabled={platformId === undefined}
          />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
