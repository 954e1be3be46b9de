import { useEffect, useMemo, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Drawer,
  Empty,
  Flex,
  Form,
  Input,
  Popconfirm,
  Result,
  Select,
  Skeleton,
  Space,
  Switch,
  Table,
  Tabs,
  Tag,
  Timeline,
  Typography,
  message,
} from 'antd';
import { CheckOutlined, LockOutlined, SaveOutlined } from '@ant-design/icons';
import {
  FALSE_ALARM_TYPES,
  MAX_ALERT_ATTACHMENTS,
  type AlertDeliveryRow,
  type AlertDetail,
  type FalseAlarmType,
  type NotificationState,
} from '@geosentry/contract';
import { EChart, type EChartOption } from '../../shared/charts/EChart.tsx';
import { UploadField } from '../files/index.ts';
import { AlertTasks } from '../tasks/index.ts';
import { AlertSnapshots } from '../cameras/index.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import {
  alertKeys,
  fetchAlertDetail,
  fetchDeliveries,
  processAlert,
  retryDelivery,
  type ProcessValues,
} from './alertsApi.ts';
import { LevelTag, StatusTag, fmtNum, fmtTime, levelHex, levelTextHex } from './alertUi.tsx';
import { useValueTypeText } from './valueTypes.ts';

interface FormValues {
  falseAlarm: boolean;
  falseAlarmType?: FalseAlarmType | undefined;
  onSiteCheck?: string | undefined;
  deformation?: string | undefined;
  suggestion?: string | undefined;
  attachments: string[];
}

const DELIVERY_COLOURS: Record<NotificationState, string> = {
  pending: 'default',
  sending: 'processing',
  sent: 'success',
  failed: 'error',
};

/** The readings window behind the decision, with the alert value and the reading that fired. */
function EvidenceChart({ alert }: { alert: AlertDetail }) {
  const { t } = useTranslation('alerts');
  const ev = alert.evidence;
  const colour = levelHex(alert.level);
  const option = useMemo<EChartOption>(() => {
    const data = ev.readings.map((r) => [r.ts, r.value] as [string, number]);
    const showThreshold = ev.threshold !== null && (ev.valueType === 'threshold' || ev.valueType === 'thresholdRate');
    return {
      animation: false,
      grid: { left: 56, right: 24, top: 28, bottom: 32 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'time' },
      yAxis: {
        type: 'value',
        scale: true,
        name: alert.showName || alert.quantity || '',
        nameTextStyle: { align: 'left' },
      },
      series: [
        {
          type: 'line',
          name: alert.showName || alert.quantity || t('fields.value'),
          data,
          showSymbol: data.length < 60,
          symbolSize: 5,
          lineStyle: { width: 2, color: '#1f4e79' },
          itemStyle: { color: '#1f4e79' },
          markLine: showThreshold
            ? {
                symbol: 'none',
                lineStyle: { color: colour, type: 'dashed', width: 2 },
                label: {
                  formatter: t('detail.thresholdLine', { value: fmtNum(ev.threshold) }),
                  position: 'insideEndTop',
                  color: levelTextHex(alert.level),
                  fontWeight: 600,
                },
                data: [{ yAxis: ev.threshold! }],
              }
            : undefined,
          markPoint:
            ev.value !== null
              ? {
                  symbol: 'circle',
                  symbolSize: 14,
                  itemStyle: { color: colour, borderColor: '#fff', borderWidth: 2 },
                  label: { show: false },
                  data: [{ name: 'fired', coord: [ev.ts, ev.value] }],
                }
              : undefined,
        },
      ],
    };
  }, [ev, alert.showName, alert.quantity, alert.level, colour, t]);
  if (ev.readings.length === 0) return <Empty description={t('detail.noReadings')} />;
  return <EChart option={option} height={200} notMerge data-testid="alert-evidence-chart" />;
}

function Evidence({ alert }: { alert: AlertDetail }) {
  const { t } = useTranslation('alerts');
  const typeText = useValueTypeText();
  const ev = alert.evidence;
  const window = ev.windowN && ev.windowUnit ? `${ev.windowN} ${t(`units.${ev.windowUnit}`)}` : null;
  const items = [
    { key: 'type', label: t('evidence.type'), children: typeText(ev.valueType) },
    ...(ev.direction
      ? [{ key: 'dir', label: t('evidence.direction'), children: t(`directions.${ev.direction}`) }]
      : []),
    { key: 'threshold', label: t('evidence.threshold'), children: fmtNum(ev.threshold) },
    ...(ev.rateValue !== null
      ? [{ key: 'rateValue', label: t('evidence.rateValue'), children: fmtNum(ev.rateValue) }]
      : []),
    ...(window ? [{ key: 'window', label: t('evidence.window'), children: window }] : []),
    ...(ev.ratio !== null ? [{ key: 'ratio', label: t('evidence.ratio'), children: fmtNum(ev.ratio) }] : []),
    { key: 'ts', label: t('evidence.readingAt'), children: fmtTime(ev.ts) },
    {
      key: 'value',
      label: t('evidence.value'),
      children: (
        <Typography.Text strong style={{ color: levelTextHex(alert.level) }} data-testid="alert-evidence-value">
          {fmtNum(ev.value)}
        </Typography.Text>
      ),
    },
    ...(ev.metric !== null && ev.metric !== ev.value
      ? [{ key: 'metric', label: t('evidence.metric'), children: fmtNum(ev.metric) }]
      : []),
    ...(ev.base !== null ? [{ key: 'base', label: t('evidence.base'), children: fmtNum(ev.base) }] : []),
    { key: 'change', label: t('evidence.change'), children: fmtNum(ev.change) },
    { key: 'rate', label: t('evidence.rate'), children: fmtNum(ev.rate) },
    { key: 'acc', label: t('evidence.acceleration'), children: fmtNum(ev.acceleration) },
    ...(ev.late && ev.lateReadingAt
      ? [
          {
            key: 'late',
            label: t('evidence.late'),
            children: t('evidence.lateText', { time: fmtTime(ev.lateReadingAt) }),
          },
        ]
      : []),
    ...(ev.lastSeenAt !== undefined
      ? [{ key: 'lastSeen', label: t('evidence.lastSeenAt'), children: fmtTime(ev.lastSeenAt) }]
      : []),
    ...(ev.offlineHours !== undefined && ev.offlineHours !== null
      ? [{ key: 'offlineHours', label: t('evidence.offlineHours'), children: ev.offlineHours }]
      : []),
  ];
  return (
    <Flex vertical gap={12} data-testid="alert-evidence">
      <Descriptions size="small" bordered column={{ xs: 1, sm: 2, lg: 3 }} items={items} />
      {ev.members && ev.members.length > 0 ? (
        <Table
          size="small"
          rowKey={(m) => `${m.deviceId}-${m.quantity}`}
          pagination={false}
          dataSource={ev.members}
          columns={[
            { title: t('fields.device'), dataIndex: 'deviceId', render: (v: number) => `#${v}` },
            { title: t('fields.quantity'), dataIndex: 'quantity' },
            { title: t('fields.level'), dataIndex: 'level', render: (v: number) => <LevelTag level={v} compact /> },
            { title: t('evidence.metric'), dataIndex: 'metric', render: fmtNum },
            { title: t('evidence.readingAt'), dataIndex: 'ts', render: fmtTime },
          ]}
        />
      ) : null}
    </Flex>
  );
}

function Deliveries({ alertId }: { alertId: number }) {
  const { t } = useTranslation('alerts');
  const queryClient = useQueryClient();
  const q = useQuery({
    queryKey: alertKeys.deliveries(alertId),
    queryFn: () => fetchDeliveries(alertId),
    retry: retryUnlessCancelled,
    refetchInterval: (query) =>
      (query.state.data ?? []).some((d) => d.state === 'pending' || d.state === 'sending') ? 5000 : false,
  });
  const retry = useMutation({
    mutationFn: retryDelivery,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: alertKeys.deliveries(alertId) }),
  });
  if (q.isError)
    return (
      <Alert type="warning" showIcon title={t('deliveries.loadFailed')} description={(q.error as Error).message} />
    );
  return (
    <Table<AlertDeliveryRow>
      size="small"
      rowKey="id"
      data-testid="alert-deliveries"
      loading={q.isFetching && !q.data}
      dataSource={q.data ?? []}
      pagination={false}
      scroll={{ x: 760 }}
      locale={{ emptyText: t('deliveries.empty') }}
      columns={[
        { title: t('deliveries.channel'), dataIndex: 'channel', width: 110, render: (v: string) => t(`channels.${v}`) },
        {
          title: t('deliveries.recipient'),
          key: 'recipient',
          width: 200,
          render: (_v, d) => (
            <Flex vertical>
              <span>{d.recipientName}</span>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {d.recipient} · {d.language}
              </Typography.Text>
            </Flex>
          ),
        },
        {
          title: t('fields.level'),
          dataIndex: 'level',
          width: 90,
          render: (v: number) => <LevelTag level={v} compact />,
        },
        {
          title: t('deliveries.state'),
          dataIndex: 'state',
          width: 100,
          render: (v: NotificationState) => <Tag color={DELIVERY_COLOURS[v]}>{t(`deliveries.states.${v}`)}</Tag>,
        },
        { title: t('deliveries.attempts'), dataIndex: 'attempts', width: 80, align: 'right' },
        {
          title: t('deliveries.when'),
          key: 'when',
          width: 170,
          render: (_v, d) => fmtTime(d.sentAt ?? d.nextAttemptAt ?? d.createdAt),
        },
        {
          title: t('deliveries.error'),
          dataIndex: 'lastError',
          ellipsis: true,
          render: (v: string | null, d) =>
            d.state === 'failed' ? (
              <Flex gap={4} align="center">
                <Typography.Text type="danger" ellipsis={{ tooltip: v }} style={{ maxWidth: 140 }}>
                  {v ?? '-'}
                </Typography.Text>
                <Button type="link" size="small" loading={retry.isPending} onClick={() => retry.mutate(d.id)}>
                  {t('deliveries.retry')}
                </Button>
              </Flex>
            ) : (
              <Typography.Text type="secondary" ellipsis={{ tooltip: v }} style={{ maxWidth: 200 }}>
                {v ?? '-'}
              </Typography.Text>
            ),
        },
      ]}
    />
  );
}

function History({ alert }: { alert: AlertDetail }) {
  const { t } = useTranslation('alerts');
  const colour: Record<string, string> = { raised: 'red', escalated: 'orange', saved: 'blue', processed: 'green' };
  if (alert.actions.length === 0) return <Empty description={t('history.empty')} />;
  return (
    <Timeline
      data-testid="alert-history"
      items={alert.actions.map((a) => ({
        key: a.id,
        color: colour[a.action] ?? 'gray',
        content: (
          <Flex vertical>
            <Flex gap={8} align="center" wrap>
              <Typography.Text strong>{t(`history.actions.${a.action}`)}</Typography.Text>
              {a.level ? <LevelTag level={a.level} compact /> : null}
            </Flex>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {fmtTime(a.at)} · {a.userName ?? t('history.system')}
            </Typography.Text>
          </Flex>
        ),
      }))}
    />
  );
}

function ProcessingForm({ alert, onDone }: { alert: AlertDetail; onDone: (finished: boolean) => void }) {
  const { t } = useTranslation('alerts');
  const [form] = Form.useForm<FormValues>();
  const [msg, msgHolder] = message.useMessage();
  const finishing = useRef(false);
  const locked = alert.status === 'processed';
  const p = alert.processing;
  const falseAlarm = Form.useWatch('falseAlarm', form);
  // A locked record is read, not edited: keep its text at full contrast.
  const lockedStyle = locked ? { color: 'rgba(0, 0, 0, 0.88)', background: '#fafafa', cursor: 'default' } : undefined;

  useEffect(() => {
    form.resetFields();
    form.setFieldsValue({
      falseAlarm: p?.falseAlarm ?? false,
      falseAlarmType: p?.falseAlarmType ?? undefined,
      onSiteCheck: p?.onSiteCheck ?? '',
      deformation: p?.deformation ?? '',
      suggestion: p?.suggestion ?? '',
      attachments: p?.attachments.map((a) => a.fileId) ?? [],
    });
  }, [alert.id, alert.status, p, form]);

  const save = useMutation({
    mutationFn: (v: { processed: 0 | 1; values: ProcessValues }) => processAlert(alert.id, v.processed, v.values),
    onSuccess: (_r, v) => {
      void msg.success(t(v.processed === 1 ? 'process.finished' : 'process.saved'));
      onDone(v.processed === 1);
    },
  });

  const submit = async (processed: 0 | 1) => {
    finishing.current = processed === 1;
    try {
      const v = await form.validateFields();
      save.mutate({ processed, values: v });
    } catch {
      /* the form shows what is missing */
    } finally {
      finishing.current = false;
    }
  };

  return (
    <Flex vertical gap={12}>
      {msgHolder}
      {locked ? (
        <Alert
          type="success"
          showIcon
          icon={<LockOutlined />}
          data-testid="alert-locked"
          title={t('process.lockedTitle')}
          description={t('process.lockedBy', { user: alert.processedBy ?? '-', time: fmtTime(alert.processedAt) })}
        />
      ) : alert.status === 'preProcess' ? (
        <Alert type="info" showIcon title={t('process.preProcessHint')} />
      ) : null}
      <Form<FormValues>
        form={form}
        layout="vertical"
        disabled={locked}
        data-testid="alert-process-form"
        data-locked={locked ? '1' : '0'}
      >
        <Flex gap={16} wrap>
          <Form.Item name="falseAlarm" label={t('process.falseAlarm')} valuePropName="checked">
            <Switch id="alert-false-alarm" data-testid="alert-false-alarm" />
          </Form.Item>
          {falseAlarm ? (
            <Form.Item
              name="falseAlarmType"
              label={t('process.falseAlarmType')}
              style={{ minWidth: 240 }}
              rules={[{ required: true, message: t('process.falseAlarmTypeRequired') }]}
            >
              <Select
                id="alert-false-alarm-type"
                options={FALSE_ALARM_TYPES.map((x) => ({ value: x, label: t(`falseAlarmTypes.${x}`) }))}
              />
            </Form.Item>
          ) : null}
        </Flex>
        <Form.Item name="onSiteCheck" label={t('process.onSiteCheck')}>
          <Input.TextArea
            id="alert-onsite"
            style={lockedStyle}
            maxLength={2000}
            autoSize={{ minRows: 2, maxRows: 5 }}
            placeholder={t('process.onSiteCheckHint')}
          />
        </Form.Item>
        <Form.Item name="deformation" label={t('process.deformation')}>
          <Input.TextArea
            id="alert-deformation"
            style={lockedStyle}
            maxLength={2000}
            autoSize={{ minRows: 2, maxRows: 5 }}
            placeholder={t('process.deformationHint')}
          />
        </Form.Item>
        <Form.Item
          name="suggestion"
          label={t('process.suggestion')}
          extra={locked ? undefined : t('process.suggestionHint')}
          rules={[
            {
              validator: (_r, v: string | undefined) =>
                finishing.current && !(v ?? '').trim()
                  ? Promise.reject(new Error(t('process.suggestionRequired')))
                  : Promise.resolve(),
            },
          ]}
        >
          <Input.TextArea
            id="alert-suggestion"
            style={lockedStyle}
            maxLength={2000}
            autoSize={{ minRows: 3, maxRows: 6 }}
          />
        </Form.Item>
        <Form.Item name="attachments" label={t('process.attachments')} extra={t('process.attachmentsHint')}>
          <UploadField
            kind="attachment"
            max={MAX_ALERT_ATTACHMENTS}
            platformId={alert.platformId}
            known={p?.attachments.map((a) => ({ file_id: a.fileId, name: a.name }))}
            disabled={locked}
          />
        </Form.Item>
      </Form>
      {locked ? null : (
        <Flex gap={8} justify="flex-end">
          <Button
            icon={<SaveOutlined />}
            data-testid="alert-save"
            loading={save.isPending && save.variables?.processed === 0}
            onClick={() => void submit(0)}
          >
            {t('process.save')}
          </Button>
          <Popconfirm
            title={t('process.finishConfirmTitle')}
            description={t('process.finishConfirm')}
            okText={t('process.finish')}
            cancelText={t('actions.cancel')}
            okButtonProps={{ 'data-testid': 'alert-finish-confirm' } as Record<string, string>}
            onConfirm={() => submit(1)}
          >
            <Button
              type="primary"
              icon={<CheckOutlined />}
              data-testid="alert-finish"
              loading={save.isPending && save.variables?.processed === 1}
            >
              {t('process.finish')}
            </Button>
          </Popconfirm>
        </Flex>
      )}
    </Flex>
  );
}

/** One alert: what fired (evidence and chart), who was told, what was done, and the processing form. */
export function AlertDetailDrawer({
  id,
  onClose,
  onChanged,
}: {
  id: number | null;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation('alerts');
  const queryClient = useQueryClient();
  const q = useQuery({
    queryKey: alertKeys.detail(id ?? 0),
    queryFn: () => fetchAlertDetail(id!),
    enabled: id !== null,
    retry: false,
  });
  const a = q.data;
  const typeText = useValueTypeText();

  return (
    <Drawer
      open={id !== null}
      size={920}
      onClose={onClose}
      destroyOnHidden
      data-testid="alert-drawer"
      title={
        a ? (
          <Flex gap={8} align="center" wrap>
            <LevelTag level={a.level} />
            <span>
              {a.platformName} · {a.deviceName}
            </span>
            <StatusTag status={a.status} />
          </Flex>
        ) : (
          t('detail.title')
        )
      }
    >
      {q.isLoading ? <Skeleton active paragraph={{ rows: 10 }} /> : null}
      {q.isError ? (
        <Result
          status="warning"
          title={t('detail.loadFailed')}
          subTitle={(q.error as Error).message}
          extra={<Button onClick={() => void q.refetch()}>{t('actions.retry')}</Button>}
        />
      ) : null}
      {a ? (
        <Flex vertical gap={16} data-testid="alert-detail" data-status={a.status}>
          <Card
            size="small"
            style={{ borderLeft: `6px solid ${levelHex(a.level)}` }}
            styles={{ body: { padding: 12 } }}
          >
            <Descriptions
              size="small"
              column={{ xs: 1, sm: 2, lg: 3 }}
              items={[
                { key: 'site', label: t('fields.site'), children: a.platformName },
                { key: 'device', label: t('fields.device'), children: `${a.deviceName} (${a.deviceNumber})` },
                { key: 'quantity', label: t('fields.quantity'), children: a.showName || a.quantity || '-' },
                {
                  key: 'value',
                  label: a.valueType === 'offline' ? t('fields.value') : t('fields.trigger'),
                  children:
                    a.valueType === 'offline' ? (
                      <Typography.Text strong style={{ color: levelTextHex(a.level), fontSize: 16 }}>
                        {t('types.offline')}
                      </Typography.Text>
                    ) : (
                      <Space size={6} wrap>
                        <Typography.Text
                          strong
                          style={{ color: levelTextHex(a.level), fontSize: 16 }}
                          data-testid="alert-detail-trigger"
                        >
                          {fmtNum(a.triggerValue ?? a.metric ?? a.lastValue)}
                        </Typography.Text>
                        <Typography.Text type="secondary">
                          {t('list.threshold', { value: fmtNum(a.threshold) })}
                          {a.triggerAt ? ` · ${fmtTime(a.triggerAt)}` : ''}
                        </Typography.Text>
                      </Space>
                    ),
                },
                ...(a.valueType === 'offline'
                  ? []
                  : [
                      {
                        key: 'latest',
                        label: t('fields.latest'),
                        children: (
                          <span data-testid="alert-detail-latest">
                            {fmtNum(a.metric ?? a.lastValue)}
                            {a.metric !== null && a.lastValue !== null && a.metric !== a.lastValue
                              ? ` (${t('evidence.value')} ${fmtNum(a.lastValue)})`
                              : ''}
                            <Typography.Text type="secondary"> · {fmtTime(a.lastAt)}</Typography.Text>
                          </span>
                        ),
                      },
                    ]),
                {
                  key: 'rule',
                  label: t('fields.rule'),
                  children: `${typeText(a.valueType)} · ${t('list.threshold', { value: fmtNum(a.threshold) })}`,
                },
                { key: 'kind', label: t('fields.kind'), children: t(`kinds.${a.kind}`) },
                { key: 'first', label: t('fields.firstAt'), children: fmtTime(a.firstAt) },
                { key: 'last', label: t('fields.lastAt'), children: fmtTime(a.lastAt) },
                {
                  key: 'count',
                  label: t('fields.count'),
                  children:
                    a.firstLevel !== a.level ? (
                      <Space size={4}>
                        {a.count}
                        <Typography.Text type="secondary">
                          {t('detail.escalatedFrom', { level: t(`levels.${a.firstLevel}`) })}
                        </Typography.Text>
                      </Space>
                    ) : (
                      a.count
                    ),
                },
              ]}
            />
            <EvidenceChart alert={a} />
          </Card>
          <AlertSnapshots alertId={a.id} platformId={a.platformId} firedAt={a.firstAt} inCard />
          <AlertTasks alertId={a.id} />
          <Tabs
            defaultActiveKey="process"
            items={[
              {
                key: 'process',
                label: t('detail.tabs.process'),
                children: (
                  <ProcessingForm
                    alert={a}
                    onDone={() => {
                      void queryClient.invalidateQueries({ queryKey: alertKeys.detail(a.id) });
                      onChanged();
                    }}
                  />
                ),
              },
              { key: 'evidence', label: t('detail.tabs.evidence'), children: <Evidence alert={a} /> },
              { key: 'deliveries', label: t('detail.tabs.deliveries'), children: <Deliveries alertId={a.id} /> },
              {
                key: 'history',
                label: t('detail.tabs.history', { count: a.actions.length }),
                children: <History alert={a} />,
              },
            ]}
          />
        </Flex>
      ) : null}
    </Drawer>
  );
}
