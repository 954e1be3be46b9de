import { useEffect, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import {
  Button,
  Card,
  DatePicker,
  Flex,
  Form,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Table,
  Tooltip,
  Typography,
  message,
} from 'antd';
import type { TableColumnsType, TableProps } from 'antd';
import { PlusOutlined, ReloadOutlined, RiseOutlined } from '@ant-design/icons';
import type { RiverWaterElevationRow } from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { formatTime } from '../../shared/time.ts';
import { instantToWall, wallToInstant } from '../../shared/time.ts';
import { useTimeZone, withZone } from '../../shared/useTimeZone.ts';
import { SitePicker } from './SitePicker.tsx';
import {
  addRiverWater,
  deleteRiverWater,
  fetchRiverWater,
  fetchSectionsOfSite,
  sectionKeys,
  type RiverWaterListParams,
} from './sectionsApi.ts';

const PAGE_SIZES = [10, 20, 50, 100];

interface EntryValues {
  platformId?: number;
  segmentId?: number;
  time: Dayjs;
  elevation: number;
}

/** The sections of a river, for a select. */
function useRiverSections(platformId: number | undefined) {
  return useQuery({
    queryKey: sectionKeys.ofSite(platformId ?? 0),
    queryFn: () => fetchSectionsOfSite(platformId ?? 0),
    enabled: platformId !== undefined,
  });
}

/** Enters one manual water elevation of a river section. Inputs: #riverWater-*, save: river-water-save. */
function EntryModal({
  open,
  platformId: initialSite,
  onClose,
  onSaved,
}: {
  open: boolean;
  platformId?: number | undefined;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('sections');
  const [form] = Form.useForm<EntryValues>();
  // The picked time is that wall clock in the user's zone (issue 14), whatever the browser's zone.
  const { zone, label: zoneName } = useTimeZone();
  const siteId = Form.useWatch('platformId', form);
  const sections = useRiverSections(siteId);
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue({ platformId: initialSite, time: instantToWall(Date.now(), zone).second(0).millisecond(0) });
  }, [open, initialSite, form, zone]);
  const save = useMutation({
    mutationFn: (v: EntryValues) =>
      addRiverWater(v.segmentId ?? 0, new Date(wallToInstant(v.time, zone)).toISOString(), v.elevation),
    onSuccess: onSaved,
  });
  return (
    <Modal
      open={open}
      title={t('river.addTitle')}
      onCancel={onClose}
      okText={t('form.save')}
      cancelText={t('form.cancel')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'river-water-save' }}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form<EntryValues> form={form} name="riverWater" layout="vertical" onFinish={(v) => save.mutate(v)}>
        <Form.Item
          name="platformId"
          htmlFor="riverWater-platformId"
          label={t('river.river')}
          rules={[{ required: true, message: t('validation.siteRequired') }]}
        >
          <SitePicker
            id="riverWater-platformId"
            kinds={['river']}
            placeholder={t('river.pickRiver')}
            onChange={() => form.setFieldValue('segmentId', undefined)}
          />
        </Form.Item>
        <Form.Item
          name="segmentId"
          htmlFor="riverWater-segmentId"
          label={t('river.section')}
          rules={[{ required: true, message: t('validation.sectionRequired') }]}
          extra={siteId !== undefined && sections.data?.length === 0 ? t('river.noSections') : undefined}
        >
          <Select<number>
            id="riverWater-segmentId"
            disabled={siteId === undefined}
            loading={sections.isFetching}
            placeholder={t('river.pickSection')}
            options={(sections.data ?? []).map((s) => ({ value: s.segmentId, label: s.name }))}
          />
        </Form.Item>
        <Flex gap={16}>
          <Form.Item
            name="time"
            htmlFor="riverWater-time"
            label={withZone(t('river.time'), zoneName)}
            style={{ flex: 1 }}
            rules={[{ required: true, message: t('validation.timeRequired') }]}
          >
            <DatePicker id="riverWater-time" showTime format="YYYY-MM-DD HH:mm:ss" style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item
            name="elevation"
            htmlFor="riverWater-elevation"
            label={t('river.elevation')}
            style={{ flex: 1 }}
            rules={[{ required: true, message: t('validation.elevationRequired') }]}
          >
            <InputNumber<number>
              id="riverWater-elevation"
              style={{ width: '100%' }}
              precision={3}
              suffix={t('units.m')}
            />
          </Form.Item>
        </Flex>
      </Form>
    </Modal>
  );
}

/**
 * River water elevation: manually entered water elevations of river sections, paged on the server and
 * filtered by river, section and time; add and delete. Test hooks: river-site, river-section, river-range,
 * river-water-add, river-water-table, river-water-delete(-confirm).
 */
export default function RiverWaterPage() {
  const { t } = useTranslation('sections');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [tableTop, scrollY] = useTableScrollY();
  const [params, setParams] = useState<RiverWaterListParams>({ pageNum: 1, pageSize: 20 });
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const { zone, label: zoneName } = useTimeZone();
  const [adding, setAdding] = useState(false);
  const sections = useRiverSections(params.platformId);
  const list = useQuery({
    queryKey: sectionKeys.riverWater(params),
    queryFn: () => fetchRiverWater(params),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['sections', 'riverWater'] });
  const setFilter = (patch: Partial<RiverWaterListParams>) => setParams((p) => ({ ...p, ...patch, pageNum: 1 }));

  const remove = useMutation({
    mutationFn: (id: number) => deleteRiverWater(id),
    onSuccess: () => {
      void msg.success(t('messages.deleted'));
      if ((list.data?.list.length ?? 0) <= 1 && params.pageNum > 1)
        setParams((p) => ({ ...p, pageNum: p.pageNum - 1 }));
      void refresh();
    },
  });

  const onTableChange: TableProps<RiverWaterElevationRow>['onChange'] = (pagination, _filters, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    setParams((p) => {
      const sortOrder = s?.columnKey === 'time' && s.order === 'ascend' ? 'ascend' : undefined;
      const pageSize = pagination.pageSize ?? p.pageSize;
      return {
        ...p,
        sortOrder,
        pageSize,
        pageNum: sortOrder !== p.sortOrder || pageSize !== p.pageSize ? 1 : (pagination.current ?? 1),
      };
    });
  };

  const columns: TableColumnsType<RiverWaterElevationRow> = [
    {
      title: withZone(t('river.time'), zoneName),
      dataIndex: 'time',
      key: 'time',
      width: 180,
      sorter: true,
      sortOrder: params.sortOrder === 'ascend' ? 'ascend' : 'descend',
      sortDirections: ['descend', 'ascend', 'descend'],
      render: (v: string) => formatTime(v),
    },
    { title: t('river.river'), dataIndex: 'platformName', key: 'platformName', width: 200, ellipsis: true },
    { title: t('river.section'), dataIndex: 'segmentName', key: 'segmentName', width: 180, ellipsis: true },
    {
      title: `${t('river.elevation')} (${t('units.m')})`,
      dataIndex: 'elevation',
      key: 'elevation',
      width: 160,
      render: (v: number) => <Typography.Text strong>{v}</Typography.Text>,
    },
    {
      title: withZone(t('river.enteredAt'), zoneName),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 180,
      render: (v: string) => formatTime(v),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 100,
      fixed: 'right',
      render: (_v, row) => (
        <Popconfirm
          title={t('confirm.deleteReading')}
          okText={t('actions.delete')}
          okButtonProps={{ danger: true, 'data-testid': 'river-water-delete-confirm' }}
          cancelText={t('form.cancel')}
          onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
        >
          <Button type="link" size="small" danger data-testid="river-water-delete">
            {t('actions.delete')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Flex vertical gap={16}>
      {msgHolder}
      <PageHeaderCard icon={<RiseOutlined />} title={t('river.title')} description={t('river.description')} />
      <Card variant="borderless" styles={{ body: { paddingBottom: 8 } }}>
        <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 16 }}>
          <Flex gap={12} wrap align="center">
            <SitePicker
              data-testid="river-site"
              kinds={['river']}
              allowClear
              style={{ width: 240 }}
              placeholder={t('river.allRivers')}
              value={params.platformId}
              onChange={(id) => setFilter({ platformId: id, segmentId: undefined })}
            />
            <Select<number>
              data-testid="river-section"
              allowClear
              style={{ width: 200 }}
              disabled={params.platformId === undefined}
              placeholder={t('river.allSections')}
              value={params.segmentId}
              loading={sections.isFetching}
              options={(sections.data ?? []).map((s) => ({ value: s.segmentId, label: s.name }))}
              onChange={(v) => setFilter({ segmentId: v ?? undefined })}
            />
            <DatePicker.RangePicker
              data-testid="river-range"
              showTime
              value={range}
              onChange={(v) => {
                setRange(v);
                const iso = (d: Dayjs | null | undefined) =>
                  d ? new Date(wallToInstant(d, zone)).toISOString() : undefined;
                setFilter({ startTime: iso(v?.[0]), endTime: iso(v?.[1]) });
              }}
            />
            <Button
              onClick={() => {
                setRange(null);
                setParams((p) => ({ pageNum: 1, pageSize: p.pageSize, sortOrder: p.sortOrder }));
              }}
            >
              {t('filters.reset')}
            </Button>
          </Flex>
          <Flex gap={8}>
            <Tooltip title={t('actions.reload')}>
              <Button icon={<ReloadOutlined />} aria-label={t('actions.reload')} onClick={() => void refresh()} />
            </Tooltip>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              data-testid="river-water-add"
              onClick={() => setAdding(true)}
            >
              {t('river.add')}
            </Button>
          </Flex>
        </Flex>
        <div ref={tableTop}>
          <Table<RiverWaterElevationRow>
            rowKey="id"
            size="middle"
            data-testid="river-water-table"
            columns={columns}
            dataSource={list.data?.list ?? []}
            loading={list.isFetching}
            onChange={onTableChange}
            scroll={{ x: 1000, y: scrollY }}
            pagination={{
              current: params.pageNum,
              pageSize: params.pageSize,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              pageSizeOptions: PAGE_SIZES,
              showTotal: (total) => t('river.total', { count: total }),
            }}
          />
        </div>
      </Card>
      <EntryModal
        open={adding}
        platformId={params.platformId}
        onClose={() => setAdding(false)}
        onSaved={() => {
          void msg.success(t('messages.readingAdded'));
          setAdding(false);
          void refresh();
        }}
      />
    </Flex>
  );
}
