import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import {
  App,
  Button,
  Card,
  DatePicker,
  Empty,
  Flex,
  Form,
  Image,
  Input,
  InputNumber,
  Modal,
  Radio,
  Select,
  Switch,
  Tag,
  Typography,
} from 'antd';
import { CameraOutlined, PlusOutlined, ScheduleOutlined } from '@ant-design/icons';
import type { CameraTask } from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { formatTime, pickerValue, todayDate } from '../../shared/time.ts';
import { useTimeZone } from '../../shared/useTimeZone.ts';
import {
  addTask,
  cameraKeys,
  deleteTask,
  editTask,
  fetchCameras,
  fetchSnapshots,
  fetchTasks,
  takeSnapshot,
  type TaskForm,
  type TaskListParams,
} from './camerasApi.ts';
import { SnapshotMedia } from './SnapshotMedia.tsx';
import './cameras.css';

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The pictures of one camera on one day (the gallery). */
function Gallery({ cameras }: { cameras: { value: number; label: string }[] }) {
  const { t } = useTranslation('cameras');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { zone } = useTimeZone();
  const [cameraId, setCameraId] = useState<number>();
  const [date, setDate] = useState<string>(() => todayDate(zone));
  const params = { cameraId, date, pageNum: 1, pageSize: 48 };
  const shots = useQuery({
    queryKey: cameraKeys.snapshots(params),
    queryFn: () => fetchSnapshots(params),
    enabled: cameraId !== undefined,
    retry: retryUnlessCancelled,
  });
  const take = useMutation({
    mutationFn: () => takeSnapshot(cameraId ?? 0),
    onSuccess: () => {
      void message.success(t('gallery.taken'));
      void queryClient.invalidateQueries({ queryKey: ['cameras', 'snapshots'] });
    },
  });
  const list = shots.data?.list ?? [];
  return (
    <Card
      size="small"
      title={t('gallery.title')}
      data-testid="camera-gallery"
      extra={
        <Flex gap={8}>
          <Select<number>
            style={{ width: 220 }}
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('gallery.pickCamera')}
            value={cameraId}
            onChange={setCameraId}
            options={cameras}
            data-testid="gallery-camera"
          />
          <DatePicker
            value={pickerValue(date)}
            allowClear={false}
            onChange={(d: Dayjs | null) => d && setDate(d.format('YYYY-MM-DD'))}
          />
          <Button
            icon={<CameraOutlined />}
            disabled={cameraId === undefined}
            loading={take.isPending}
            onClick={() => take.mutate()}
          >
            {t('gallery.take')}
          </Button>
        </Flex>
      }
    >
      {list.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={cameraId === undefined ? t('gallery.pickCamera') : t('gallery.none')}
        />
      ) : (
        <Image.PreviewGroup>
          <div className="camera-gallery">
            {list.map((s) => (
              <Flex key={s.id} vertical gap={4}>
                <SnapshotMedia snapshot={s} />
                <Flex justify="space-between">
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {formatTime(s.takenAt)}
                  </Typography.Text>
                  <Tag>{t(`sources.${s.source}`)}</Tag>
                </Flex>
              </Flex>
            ))}
          </div>
        </Image.PreviewGroup>
      )}
    </Card>
  );
}

/**
 * Camera > video tasks: pictures or clips of cameras at times of day, kept a number of days (the safety record); below,
 * the gallery of a camera's pictures of a day (tasks, alerts, by hand).
 */
export default function TasksPage() {
  const { t } = useTranslation('cameras');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const table = useServerTable<TaskListParams>({ pageNum: 1, pageSize: 10 }, [], { filters: { keyword: 'string' } });
  const { params, setFilter } = table;
  const [editing, setEditing] = useState<CameraTask | null | undefined>(undefined);
  const [form] = Form.useForm<TaskForm & { timesText: string }>();
  const list = useQuery({
    queryKey: cameraKeys.tasks(params),
    queryFn: () => fetchTasks(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const cameras = useQuery({
    queryKey: ['cameras', 'all'],
    queryFn: () => fetchCameras({ pageNum: 1, pageSize: 1000 }),
    retry: retryUnlessCancelled,
  });
  const cameraOptions = (cameras.data?.list ?? []).map((c) => ({
    value: c.id,
    label: `${c.name} · ${c.platformName}`,
  }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['cameras', 'tasks'] });
  const save = useMutation({
    mutationFn: (v: TaskForm) => (editing ? editTask(editing.id, v) : addTask(v)),
    onSuccess: () => {
      setEditing(undefined);
      void message.success(t('messages.saved'));
      void refresh();
    },
  });
  const columns: ServerColumn<CameraTask>[] = [
    { title: t('tasks.name'), dataIndex: 'name', key: 'name', width: 180, hideable: false },
    {
      title: t('tasks.cameras'),
      dataIndex: 'cameraNames',
      key: 'cameraNames',
      width: 220,
      render: (v: string[]) => (
        <Flex wrap gap={4}>
          {v.map((n) => (
            <Tag key={n}>{n}</Tag>
          ))}
        </Flex>
      ),
    },
    {
      title: t('tasks.kind'),
      dataIndex: 'kind',
      key: 'kind',
      width: 110,
      render: (v: CameraTask['kind'], row) =>
        v === 'recording' ? (
          <Tag color="blue">
            {t('tasks.kinds.recording')} · {t('tasks.seconds', { count: row.durationSec ?? 0 })}
          </Tag>
        ) : (
          <Tag>{t('tasks.kinds.snapshot')}</Tag>
        ),
    },
    { title: t('tasks.times'), dataIndex: 'times', key: 'times', width: 120, render: (v: string[]) => v.join(', ') },
    {
      title: t('tasks.retention'),
      dataIndex: 'retentionDays',
      key: 'retentionDays',
      width: 90,
      render: (v: number) => t('tasks.days', { count: v }),
    },
    {
      title: t('tasks.enabled'),
      dataIndex: 'enabled',
      key: 'enabled',
      width: 80,
      render: (v: boolean) => <Tag color={v ? 'success' : 'default'}>{v ? t('tasks.on') : t('tasks.off')}</Tag>,
    },
    {
      title: t('tasks.lastRun'),
      dataIndex: 'lastRunAt',
      key: 'lastRunAt',
      width: 150,
      render: (v: string | null) => (v ? formatTime(v) : '-'),
    },
    {
      title: t('actions.title'),
      key: 'actions',
      width: 120,
      fixed: 'right',
      render: (_v, row) => (
        <Flex>
          <Button
            type="link"
            size="small"
            onClick={() => {
              setEditing(row);
              form.setFieldsValue({ ...row, durationSec: row.durationSec ?? 10, timesText: row.times.join(', ') });
            }}
          >
            {t('actions.edit')}
          </Button>
          <DeleteAction
            title={t('tasks.deleteTitle', { name: row.name })}
            onDelete={() => deleteTask(row.id)}
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
    <Flex vertical gap={16}>
      <ListPage
        icon={<ScheduleOutlined />}
        title={t('tasks.title')}
        description={t('tasks.description')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            data-testid="task-add"
            onClick={() => {
              form.resetFields();
              setEditing(null);
            }}
          >
            {t('tasks.add')}
          </Button>
        }
      >
        <ServerTable<CameraTask>
          tableId="cameraTasks"
          rowKey="id"
          data-testid="task-table"
          table={table}
          query={list}
          columns={columns}
          onReload={() => void refresh()}
          totalText={(total) => t('tasks.total', { count: total })}
          filters={
            <Input.Search
              allowClear
              style={{ width: 220 }}
              placeholder={t('tasks.keyword')}
              defaultValue={params.keyword}
              onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
            />
          }
        />
      </ListPage>
      <Gallery cameras={cameraOptions} />
      <Modal
        open={editing !== undefined}
        title={editing ? t('tasks.edit', { name: editing.name }) : t('tasks.add')}
        onCancel={() => setEditing(undefined)}
        onOk={() => form.submit()}
        okButtonProps={{ loading: save.isPending }}
        forceRender
      >
        <Form
          form={form}
          layout="vertical"
          initialValues={{ retentionDays: 30, enabled: true, timesText: '08:00', kind: 'snapshot', durationSec: 10 }}
          onFinish={(v) =>
            save.mutate({
              name: v.name,
              cameraIds: v.cameraIds,
              times: v.timesText
                .split(',')
                .map((x) => x.trim())
                .filter(Boolean),
              retentionDays: v.retentionDays,
              enabled: v.enabled,
              kind: v.kind,
              durationSec: v.durationSec,
            })
          }
        >
          <Form.Item name="name" label={t('tasks.name')} rules={[{ required: true, max: 100 }]}>
            <Input />
          </Form.Item>
          <Form.Item name="cameraIds" label={t('tasks.cameras')} rules={[{ required: true }]}>
            <Select mode="multiple" showSearch={{ optionFilterProp: 'label' }} options={cameraOptions} />
          </Form.Item>
          <Flex gap={16}>
            <Form.Item name="kind" label={t('tasks.kind')}>
              <Radio.Group
                optionType="button"
                data-testid="task-kind"
                options={(['snapshot', 'recording'] as const).map((k) => ({ value: k, label: t(`tasks.kinds.${k}`) }))}
              />
            </Form.Item>
            <Form.Item noStyle dependencies={['kind']}>
              {() =>
                form.getFieldValue('kind') === 'recording' ? (
                  <Form.Item
                    name="durationSec"
                    label={t('tasks.duration')}
                    extra={t('tasks.durationHelp')}
                    rules={[
                      { required: true, message: t('tasks.badDuration') },
                      { type: 'integer', min: 5, max: 300, message: t('tasks.badDuration') },
                    ]}
                  >
                    <InputNumber min={5} max={300} precision={0} addonAfter={t('tasks.durationUnit')} />
                  </Form.Item>
                ) : null
              }
            </Form.Item>
          </Flex>
          <Form.Item
            name="timesText"
            label={t('tasks.times')}
            extra={t('tasks.timesHelp')}
            rules={[
              { required: true },
              {
                validator: async (_r, v: string) => {
                  if (v && !v.split(',').every((x) => TIME.test(x.trim()))) throw new Error(t('tasks.badTimes'));
                },
              },
            ]}
          >
            <Input placeholder="08:00, 17:30" />
          </Form.Item>
          <Flex gap={16}>
            <Form.Item name="retentionDays" label={t('tasks.retention')} rules={[{ required: true }]}>
              <InputNumber min={1} max={3650} precision={0} addonAfter={t('tasks.daysUnit')} />
            </Form.Item>
            <Form.Item name="enabled" label={t('tasks.enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Flex>
        </Form>
      </Modal>
    </Flex>
  );
}
