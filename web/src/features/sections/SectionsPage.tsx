import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Input, Popconfirm, Tag, Tooltip, Typography, message } from 'antd';
import { NodeIndexOutlined, PlusOutlined } from '@ant-design/icons';
import { MIN_UPSTREAM_COORDS, SECTION_PLATFORM_TYPES, SECTION_SORT_FIELDS, type SectionRow } from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { formatTime } from '../../shared/time.ts';
import { SitePicker } from './SitePicker.tsx';
import { SectionDrawer, type SectionTarget } from './SectionDrawer.tsx';
import { deleteSection, fetchSections, sectionKeys, type SectionListParams } from './sectionsApi.ts';

const dash = <Typography.Text type="secondary">-</Typography.Text>;
export const KIND_COLORS: Record<string, string> = {
  disaster: 'volcano',
  sideslope: 'orange',
  reservoir: 'blue',
  river: 'cyan',
};

/**
 * Sections (segments) of reservoirs, rivers, hazard points and slopes: a server-paged list, filtered by site
 * and name, with add, edit (coordinates, water level, capacity table, core-wall devices) and delete.
 * Test hooks: section-filter-site, section-search, section-add, section-table, section-edit, section-delete(-confirm).
 */
export default function SectionsPage() {
  const { t } = useTranslation('sections');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const table = useServerTable<SectionListParams>({ pageNum: 1, pageSize: 20 }, SECTION_SORT_FIELDS, {
    filters: { platformId: 'number', keyword: 'string' },
  });
  const { params, setFilter } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
  const [target, setTarget] = useState<SectionTarget | null>(null);

  const list = useQuery({
    queryKey: sectionKeys.list(params),
    queryFn: () => fetchSections(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: sectionKeys.all });

  const remove = useMutation({
    mutationFn: (id: number) => deleteSection(id),
    onSuccess: () => {
      void msg.success(t('messages.deleted'));
      table.afterDelete(list.data?.list.length ?? 0);
      void refresh();
    },
  });

  const columns: ServerColumn<SectionRow>[] = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      key: 'name',
      width: 160,
      sortable: true,
      render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
    },
    {
      title: t('fields.site'),
      dataIndex: 'platformName',
      key: 'platformName',
      width: 220,
      sortable: true,
      ellipsis: true,
      // One line: the kind, then the name (cut with an ellipsis, whole in the tooltip).
      render: (v: string, row) => (
        <Tooltip placement="topLeft" title={v}>
          <span>
            <Tag color={KIND_COLORS[row.platformType]}>{t(`kinds.${row.platformType}`)}</Tag>
            {v}
          </span>
        </Tooltip>
      ),
    },
    {
      title: t('fields.bottomElevation'),
      dataIndex: 'bottomElevation',
      key: 'bottomElevation',
      width: 130,
      render: (v: number | null) => (v !== null ? `${v} ${t('units.m')}` : dash),
    },
    {
      title: t('fields.upstream'),
      key: 'upstream',
      width: 130,
      render: (_v, row) =>
        row.upstreamCoords.length >= MIN_UPSTREAM_COORDS ? (
          <Tag color="green">{t('list.points', { count: row.upstreamCoords.length })}</Tag>
        ) : (
          <Tag>{t('list.notSet')}</Tag>
        ),
    },
    {
      title: t('fields.waterLevel'),
      key: 'water',
      width: 170,
      render: (_v, row) => (
        <Flex gap={6} align="center">
          <Tag color={row.waterLevelSource === 'auto' ? 'green' : 'blue'}>
            {t(`water.sources.${row.waterLevelSource}`)}
          </Tag>
          {row.waterLevelSource === 'manual' && row.manualWaterLevel !== null
            ? `${row.manualWaterLevel} ${t('units.m')}`
            : null}
        </Flex>
      ),
    },
    {
      title: t('fields.info'),
      dataIndex: 'info',
      key: 'info',
      width: 220,
      optional: true,
    },
    {
      title: t('fields.createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 170,
      sortable: true,
      optional: true,
      render: (v: string) => formatTime(v),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 140,
      render: (_v, row) => (
        <Flex gap={0} wrap={false}>
          <Button
            type="link"
            size="small"
            data-testid="section-edit"
            onClick={() => setTarget({ mode: 'edit', platformId: row.platformId, segmentId: row.segmentId })}
          >
            {t('actions.edit')}
          </Button>
          <Popconfirm
            title={t('confirm.deleteTitle', { name: row.name })}
            description={t('confirm.deleteContent')}
            okText={t('actions.delete')}
            okButtonProps={{ danger: true, 'data-testid': 'section-delete-confirm' }}
            cancelText={t('form.cancel')}
            onConfirm={() => remove.mutateAsync(row.segmentId).catch(() => undefined)}
          >
            <Button type="link" size="small" danger data-testid="section-delete">
              {t('actions.delete')}
            </Button>
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  return (
    <ListPage icon={<NodeIndexOutlined />} title={t('title')} description={t('description')}>
      {msgHolder}
      <ServerTable<SectionRow>
        tableId="sections"
        rowKey="segmentId"
        data-testid="section-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(total) => t('list.total', { count: total })}
        filters={
          <>
            <SitePicker
              data-testid="section-filter-site"
              kinds={SECTION_PLATFORM_TYPES}
              allowClear
              style={{ width: 280 }}
              placeholder={t('filters.site')}
              value={params.platformId}
              onChange={(id) => setFilter({ platformId: id })}
            />
            <Input.Search
              allowClear
              data-testid="section-search"
              style={{ width: 240 }}
              placeholder={t('filters.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
            />
            <Button
              onClick={() => {
                setKeywordInput('');
                table.resetFilters();
              }}
            >
              {t('filters.reset')}
            </Button>
          </>
        }
        actions={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            data-testid="section-add"
            onClick={() => setTarget({ mode: 'add', platformId: params.platformId })}
          >
            {t('actions.add')}
          </Button>
        }
      />
      <SectionDrawer target={target} onClose={() => setTarget(null)} onChanged={() => undefined} />
    </ListPage>
  );
}
