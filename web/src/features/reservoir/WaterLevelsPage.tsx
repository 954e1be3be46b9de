import { useEffect, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { Button, DatePicker, Flex, Form, InputNumber, Modal, Select, Space, Typography, message } from 'antd';
import { EditOutlined, PlusOutlined, RiseOutlined } from '@ant-design/icons';
import type { ManualWaterRow } from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { formatTime, instantToWall, wallToInstant } from '../../shared/time.ts';
import { useTimeZone, withZone } from '../../shared/useTimeZone.ts';
import { useSiteOptions } from '../../shared/sites.ts';
import {
  WATER_LIST_SORT_FIELDS,
  addLevel,
  deleteLevel,
  editLevel,
  fetchLevels,
  fetchSections,
  reservoirKeys,
  type WaterListParams,
} from './reservoirApi.ts';

interface EntryValues {
  platformId?: number;
  segmentId?: number;
  time: Dayjs;
  elevation: number;
}

function useReservoirs() {
  const { sites } = useSiteOptions();
  return sites.filter((s) => s.type === 'reservoir');
}

function useSections(platformId: number | undefined) {
  return useQuery({
    queryKey: reservoirKeys.sections(platformId ?? 0),
    queryFn: () => fetchSections(platformId ?? 0),
    enabled: platformId !== undefined,
  });
}

/** Adds or edits one manual water level. Inputs: #reservoirLevel-*, save: reservoir-level-save. */
function EntryModal({
  open,
  editing,
  platformId: initialSite,
  onClose,
  onSaved,
}: {
  open: boolean;
  editing: ManualWaterRow | null;
  platformId?: number | undefined;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('reservoir');
  const [form] = Form.useForm<EntryValues>();
  const { zone, label: zoneName } = useTimeZone();
  const reservoirs = useReservoirs();
  const siteId = Form.useWatch('platformId', form);
  const sections = useSections(siteId);
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing)
      form.setFieldsValue({
        platformId: editing.platformId,
        segmentId: editing.segmentId,
        time: instantToWall(Date.parse(editing.time), zone),
        elevation: editing.elevation,
      });
    else
      form.setFieldsValue({ platformId: initialSite, time: instantToWall(Date.now(), zone).second(0).millisecond(0) });
  }, [open, editing, initialSite, form, zone]);
  const save = useMutation({
    mutationFn: (v: EntryValues) => {
      const time = new Date(wallToInstant(v.time, zone)).toISOString();
      return editing ? editLevel(editing.id, time, v.elevation) : addLevel(v.segmentId ?? 0, time, v.elevation);
    },
    onSuccess: onSaved,
  });
  return (
    <Modal
      open={open}
      title={editing ? t('levels.editTitle') : t('levels.addTitle')}
      onCancel={onClose}
      okText={t('form.save')}
      cancelText={t('form.cancel')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'reservoir-level-save' }}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form<EntryValues> form={form} name="reservoirLevel" layout="vertical" onFinish={(v) => save.mutate(v)}>
        <Form.Item
          name="platformId"
          htmlFor="reservoirLevel-platformId"
          label={t('levels.reservoir')}
          rules={[{ required: true, message: t('validation.site') }]}
        >
          <Select<number>
            id="reservoirLevel-platformId"
            disabled={!!editing}
            showSearch
            optionFilterProp="label"
            options={reservoirs.map((s) => ({ value: s.platformId, label: s.name }))}
            onChange={() => form.setFieldValue('segmentId', undefined)}
          />
        </Form.Item>
        <Form.Item
          name="segmentId"
          htmlFor="reservoirLevel-segmentId"
          label={t('levels.section')}
          rules={[{ required: true, message: t('validation.section') }]}
          extra={siteId !== undefined && sections.data?.length === 0 ? t('levels.noSections') : undefined}
        >
          <Select<number>
            id="reservoirLevel-segmentId"
            disabled={siteId === undefined || !!editing}
            loading={sections.isFetching}
            options={(sections.data ?? []).map((s) => ({ value: s.segmentId, label: s.name }))}
          />
        </Form.Item>
        <Flex gap={16}>
          <Form.Item
            name="time"
            htmlFor="reservoirLevel-time"
            label={withZone(t('levels.time'), zoneName)}
            style={{ flex: 1 }}
            rules={[{ required: true, message: t('validation.time') }]}
          >
            <DatePicker id="reservoirLevel-time" showTime format="YYYY-MM-DD HH:mm:ss" style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item
            name="elevation"
            htmlFor="reservoirLevel-elevation"
            label={t('levels.elevation')}
            style={{ flex: 1 }}
            rules={[{ required: true, message: t('validation.elevation') }]}
          >
            <InputNumber<number> id="reservoirLevel-elevation" style={{ width: '100%' }} precision={3} suffix="m" />
          </Form.Item>
        </Flex>
      </Form>
    </Modal>
  );
}

/**
 * Manual water levels of reservoirs (information:reservoirWater): paged, sorted and filtered by the server with the
 * state in the address; the storage of each level from the capacity table. Test hooks: reservoir-site,
 * reservoir-section, reservoir-level-add, reservoir-level-table, reservoir-level-edit, reservoir-level-delete.
 */
export default function WaterLevelsPage() {
  const { t } = useTranslation('reservoir');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const { label: zoneName } = useTimeZone();
  const reservoirs = useReservoirs();
  const table = useServerTable<WaterListParams>(
    { pageNum: 1, pageSize: 20, sortField: 'time', sortOrder: 'descend' },
    WATER_LIST_SORT_FIELDS,
    { filters: { platformId: 'number', segmentId: 'number' } },
  );
  const { params, setFilter } = table;
  const [entry, setEntry] = useState<{ editing: ManualWaterRow | null } | null>(null);
  const sections = useSections(params.platformId);
  const list = useQuery({
    queryKey: reservoirKeys.levels(params),
    queryFn: () => fetchLevels(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['reservoir', 'levels'] });
  const columns: ServerColumn<ManualWaterRow>[] = [
    {
      title: withZone(t('levels.time'), zoneName),
      dataIndex: 'time',
      key: 'time',
      width: 170,
      sortable: true,
      hideable: false,
      render: (v: string) => formatTime(v),
    },
    { title: t('levels.reservoir'), dataIndex: 'platformName', key: 'platformName', width: 180, sortable: true },
    { title: t('levels.section'), dataIndex: 'segmentName', key: 'segmentName', width: 140, sortable: true },
    {
      title: `${t('levels.elevation')} (m)`,
      dataIndex: 'elevation',
      key: 'elevation',
      width: 130,
      align: 'right',
      sortable: true,
      render: (v: number) => <Typography.Text strong>{v}</Typography.Text>,
    },
    {
      title: `${t('levels.storage')} (${t('units.storage')})`,
      dataIndex: 'storage',
      key: 'storage',
      width: 140,
      align: 'right',
      render: (v: number | null) => v ?? <Typography.Text type="secondary">{t('levels.outside')}</Typography.Text>,
    },
    {
      title: withZone(t('levels.enteredAt'), zoneName),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 190,
      sortable: true,
      optional: true,
      render: (v: string) => formatTime(v),
    },
    {
      title: t('levels.actions'),
      key: 'actions',
      width: 150,
      render: (_v, row) => (
        <Space>
          <Button
            type="link"
            size="small"
            icon={<EditOutlined />}
            data-testid="reservoir-level-edit"
            onClick={() => setEntry({ editing: row })}
          >
            {t('levels.edit')}
          </Button>
          <DeleteAction
            title={t('levels.confirmDelete')}
            label={t('levels.delete')}
            data-testid="reservoir-level-delete"
            onDelete={() => deleteLevel(row.id)}
            success={t('levels.deleted')}
            onDone={() => {
              table.afterDelete(list.data?.list.length ?? 0);
              void refresh();
            }}
          />
        </Space>
      ),
    },
  ];
  return (
    <ListPage icon={<RiseOutlined />} title={t('levels.title')} description={t('levels.description')}>
      {msgHolder}
      <ServerTable<ManualWaterRow>
        tableId="reservoir.levels"
        rowKey="id"
        data-testid="reservoir-level-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(total) => t('levels.total', { count: total })}
        filters={
          <>
            <Select<number>
              data-testid="reservoir-site"
              allowClear
              style={{ width: 200 }}
              placeholder={t('levels.allReservoirs')}
              value={params.platformId}
              options={reservoirs.map((s) => ({ value: s.platformId, label: s.name }))}
              onChange={(id) => setFilter({ platformId: id ?? undefined, segmentId: undefined })}
            />
            <Select<number>
              data-testid="reservoir-section"
              allowClear
              style={{ width: 160 }}
              disabled={params.platformId === undefined}
              placeholder={t('levels.allSections')}
              value={params.segmentId}
              options={(sections.data ?? []).map((s) => ({ value: s.segmentId, label: s.name }))}
              onChange={(v) => setFilter({ segmentId: v ?? undefined })}
            />
            <Button onClick={() => table.resetFilters()}>{t('levels.reset')}</Button>
          </>
        }
        actions={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            data-testid="reservoir-level-add"
            onClick={() => setEntry({ editing: null })}
          >
            {t('levels.add')}
          </Button>
        }
      />
      <EntryModal
        open={entry !== null}
        editing={entry?.editing ?? null}
        platformId={params.platformId}
        onClose={() => setEntry(null)}
        onSaved={() => {
          void msg.success(entry?.editing ? t('levels.modified') : t('levels.added'));
          setEntry(null);
          void refresh();
        }}
      />
    </ListPage>
  );
}
