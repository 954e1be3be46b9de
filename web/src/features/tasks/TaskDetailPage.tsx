import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import {
  Button,
  Card,
  DatePicker,
  Descriptions,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Select,
  Space,
  Timeline,
  Typography,
  message,
} from 'antd';
import { FileSearchOutlined, PaperClipOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import {
  TASK_GRADES,
  TASK_LATE_REPORT_DAYS,
  TASK_MAX_FILES,
  type TaskFile,
  type TaskGrade,
  type TaskReviewResult,
} from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { formatInZone, formatTime, pickerValue } from '../../shared/time.ts';
import { UploadField, fileHref } from '../files/index.ts';
import {
  addProgress,
  fetchProgress,
  fetchTask,
  reviewTask,
  startTask,
  submitTask,
  taskKeys,
  taskPaths,
} from './tasksApi.ts';
import { PriorityTag, RateCell, RemainingCell, StatusTag } from './TaskParts.tsx';

export function Files({ files }: { files: TaskFile[] }) {
  if (!files.length) return <>-</>;
  return (
    <Flex gap={8} wrap>
      {files.map((f) => (
        <Typography.Link key={f.file_id} href={fileHref(f.file_id, true)} download={f.name ?? f.file_id}>
          <PaperClipOutlined /> {f.name ?? f.file_id}
        </Typography.Link>
      ))}
    </Flex>
  );
}

const DAY = 'YYYY-MM-DD';
/** Today in the user's zone (yyyy-MM-dd). */
const today = (): string => formatInZone(Date.now(), undefined, DAY);

/**
 * The days a progress report may be for (TASK_LATE_REPORT_DAYS in the contract): from the planned start day, at most
 * that many days back, to today; the server checks the same.
 */
const reportDays = (startTime: string): [string, string] => {
  const back = new Date(Date.now() - TASK_LATE_REPORT_DAYS * 86_400_000).toISOString().slice(0, 10);
  const planned = startTime.slice(0, 10);
  return [planned > back ? planned : back, today()];
};

/** Task detail (basicinfo; basicinfo1 from assigned tasks, basicinfo2 from review): the task, its story, actions. */
export default function TaskDetailPage() {
  const { t } = useTranslation('tasks');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const id = Number(search.get('id')) || 0;
  const queryClient = useQueryClient();
  const [msg, holder] = message.useMessage();
  const [reporting, setReporting] = useState(false);
  const [reviewing, setReviewing] = useState(false);
  const [progressForm] = Form.useForm<{
    day: Dayjs;
    text: string;
    completionRate: number;
    photos: string[];
    lat?: number;
    lon?: number;
  }>();
  const [reviewForm] = Form.useForm<{ result: TaskReviewResult; grade?: TaskGrade; note?: string }>();
  const task = useQuery({
    queryKey: taskKeys.detail(id),
    queryFn: () => fetchTask(id),
    enabled: id > 0,
    retry: retryUnlessCancelled,
  });
  const history = useQuery({
    queryKey: taskKeys.progress({ id, pageNum: 1, pageSize: 100 }),
    queryFn: () => fetchProgress({ id, pageNum: 1, pageSize: 100 }),
    enabled: id > 0,
    retry: retryUnlessCancelled,
  });
  const done = (key: string) => {
    void msg.success(t(key));
    void queryClient.invalidateQueries({ queryKey: taskKeys.all });
  };
  const start = useMutation({ mutationFn: () => startTask(id), onSuccess: () => done('messages.started') });
  const submit = useMutation({ mutationFn: () => submitTask(id), onSuccess: () => done('messages.submitted') });
  const report = useMutation({
    mutationFn: ({
      day,
      ...v
    }: {
      day?: Dayjs;
      text: string;
      completionRate: number;
      photos?: string[];
      lat?: number;
      lon?: number;
    }) => addProgress({ id, ...v, day: day?.format(DAY), photos: v.photos ?? [] }),
    onSuccess: () => {
      setReporting(false);
      done('messages.reported');
    },
  });
  const review = useMutation({
    mutationFn: (v: { result: TaskReviewResult; grade?: TaskGrade; note?: string }) => reviewTask({ id, ...v }),
    onSuccess: () => {
      setReviewing(false);
      done('messages.reviewed');
    },
  });
  const result = Form.useWatch('result', reviewForm);
  const d = task.data;
  if (!d) return <Card loading={task.isLoading}>{task.isError ? <Empty /> : null}</Card>;

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      {holder}
      <PageHeaderCard
        icon={<FileSearchOutlined />}
        title={d.name}
        description={`${d.platformName} · ${d.project} · ${d.constructionPoint}`}
        extra={
          <Space wrap>
            {d.can.edit ? (
              <Button data-testid="task-edit" onClick={() => void navigate(taskPaths.edit(d.id))}>
                {t('actions.edit')}
              </Button>
            ) : null}
            {d.can.start ? (
              <Button type="primary" data-testid="task-start" loading={start.isPending} onClick={() => start.mutate()}>
                {t('actions.start')}
              </Button>
            ) : null}
            {d.can.report ? (
              <Button
                data-testid="task-report"
                onClick={() => {
                  progressForm.resetFields();
                  progressForm.setFieldsValue({
                    day: pickerValue(today()),
                    completionRate: Math.max(1, d.completionRate),
                    photos: [],
                  });
                  setReporting(true);
                }}
              >
                {t('actions.report')}
              </Button>
            ) : null}
            {d.can.submit ? (
              <Button
                type="primary"
                data-testid="task-submit"
                loading={submit.isPending}
                onClick={() => submit.mutate()}
              >
                {t('actions.submit')}
              </Button>
            ) : null}
            {d.can.review ? (
              <Button
                type="primary"
                data-testid="task-review"
                onClick={() => {
                  reviewForm.resetFields();
                  setReviewing(true);
                }}
              >
                {t('actions.review')}
              </Button>
            ) : null}
          </Space>
        }
      />
      <Card title={t('detail.basic')}>
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, md: 2, xl: 3 }}
          data-testid="task-detail"
          items={[
            { key: 'status', label: t('fields.status'), children: <StatusTag status={d.status} /> },
            { key: 'priority', label: t('fields.priority'), children: <PriorityTag priority={d.priority} /> },
            { key: 'type', label: t('fields.type'), children: d.type ? t(`types.${d.type}`) : '-' },
            {
              key: 'rate',
              label: t('fields.completionRate'),
              children: <RateCell rate={d.completionRate} deviation={d.deviationRate} />,
            },
            { key: 'remaining', label: t('fields.remainingDays'), children: <RemainingCell days={d.remainingDays} /> },
            { key: 'plan', label: t('fields.planHours'), children: d.planHours ?? '-' },
            { key: 'start', label: t('fields.startTime'), children: formatTime(d.startTime) },
            { key: 'end', label: t('fields.endTime'), children: formatTime(d.endTime) },
            { key: 'area', label: t('fields.area'), children: d.area ?? '-' },
            { key: 'assignee', label: t('fields.assignee'), children: d.assignee },
            { key: 'publisher', label: t('fields.publisher'), children: d.publisher },
            { key: 'reviewer', label: t('fields.reviewer'), children: d.reviewer },
            { key: 'device', label: t('fields.device'), children: d.deviceName ?? '-' },
            { key: 'alert', label: t('fields.alert'), children: d.alertId ? `#${d.alertId}` : '-' },
            { key: 'grade', label: t('fields.grade'), children: d.grade ? t(`grades.${d.grade}`) : '-' },
            { key: 'description', label: t('fields.description'), span: 'filled', children: d.description },
            { key: 'acceptance', label: t('fields.acceptance'), span: 'filled', children: d.acceptance ?? '-' },
            { key: 'documents', label: t('fields.documents'), span: 'filled', children: <Files files={d.documents} /> },
          ]}
        />
      </Card>
      <Card title={t('detail.story')}>
        <Timeline
          data-testid="task-story"
          items={[
            { children: `${formatTime(d.createdAt)} · ${t('story.published', { name: d.publisher })}` },
            ...(d.startedAt ? [{ color: 'blue', children: `${formatTime(d.startedAt)} · ${t('story.started')}` }] : []),
            // Progress and reviews in the order they happened (a failed review before the reports that followed it).
            ...[
              ...[...(history.data?.list ?? [])].reverse().map((e) => ({
                at: e.createdAt,
                color: 'green',
                children: (
                  <div data-testid="task-progress-entry">
                    <Typography.Text strong>
                      {e.day} · {e.completionRate}%
                    </Typography.Text>{' '}
                    <Typography.Text>{e.text}</Typography.Text>
                    {e.lat !== null && e.lon !== null ? (
                      <Typography.Text type="secondary">
                        {' '}
                        ({e.lat.toFixed(5)}, {e.lon.toFixed(5)})
                      </Typography.Text>
                    ) : null}
                    {e.photos.length ? <Files files={e.photos} /> : null}
                  </div>
                ),
              })),
              ...d.reviews.map((r) => ({
                at: r.at,
                color: r.result === 'pass' ? 'green' : 'red',
                children: (
                  <span data-testid="task-review-entry">
                    {formatTime(r.at)} · {t(`reviewResults.${r.result}`)} ({r.reviewer})
                    {r.grade ? ` · ${t(`grades.${r.grade}`)}` : ''}
                    {r.note ? ` · ${r.note}` : ''}
                  </span>
                ),
              })),
            ]
              .sort((x, y) => Date.parse(x.at) - Date.parse(y.at))
              .map(({ at: _at, ...item }) => item),
          ]}
        />
      </Card>
      <Modal
        open={reporting}
        title={t('actions.report')}
        okText={t('actions.save')}
        cancelText={t('actions.cancel')}
        okButtonProps={{ loading: report.isPending, 'data-testid': 'task-report-save' }}
        onOk={() => progressForm.submit()}
        onCancel={() => setReporting(false)}
        destroyOnHidden
      >
        <Form form={progressForm} layout="vertical" onFinish={(v) => report.mutate(v)}>
          <Form.Item
            name="day"
            label={t('fields.day')}
            extra={t('hints.reportDay', { days: TASK_LATE_REPORT_DAYS })}
            rules={[{ required: true, message: t('validation.reportDay') }]}
          >
            <DatePicker
              id="task-progress-day"
              format={DAY}
              allowClear={false}
              disabledDate={(v) => {
                const [from, to] = reportDays(d.startTime);
                const s = v.format(DAY);
                return s < from || s > to;
              }}
            />
          </Form.Item>
          <Form.Item
            name="text"
            label={t('fields.progressText')}
            rules={[{ required: true, message: t('validation.progressText') }]}
          >
            <Input.TextArea id="task-progress-text" maxLength={4000} autoSize={{ minRows: 2, maxRows: 6 }} />
          </Form.Item>
          <Form.Item
            name="completionRate"
            label={t('fields.completionRate')}
            rules={[{ required: true, type: 'number', min: 1, max: 100, message: t('validation.rate') }]}
          >
            <InputNumber id="task-progress-rate" min={1} max={100} addonAfter="%" />
          </Form.Item>
          <Space>
            <Form.Item name="lat" label={t('fields.lat')}>
              <InputNumber id="task-progress-lat" min={-90} max={90} step={0.00001} />
            </Form.Item>
            <Form.Item name="lon" label={t('fields.lon')}>
              <InputNumber id="task-progress-lon" min={-180} max={180} step={0.00001} />
            </Form.Item>
          </Space>
          <Form.Item name="photos" label={t('fields.photos')}>
            <UploadField id="task-progress-photos" kind="picture" max={TASK_MAX_FILES} platformId={d.platformId} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={reviewing}
        title={t('actions.review')}
        okText={t('actions.save')}
        cancelText={t('actions.cancel')}
        okButtonProps={{ loading: review.isPending, 'data-testid': 'task-review-save' }}
        onOk={() => reviewForm.submit()}
        onCancel={() => setReviewing(false)}
        destroyOnHidden
      >
        <Form form={reviewForm} layout="vertical" onFinish={(v) => review.mutate(v)}>
          <Form.Item
            name="result"
            label={t('fields.reviewResult')}
            rules={[{ required: true, message: t('validation.result') }]}
          >
            <Radio.Group id="task-review-result">
              <Radio value="pass" data-testid="task-review-pass">
                {t('reviewResults.pass')}
              </Radio>
              <Radio value="fail" data-testid="task-review-fail">
                {t('reviewResults.fail')}
              </Radio>
            </Radio.Group>
          </Form.Item>
          {result === 'pass' ? (
            <Form.Item
              name="grade"
              label={t('fields.grade')}
              rules={[{ required: true, message: t('validation.grade') }]}
            >
              <Select
                id="task-review-grade"
                options={TASK_GRADES.map((g) => ({ value: g, label: t(`grades.${g}`) }))}
              />
            </Form.Item>
          ) : null}
          <Form.Item
            name="note"
            label={t('fields.reviewNote')}
            rules={result === 'fail' ? [{ required: true, message: t('validation.note') }] : []}
          >
            <Input.TextArea id="task-review-note" maxLength={2000} autoSize={{ minRows: 2, maxRows: 5 }} />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
