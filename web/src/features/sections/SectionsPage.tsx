import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Flex, Input, Popconfirm, Table, Tag, Tooltip, Typography, message } from 'antd';
import type { TableColumnsType, TableProps } from 'antd';
import { NodeIndexOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { MIN_UPSTREAM_COORDS, SECTION_PLATFORM_TYPES, SECTION_SORT_FIELDS, type SectionRow } from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { formatTime } from '../../shared/time.ts';
import { SitePicker } from './SitePicker.tsx';
import { SectionDrawer, type SectionTarget } from './SectionDrawer.tsx';
import {
  deleteSection,
  fetchSections,
  sectionKeys,
  type SectionListParams,
  type SectionSortField,
} from './sectionsApi.ts';

const PAGE_SIZES = [10, 20, 50, 100];
const isSortField = (v: unknown): v is SectionSortField =>
  typeof v === 'string' && (SECTION_SORT_FIELDS as readonly string[]).includes(v);
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
  const [tableTop, scrollY] = useTableScrollY();
  const [params, setParams] = useState<SectionListParams>({ pageNum: 1, pageSize: 20 });
  const [keywordInput, setKeywordInput] = useState('');
  const [target, setTarget] = useState<SectionTarget | null>(null);

  const list = useQuery({
    queryKey: sectionKeys.list(params),
    queryFn: () => fetchSections(params),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: sectionKeys.all });

  const remove = useMutation({
    mutationFn: (id: number) => deleteSection(id),
    onSuccess: () => {
      void msg.success(t('messages.deleted'));
      if ((list.data?.list.length ?? 0) <= 1 && params.pageNum > 1)
        setParams((p) => ({ ...p, pageNum: p.pageNum - 1 }));
      void refresh();
    },
  });

  const onTableChange: TableProps<SectionRow>['onChange'] = (pagination, _filters, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const field = s?.order && isSortField(s.columnKey) ? s.columnKey : undefined;
    setParams((p) => {
      const sortChanged = field !== p.sortField || (field ? s?.order : undefined) !== p.sortOrder;
      const pageSize = pagination.pageSize ?? p.pageSize;
      return {
        ...p,
        sortField: field,
        sortOrder: field ? (s?.order ?? undefined) : undefined,
        pageSize,
        pageNum: sortChanged || pageSize !== p.pageSize ? 1 : (pagination.current ?? 1),
      };
    });
  };
  const sortOrderOf = (field: SectionSortField) => (params.sortField === field ? (params.sortOrder ?? null) : null);

  const columns: TableColumnsType<SectionRow> = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      key: 'name',
      width: 180,
      fixed: 'left',
      sorter: true,
      sortOrder: sortOrderOf('name'),
      render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
    },
    {
      title: t('fields.site'),
      dataIndex: 'platformName',
      key: 'platformName',
      width: 220,
      sorter: true,
      sortOrder: sortOrderOf('platformName'),
      render: (v: string, row) => (
        <Flex gap={6} align="center">
          <Tag color={KIND_COLORS[row.platformType]}>{t(`kinds.${row.platformType}`)}</Tag>
          <span>{v}</span>
        </Flex>
      ),
    },
    {
      title: t('fields.bottomElevation'),
      dataIndex: 'bottomElevation',
      key: 'bottomElevation',
      width: 140,
      render: (v: number | null) => (v !== null ? `${v} ${t('units.m')}` : dash),
    },
    {
      title: t('fields.upstream'),
      key: 'upstream',
      width: 150,
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
      width: 180,
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
      ellipsis: true,
      render: (v: string | null) => v ?? dash,
    },
    {
      title: t('fields.createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 170,
      sorter: true,
      sortOrder: sortOrderOf('createdAt'),
      render: (v: string) => formatTime(v),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 140,
      fixed: 'right',
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
    <Flex vertical gap={16}>
      {msgHolder}
      <PageHeaderCard icon={<NodeIndexOutlined />} title={t('title')} description={t('description')} />
      <Card variant="borderless" styles={{ body: { paddingBottom: 8 } }}>
        <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 16 }}>
          <Flex gap={12} wrap align="center">
            <SitePicker
              data-testid="section-filter-site"
              kinds={SECTION_PLATFORM_TYPES}
              allowClear
              style={{ width: 280 }}
              placeholder={t('filters.site')}
              value={params.platformId}
              onChange={(id) => setParams((p) => ({ ...p, platformId: id, pageNum: 1 }))}
            />
            <Input.Search
              allowClear
              data-testid="section-search"
              style={{ width: 240 }}
              placeholder={t('filters.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => setParams((p) => ({ ...p, keyword: v.trim() || undefined, pageNum: 1 }))}
            />
            <Button
              onClick={() => {
                setKeywordInput('');
                setParams((p) => ({
                  pageNum: 1,
                  pageSize: p.pageSize,
                  sortField: p.sortField,
                  sortOrder: p.sortOrder,
                }));
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
              data-testid="section-add"
              onClick={() => setTarget({ mode: 'add', platformId: params.platformId })}
            >
              {t('actions.add')}
            </Button>
          </Flex>
        </Flex>
        <div ref={tableTop}>
          <Table<SectionRow>
            rowKey="segmentId"
            size="middle"
            data-testid="section-table"
            columns={columns}
            dataSource={list.data?.list ?? []}
            loading={list.isFetching}
            onChange={onTableChange}
            scroll={{ x: 1400, y: scrollY }}
            pagination={{
              current: params.pageNum,
              pageSize: params.pageSize,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              pageSizeOptions: PAGE_SIZES,
              showTotal: (total) => t('list.total', { count: total }),
            }}
          />
        </div>
      </Card>
      <SectionDrawer target={target} onClose={() => setTarget(null)} onChanged={() => undefined} />
    </Flex>
  );
}
