import { useEffect, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { Button, DatePicker, Flex, Form, InputNumber, Modal, Select, Typography, message } from 'antd';
import { PlusOutlined, RiseOutlined } from '@ant-design/icons';
import type { RiverWaterElevationRow } from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { formatTime } from '../../shared/time.ts';
import { instantToWall, wallToInstant } from '../../shared/time.ts';
import { useTimeZone, withZone } from '../../shared/useTimeZone.ts';
import { SitePicker } from './SitePicker.tsx';
import {
  RIVER_WATER_SORT_FIELDS,
  addRiverWater,
  deleteRiverWater,
  fetchRiverWater,
  fetchSectionsOfSite,
  sectionKeys,
  type RiverWaterListParams,
} from './sectionsApi.ts';

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
 * River water elevation: manually entered water elevations of river sections in the shared ServerTable: paged,
 * sorted (time, river, section, elevation, entered) and filtered (river, section, time) by the server, the state
 * in the address. Test hooks: river-site, river-section, river-range, river-water-add, river-water-table,
 * river-water-delete(-confirm).
 */
export default function RiverWaterPage() {
  const { t } = useTranslation('sections');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const { zone, label: zoneName } = useTimeZone();
  const table = useServerTable<RiverWaterListParams>(
    { pageNum: 1, pageSize: 20, sortField: 'time', sortOrder: 'descend' },
    RIVER_WATER_SORT_FIELDS,
    { filters: { platformId: 'number', segmentId: 'number', startTime: 'string', endTime: 'string' } },
  );
  const { params, setFilter } = table;
  // The picked times, shown again from the address's instants (wall clock of the user's time zone).
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(() => {
    const wall = (v: string | undefined) => {
      const ms = v ? Date.parse(v) : NaN;
      return Number.isFinite(ms) ? instantToWall(ms, zone) : null;
    };
    return params.startTime || params.endTime ? [wall(params.startTime), wall(params.endTime)] : null;
  });
  const [adding, setAdding] = useState(false);
  const sections = useRiverSections(params.platformId);
  const list = useQuery({
    queryKey: sectionKeys.riverWater(params),
    queryFn: () => fetchRiverWater(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['sections', 'riverWater'] });

  const columns: ServerColumn<RiverWaterElevationRow>[] = [
    {
      title: withZone(t('river.time'), zoneName),
      dataIndex: 'time',
      key: 'time',
      width: 190,
      sortable: true,
      hideable: false,
      render: (v: string) => formatTime(v),
    },
    { title: t('river.river'), dataIndex: 'platformName', key: 'platformName', width: 200, sortable: true },
    { title: t('river.section'), dataIndex: 'segmentName', key: 'segmentName', width: 180, sortable: true },
    {
      title: `${t('river.elevation')} (${t('units.m')})`,
      dataIndex: 'elevation',
      key: 'elevation',
      width: 160,
      align: 'right',
      sortable: true,
      render: (v: number) => <Typography.Text strong>{v}</Typography.Text>,
    },
    {
      title: withZone(t('river.enteredAt'), zoneName),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 190,
      sortable: true,
      optional: true,
      render: (v: string) => formatTime(v),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 100,
      render: (_v, row) => (
        <DeleteAction
          title={t('confirm.deleteReading')}
          label={t('actions.delete')}
          data-testid="river-water-delete"
          onDelete={() => deleteRiverWater(row.id)}
          success={t('messages.deleted')}
          onDone={() => {
            table.afterDelete(list.data?.list.length ?? 0);
            void refresh();
          }}
        />
      ),
    },
  ];

  return (
    <ListPage icon={<RiseOutlined />} title={t('river.title')} description={t('river.description')}>
      {msgHolder}
      <ServerTable<RiverWaterElevationRow>
        tableId="sections.riverWater"
        rowKey="id"
        data-testid="river-water-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(total) => t('river.total', { count: total })}
        filters={
          <>
            <SitePicker
              data-testid="river-site"
              kinds={['river']}
              allowClear
              style={{ width: 190 }}
              placeholder={t('river.allRivers')}
              value={params.platformId}
              onChange={(id) => setFilter({ platformId: id, segmentId: undefined })}
            />
            <Select<number>
              data-testid="river-section"
              allowClear
              style={{ width: 150 }}
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
              style={{ width: 340 }}
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
                table.resetFilters();
              }}
            >
              {t('filters.reset')}
            </Button>
          </>
        }
        actions={
          <Button type="primary" icon={<PlusOutlined />} data-testid="river-water-add" onClick={() => setAdding(true)}>
            {t('river.add')}
          </Button>
        }
      />
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
    </ListPage>
  );
}
