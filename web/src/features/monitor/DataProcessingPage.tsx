import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Empty,
  Flex,
  Form,
  InputNumber,
  Modal,
  Row,
  Select,
  Table,
} from 'antd';
import type { TableColumnsType } from 'antd';
import { DeleteOutlined, EditOutlined, EyeOutlined, CheckOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { GNSS_MODULE_ID, MODULE_DATA_LIMITS, SMOOTH_METHODS, type SmoothMethod } from '@geosentry/contract';
import { EChart } from '../../shared/charts/EChart.tsx';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { DevicePicker, QuantityPicker, SitePicker } from './shared/Pickers.tsx';
import { TimeRangePicker, ZoneTag } from './shared/TimePickers.tsx';
import { todayDate, wallToInstant } from '../../shared/time.ts';
import { useTimeZone, withZone } from '../../shared/useTimeZone.ts';
import { useChosenSite, useMonitorSites, useSiteDevices } from '../../shared/monitorSites.ts';
import { useChosenDevice } from './shared/useDeviceChoice.ts';
import { fmtValue, useQuantityText } from './shared/format.ts';
import { fmtTime, isRangeComplete, type TimeRange } from './shared/timeRange.ts';
import { timeChartOption } from './shared/seriesChart.ts';
import { applySmooth, deleteData, editGnss, fetchHistory, fetchSmoothPreview, rangeParams } from './monitorApi.ts';
import './monitor.css';

interface ReadingRow {
  ts: string;
  values: Record<string, number>;
}

/** Monitor > Data processing: smoothing preview and apply, deleting readings, editing a GNSS reading. */
export default function DataProcessingPage() {
  const { t } = useTranslation('monitor');
  const { zone, label: zoneLabel } = useTimeZone();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const { sites, isLoading: sitesLoading } = useMonitorSites();
  const [platformId, setPlatformId] = useChosenSite(sites);
  const siteDevices = useSiteDevices(platformId);
  const [device, setDeviceId] = useChosenDevice(siteDevices.data);
  const text = useQuantityText();
  const [quantityChoice, setQuantity] = useState<string | undefined>();
  const [range, setRange] = useState<TimeRange>({ kind: '7d' });
  const [method, setMethod] = useState<SmoothMethod>('movingAverage');
  const [windowSize, setWindowSize] = useState<number>(5);
  const [previewOn, setPreviewOn] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [deleteRange, setDeleteRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [editing, setEditing] = useState<ReadingRow | null>(null);
  const [form] = Form.useForm<{ dN?: number; dE?: number; dH?: number }>();

  const quantities = device ? text.catalogue.quantities(device.moduleId) : [];
  const quantity = quantities.some((q) => q.key === quantityChoice) ? quantityChoice : quantities[0]?.key;
  const complete = isRangeComplete(range);
  const windowOk =
    windowSize >= MODULE_DATA_LIMITS.minSmoothWindow &&
    windowSize <= MODULE_DATA_LIMITS.maxSmoothWindow &&
    windowSize % 2 === 1;
  const isGnss = device?.moduleId === GNSS_MODULE_ID;

  const preview = useQuery({
    queryKey: ['monitor', 'smooth', device?.deviceId, quantity, rangeParams(range), method, windowSize],
    queryFn: () =>
      fetchSmoothPreview({ deviceId: device!.deviceId, quantity: quantity!, range, method, window: windowSize }),
    enabled: previewOn && device !== undefined && quantity !== undefined && complete && windowOk,
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const readings = useQuery({
    queryKey: ['monitor', 'readings', device?.deviceId, rangeParams(range)],
    queryFn: () =>
      fetchHistory(
        { deviceId: device!.deviceId, range, aggregation: 'original', maxPoints: MODULE_DATA_LIMITS.maxPoints },
        true,
      ),
    enabled: device !== undefined && complete,
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const rows: ReadingRow[] = useMemo(() => {
    const byTs = new Map<string, ReadingRow>();
    for (const s of readings.data?.devices[0]?.series ?? [])
      for (const p of s.points) {
        const r = byTs.get(p.ts) ?? { ts: p.ts, values: {} };
        r.values[s.quantity] = p.value;
        byTs.set(p.ts, r);
      }
    return [...byTs.values()].sort((a, b) => b.ts.localeCompare(a.ts));
  }, [readings.data]);
  const downsampled = readings.data?.devices[0]?.series.some((s) => s.downsampled) ?? false;

  const option = useMemo(() => {
    const pts = preview.data?.points ?? [];
    const label = quantity ? text.meta(device?.moduleId ?? 0, quantity).label : '';
    const unit = quantity ? text.meta(device?.moduleId ?? 0, quantity).unit : '';
    const asPoints = (f: 'original' | 'smoothed') =>
      pts.map((p) => ({ ts: p.ts, value: p[f], rate: null, acceleration: null, variation: 0 }));
    return timeChartOption(
      [
        { name: `${label} · ${t('processing.original')}`, unit, points: asPoints('original'), color: '#8c8c8c' },
        { name: `${label} · ${t('processing.smoothed')}`, unit, points: asPoints('smoothed'), color: '#1677ff' },
      ],
      { min: t('col.min'), max: t('col.max') },
      zone,
    );
  }, [preview.data, quantity, device, text, zone, t]);

  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['monitor'] });
    setSelected([]);
  };
  const smooth = useMutation({
    mutationFn: () =>
      applySmooth({
        deviceId: device!.deviceId,
        quantity: quantity!,
        startTime: preview.data!.from,
        endTime: preview.data!.to,
        method,
        window: windowSize,
      }),
    onSuccess: (r) => {
      void message.success(t('processing.smoothDone', { count: r.changed }));
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (p: { startTime?: string; endTime?: string; ts?: string[] }) =>
      deleteData({ deviceId: device!.deviceId, ...p }),
    onSuccess: (r) => {
      void message.success(t('processing.deleteDone', { count: r.deleted }));
      setDeleteRange(null);
      refresh();
    },
  });
  const edit = useMutation({
    mutationFn: (v: { dN?: number; dE?: number; dH?: number }) =>
      editGnss({ deviceId: device!.deviceId, ts: editing!.ts, ...v }),
    onSuccess: () => {
      void message.success(t('processing.editDone'));
      setEditing(null);
      refresh();
    },
  });

  const confirmSmooth = () =>
    modal.confirm({
      title: t('processing.applyTitle'),
      content: t('processing.applyConfirm', {
        device: device?.deviceName,
        from: fmtTime(preview.data?.from),
        to: fmtTime(preview.data?.to),
      }),
      okText: t('processing.apply'),
      onOk: () => smooth.mutateAsync(),
    });
  const confirmDeleteRange = () => {
    if (!deleteRange) return;
    modal.confirm({
      title: t('processing.deleteTitle'),
      content: t('processing.deleteRangeConfirm', {
        device: device?.deviceName,
        from: deleteRange[0].format('YYYY-MM-DD HH:mm'),
        to: deleteRange[1].format('YYYY-MM-DD HH:mm'),
      }),
      okButtonProps: { danger: true },
      okText: t('processing.delete'),
      onOk: () =>
        remove.mutateAsync({
          // The picked wall clock is the user's zone's, not the browser's.
          startTime: new Date(wallToInstant(deleteRange[0], zone)).toISOString(),
          endTime: new Date(wallToInstant(deleteRange[1], zone)).toISOString(),
        }),
    });
  };
  const confirmDeleteSelected = () =>
    modal.confirm({
      title: t('processing.deleteTitle'),
      content: t('processing.deleteSelectedConfirm', { count: selected.length, device: device?.deviceName }),
      okButtonProps: { danger: true },
      okText: t('processing.delete'),
      onOk: () => remove.mutateAsync({ ts: selected }),
    });

  const qCols = quantities.filter((q) => rows.some((r) => r.values[q.key] !== undefined));
  const columns: TableColumnsType<ReadingRow> = [
    { key: 'ts', title: withZone(t('col.time'), zoneLabel), width: 180, render: (_, r) => fmtTime(r.ts) },
    ...qCols.map((q) => ({
      key: q.key,
      title: q.unit ? `${q.text} (${q.unit})` : q.text,
      render: (_: unknown, r: ReadingRow) => fmtValue(r.values[q.key]),
    })),
    ...(isGnss
      ? [
          {
            key: 'edit',
            title: t('col.actions'),
            width: 90,
            render: (_: unknown, r: ReadingRow) => (
              <Button
                size="small"
                type="link"
                icon={<EditOutlined />}
                data-testid={`gnss-edit-${r.ts}`}
                onClick={() => setEditing(r)}
              >
                {t('processing.edit')}
              </Button>
            ),
          },
        ]
      : []),
  ];

  return (
    <Flex vertical gap={12} data-testid="monitor-processing">
      <Card className="gs-monitor-toolbar" variant="borderless">
        <Flex gap={12} wrap align="center">
          <h5 className="gs-section-title">{t('processing.title')}</h5>
          <SitePicker sites={sites} value={platformId} onChange={setPlatformId} loading={sitesLoading} />
          <DevicePicker devices={siteDevices.data ?? []} value={device?.deviceId} onChange={setDeviceId} />
          <QuantityPicker moduleId={device?.moduleId} value={quantity} onChange={setQuantity} />
          <TimeRangePicker value={range} onChange={setRange} />
        </Flex>
      </Card>
      {!complete ? <Alert type="warning" showIcon title={t('error.rangeIncomplete')} /> : null}
      {!device && !siteDevices.isLoading ? (
        <Card variant="borderless">
          <Empty description={t('empty.noDevices')} />
        </Card>
      ) : (
        <Row gutter={[12, 12]}>
          <Col xs={24} xl={14}>
            <Card
              variant="borderless"
              title={t('processing.smoothing')}
              styles={{ body: { padding: 12 } }}
              extra={
                <Flex gap={8} wrap align="center">
                  <Select<SmoothMethod>
                    data-testid="smooth-method"
                    style={{ width: 150 }}
                    value={method}
                    onChange={setMethod}
                    options={SMOOTH_METHODS.map((m) => ({ value: m, label: t(`processing.method.${m}`) }))}
                  />
                  <InputNumber
                    data-testid="smooth-window"
                    style={{ width: 120 }}
                    min={MODULE_DATA_LIMITS.minSmoothWindow}
                    max={MODULE_DATA_LIMITS.maxSmoothWindow}
                    step={2}
                    value={windowSize}
                    onChange={(v) => setWindowSize(v ?? 5)}
                    prefix={t('processing.window')}
                    status={windowOk ? undefined : 'error'}
                  />
                  <Button
                    icon={<EyeOutlined />}
                    onClick={() => setPreviewOn(true)}
                    disabled={!windowOk}
                    data-testid="smooth-preview"
                  >
                    {t('processing.preview')}
                  </Button>
                  <Button
                    type="primary"
                    icon={<CheckOutlined />}
                    disabled={!preview.data || preview.data.points.length === 0}
                    onClick={confirmSmooth}
                    data-testid="smooth-apply"
                  >
                    {t('processing.apply')}
                  </Button>
                </Flex>
              }
            >
              {!windowOk ? (
                <Alert type="error" showIcon title={t('processing.windowRule')} style={{ marginBottom: 8 }} />
              ) : null}
              {preview.isError ? <Alert type="error" showIcon title={(preview.error as Error).message} /> : null}
              {!previewOn ? (
                <Empty description={t('processing.previewHint')} />
              ) : preview.data && preview.data.points.length === 0 ? (
                <Empty description={t('empty.noData')} />
              ) : (
                <EChart option={option} notMerge height={380} loading={preview.isFetching} data-testid="smooth-chart" />
              )}
            </Card>
          </Col>
          <Col xs={24} xl={10}>
            <Card variant="borderless" title={t('processing.deleteRange')} styles={{ body: { padding: 12 } }}>
              <Flex gap={8} wrap>
                <DatePicker.RangePicker
                  data-testid="delete-range"
                  showTime={{ format: 'HH:mm' }}
                  format="YYYY-MM-DD HH:mm"
                  value={deleteRange}
                  onChange={(v) => setDeleteRange(v && v[0] && v[1] ? [v[0], v[1]] : null)}
                  disabledDate={(d) => d.format('YYYY-MM-DD') > todayDate(zone)}
                />
                <ZoneTag testId="delete-range-zone" />
                <Button
                  danger
                  icon={<DeleteOutlined />}
                  disabled={!deleteRange || !device}
                  onClick={confirmDeleteRange}
                  data-testid="delete-range-go"
                >
                  {t('processing.delete')}
                </Button>
              </Flex>
            </Card>
            <Card
              variant="borderless"
              style={{ marginTop: 12 }}
              title={t('processing.readings')}
              styles={{ body: { padding: 12 } }}
              extra={
                <Button
                  danger
                  size="small"
                  icon={<DeleteOutlined />}
                  disabled={selected.length === 0}
                  onClick={confirmDeleteSelected}
                  data-testid="delete-selected"
                >
                  {t('processing.deleteSelected', { count: selected.length })}
                </Button>
              }
            >
              {downsampled ? (
                <Alert type="info" showIcon title={t('processing.readingsDownsampled')} style={{ marginBottom: 8 }} />
              ) : null}
              <Table<ReadingRow>
                data-testid="processing-table"
                rowKey="ts"
                size="small"
                columns={columns}
                dataSource={rows}
                loading={readings.isFetching}
                rowSelection={{ selectedRowKeys: selected, onChange: (k) => setSelected(k.map(String)) }}
                pagination={{ defaultPageSize: 10, showSizeChanger: false, size: 'small' }}
                scroll={{ x: 480 }}
                locale={{ emptyText: <Empty description={t('empty.noData')} /> }}
              />
            </Card>
          </Col>
        </Row>
      )}
      <Modal
        open={editing !== null}
        title={t('processing.editTitle', { time: fmtTime(editing?.ts) })}
        okText={t('processing.save')}
        onCancel={() => setEditing(null)}
        confirmLoading={edit.isPending}
        onOk={() =>
          void form.validateFields().then((v) => {
            modal.confirm({
              title: t('processing.editTitle', { time: fmtTime(editing?.ts) }),
              content: t('processing.editConfirm'),
              onOk: () => edit.mutateAsync(v),
            });
          })
        }
        destroyOnHidden
      >
        <Form
          key={editing?.ts}
          form={form}
          layout="vertical"
          preserve={false}
          initialValues={{ dN: editing?.values.dN, dE: editing?.values.dE, dH: editing?.values.dH }}
        >
          {(['dN', 'dE', 'dH'] as const).map((k) => (
            <Form.Item key={k} name={k} label={`${text.meta(GNSS_MODULE_ID, k).label} (mm)`}>
              <InputNumber style={{ width: '100%' }} id={`gnss-${k}`} />
            </Form.Item>
          ))}
        </Form>
      </Modal>
    </Flex>
  );
}
