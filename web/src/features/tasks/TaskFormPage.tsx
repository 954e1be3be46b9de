import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Button, Card, Col, DatePicker, Form, Input, InputNumber, Row, Select, Space, message } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { FormOutlined } from '@ant-design/icons';
import { TASK_MAX_FILES, TASK_PRIORITIES, TASK_TYPES, type TaskPriority, type TaskType } from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useSiteOptions } from '../../shared/sites.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { UploadField } from '../files/index.ts';
import {
  createTask,
  editTask,
  fetchAlertDraft,
  fetchTask,
  fetchTaskUsers,
  taskKeys,
  taskPaths,
  type TaskFormValues,
} from './tasksApi.ts';

interface FormShape {
  name?: string;
  type?: TaskType;
  project?: string;
  area?: string;
  constructionPoint?: string;
  platformId?: number;
  priority?: TaskPriority;
  assigneeId?: number;
  reviewerId?: number;
  documents?: string[];
  planHours?: number | null;
  period?: [Dayjs, Dayjs];
  description?: string;
  acceptance?: string;
}

/** Create task (hidden screen): empty, prefilled from an alert (?alertId=), or editing a task (?id=). */
export default function TaskFormPage() {
  const { t } = useTranslation('tasks');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [msg, holder] = message.useMessage();
  const [form] = Form.useForm<FormShape>();
  const editId = Number(search.get('id')) || undefined;
  const alertId = Number(search.get('alertId')) || undefined;
  const { sites } = useSiteOptions();
  const platformId = Form.useWatch('platformId', form);

  const draft = useQuery({
    queryKey: taskKeys.alertDraft(alertId ?? 0),
    queryFn: () => fetchAlertDraft(alertId!),
    enabled: alertId !== undefined && editId === undefined,
    retry: retryUnlessCancelled,
  });
  const stored = useQuery({
    queryKey: taskKeys.detail(editId ?? 0),
    queryFn: () => fetchTask(editId!),
    enabled: editId !== undefined,
    retry: retryUnlessCancelled,
  });
  const users = useQuery({
    queryKey: taskKeys.users(platformId),
    queryFn: () => fetchTaskUsers(platformId!),
    enabled: platformId !== undefined,
    staleTime: 30_000,
    retry: retryUnlessCancelled,
  });

  useEffect(() => {
    const d = draft.data;
    if (!d) return;
    form.setFieldsValue({
      name: d.name,
      type: d.type,
      platformId: d.platformId,
      priority: d.priority,
      period: [dayjs(d.startTime), dayjs(d.endTime)],
      description: d.description,
    });
  }, [draft.data, form]);
  useEffect(() => {
    const s = stored.data;
    if (!s) return;
    form.setFieldsValue({
      name: s.name,
      type: s.type ?? undefined,
      project: s.project,
      area: s.area ?? undefined,
      constructionPoint: s.constructionPoint,
      platformId: s.platformId,
      priority: s.priority,
      assigneeId: s.assigneeId,
      reviewerId: s.reviewerId,
      documents: s.documents.map((f) => f.file_id),
      planHours: s.planHours,
      period: [dayjs(s.startTime), dayjs(s.endTime)],
      description: s.description,
      acceptance: s.acceptance ?? undefined,
    });
  }, [stored.data, form]);

  const save = useMutation({
    mutationFn: (v: TaskFormValues) => (editId ? editTask(editId, v).then(() => ({ id: editId })) : createTask(v)),
    onSuccess: (r) => {
      void msg.success(t(editId ? 'messages.saved' : 'messages.created'));
      void queryClient.invalidateQueries({ queryKey: taskKeys.all });
      void navigate(taskPaths.detail(r.id, 'assigned'));
    },
  });

  const fromAlert = editId === undefined && alertId !== undefined;
  const required = (key: string) => [{ required: true, message: t(`validation.${key}`) }];
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      {holder}
      <PageHeaderCard
        icon={<FormOutlined />}
        title={editId ? t('screens.edit') : t('screens.create')}
        description={t('descriptions.create')}
      />
      <Card>
        {fromAlert && draft.data ? (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="task-from-alert"
            message={t('form.fromAlert', {
              id: draft.data.alertId,
              site: draft.data.platformName,
              device: draft.data.deviceName,
              level: draft.data.level,
            })}
          />
        ) : null}
        <Form<FormShape>
          form={form}
          layout="vertical"
          initialValues={{ documents: [] }}
          onFinish={(v) =>
            save.mutate({
              ...v,
              deviceId: fromAlert ? draft.data?.deviceId : (stored.data?.deviceId ?? undefined),
              startTime: v.period?.[0]?.toISOString(),
              endTime: v.period?.[1]?.toISOString(),
              alertId: fromAlert ? alertId : undefined,
            } as TaskFormValues)
          }
        >
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item name="name" label={t('fields.name')} rules={required('name')}>
                <Input id="task-name" maxLength={100} />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="type" label={t('fields.type')}>
                <Select
                  id="task-type"
                  allowClear
                  options={TASK_TYPES.map((v) => ({ value: v, label: t(`types.${v}`) }))}
                />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="priority" label={t('fields.priority')} rules={required('priority')}>
                <Select
                  id="task-priority"
                  options={TASK_PRIORITIES.map((v) => ({ value: v, label: t(`priorities.${v}`) }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="project" label={t('fields.project')} rules={required('project')}>
                <Input id="task-project" maxLength={100} />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="area" label={t('fields.area')}>
                <Input id="task-area" maxLength={100} />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item
                name="constructionPoint"
                label={t('fields.constructionPoint')}
                rules={required('constructionPoint')}
              >
                <Input id="task-constructionPoint" maxLength={100} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="platformId" label={t('fields.site')} rules={required('site')}>
                <Select<number>
                  id="task-site"
                  disabled={fromAlert || stored.data?.alertId != null}
                  showSearch={{ optionFilterProp: 'label' }}
                  options={sites.map((s) => ({ value: s.platformId, label: s.name }))}
                  onChange={() => form.setFieldsValue({ assigneeId: undefined, reviewerId: undefined })}
                />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="assigneeId" label={t('fields.assignee')} rules={required('assignee')}>
                <Select<number>
                  id="task-assignee"
                  showSearch={{ optionFilterProp: 'label' }}
                  loading={users.isFetching}
                  options={(users.data ?? []).map((u) => ({ value: u.id, label: `${u.name} (${u.account})` }))}
                />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item name="reviewerId" label={t('fields.reviewer')} rules={required('reviewer')}>
                <Select<number>
                  id="task-reviewer"
                  showSearch={{ optionFilterProp: 'label' }}
                  loading={users.isFetching}
                  options={(users.data ?? []).map((u) => ({ value: u.id, label: `${u.name} (${u.account})` }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="period" label={t('fields.period')} rules={required('period')}>
                <DatePicker.RangePicker
                  id="task-period"
                  showTime={{ format: 'HH:mm' }}
                  format="YYYY-MM-DD HH:mm"
                  style={{ width: '100%' }}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="planHours" label={t('fields.planHours')}>
                <InputNumber id="task-planHours" min={0} max={100000} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="description" label={t('fields.description')} rules={required('description')}>
                <Input.TextArea id="task-description" maxLength={4000} autoSize={{ minRows: 3, maxRows: 8 }} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="acceptance" label={t('fields.acceptance')}>
                <Input.TextArea id="task-acceptance" maxLength={4000} autoSize={{ minRows: 2, maxRows: 6 }} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="documents" label={t('fields.documents')}>
                <UploadField
                  id="task-documents"
                  kind="attachment"
                  max={TASK_MAX_FILES}
                  platformId={platformId}
                  known={stored.data?.documents.map((f) => ({
                    file_id: f.file_id,
                    name: f.name ?? undefined,
                    mime: f.mime ?? undefined,
                  }))}
                />
              </Form.Item>
            </Col>
          </Row>
          <Space>
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="task-save">
              {editId ? t('actions.save') : t('actions.publish')}
            </Button>
            <Button onClick={() => void navigate(-1)}>{t('actions.cancel')}</Button>
          </Space>
        </Form>
      </Card>
    </Space>
  );
}
