import { useMemo, useState, type ReactNode } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Flex, Input, Popconfirm, Select, Table, Tag, Tooltip, Typography, message } from 'antd';
import type { TableColumnsType, TableProps } from 'antd';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { PlatformRow, PlatformType } from '@geosentry/contract';
import { orgWord } from '../../shared/wording.ts';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { formatTime } from '../../shared/time.ts';
import { RegionCascader } from '../regions/index.ts';
import { fieldsFor } from './fields.ts';
import { detailLabel, optionLabel } from './DetailFieldItem.tsx';
import { LIST_DETAILS, capitalize, kindTitleKey } from './kinds.ts';
import { catalogueLabel } from '../../shared/labels.ts';
import {
  PLATFORM_SORT_FIELDS,
  deletePlatform,
  fetchEnterpriseOptions,
  fetchPlatforms,
  platformKeys,
  type PlatformListParams,
  type PlatformSortField,
} from './platformsApi.ts';
import { PlatformFormDrawer } from './PlatformFormDrawer.tsx';

/** Where a site's type label is found: the type labels, then the kinds' own types stored as one. */
const SUB_TYPE_CATALOGUES = [
  'platforms:subTypes',
  'platforms:options.damType',
  'platforms:options.tailingsType',
  'platforms:options.bridgeType',
];

const PAGE_SIZES = [10, 20, 50, 100];
const isSortField = (v: unknown): v is PlatformSortField =>
  typeof v === 'string' && (PLATFORM_SORT_FIELDS as readonly string[]).includes(v);
const dash = <Typography.Text type="secondary">-</Typography.Text>;

export interface PlatformsPageProps {
  kind: PlatformType;
  icon: ReactNode;
}

/**
 * Management of the sites of one kind (hazard points, reservoirs, rivers, tailings ponds, bridges, slopes):
 * a server-paged, sorted and filtered list with add, edit and delete.
 * Test hooks: platform-add, platform-search, platform-table, platform-edit, platform-delete(-confirm).
 */
export function PlatformsPage({ kind, icon }: PlatformsPageProps) {
  const { t } = useTranslation('platforms');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [tableTop, scrollY] = useTableScrollY();
  const [params, setParams] = useState<PlatformListParams>({ pageNum: 1, pageSize: 20 });
  const [keywordInput, setKeywordInput] = useState('');
  const [regionPath, setRegionPath] = useState<string[] | undefined>(undefined);
  const [editing, setEditing] = useState<PlatformRow | null | undefined>(undefined);
  const org = capitalize(t(orgWord(kind)));

  const list = useQuery({
    queryKey: platformKeys.list(kind, params),
    queryFn: () => fetchPlatforms(kind, params),
    placeholderData: keepPreviousData,
  });
  const enterprises = useQuery({
    queryKey: platformKeys.enterprises(kind === 'tailings' ? 'tailings' : 'general'),
    queryFn: () => fetchEnterpriseOptions(kind),
  });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: platformKeys.kind(kind) }),
      queryClient.invalidateQueries({ queryKey: ['enterprises'] }),
      queryClient.invalidateQueries({ queryKey: ['sections'] }),
    ]);

  const remove = useMutation({
    mutationFn: (id: number) => deletePlatform(kind, id),
    onSuccess: () => {
      void msg.success(t('messages.deleted'));
      if ((list.data?.list.length ?? 0) <= 1 && params.pageNum > 1)
        setParams((p) => ({ ...p, pageNum: p.pageNum - 1 }));
      void refresh();
    },
  });

  const setFilter = (patch: Partial<PlatformListParams>) => setParams((p) => ({ ...p, ...patch, pageNum: 1 }));
  const resetFilters = () => {
    setKeywordInput('');
    setRegionPath(undefined);
    setParams((p) => ({ pageNum: 1, pageSize: p.pageSize, sortField: p.sortField, sortOrder: p.sortOrder }));
  };

  const onTableChange: TableProps<PlatformRow>['onChange'] = (pagination, _filters, sorter) => {
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
  const sortOrderOf = (field: PlatformSortField) => (params.sortField === field ? (params.sortOrder ?? null) : null);

  const detailColumns = useMemo<TableColumnsType<PlatformRow>>(() => {
    const fields = fieldsFor(kind);
    return LIST_DETAILS[kind].flatMap((key) => {
      const f = fields.find((x) => x.key === key);
      if (!f) return [];
      const unit = f.unit ? t(`units.${f.unit}`) : '';
      return [
        {
          title: detailLabel(t, key),
          key: `details.${key}`,
          width: 140,
          ellipsis: true,
          render: (_v: unknown, row: PlatformRow) => {
            const v = row.details[key];
            if (v === undefined || v === null || v === '') return dash;
            if (f.type === 'select' && typeof v === 'string') return <Tag>{optionLabel(t, f.optionSet ?? key, v)}</Tag>;
            if (typeof v === 'number') return unit ? `${v} ${unit}` : String(v);
            return String(v);
          },
        },
      ];
    });
  }, [kind, t]);

  const columns: TableColumnsType<PlatformRow> = [
    {
      title: t(kind === 'bridge' ? 'fields.bridgeName' : 'fields.name'),
      dataIndex: 'name',
      key: 'name',
      width: 200,
      fixed: 'left',
      sorter: true,
      sortOrder: sortOrderOf('name'),
      render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
    },
    {
      title: t(kind === 'bridge' ? 'fields.platformType' : 'fields.subType'),
      dataIndex: 'subType',
      key: 'subType',
      width: 130,
      // A type label, or a kind's own type (a dam type, a tailings pond type, a bridge type) stored as the label.
      render: (v: string | null) => (v ? <Tag color="blue">{catalogueLabel(v, ...SUB_TYPE_CATALOGUES)}</Tag> : dash),
    },
    ...detailColumns,
    {
      title: t('fields.region'),
      key: 'regionCode',
      width: 240,
      ellipsis: true,
      sorter: true,
      sortOrder: sortOrderOf('regionCode'),
      render: (_v, row) => (row.regionNames.length ? row.regionNames.join(' / ') : dash),
    },
    {
      title: t('fields.coordinates'),
      key: 'coords',
      width: 190,
      render: (_v, row) =>
        row.lat !== null && row.lon !== null ? (
          <Typography.Text code>{`${row.lat.toFixed(6)}, ${row.lon.toFixed(6)}`}</Typography.Text>
        ) : (
          dash
        ),
    },
    {
      title: t('fields.manager'),
      dataIndex: 'manager',
      key: 'manager',
      width: 120,
      ellipsis: true,
      render: (v: string | null) => v ?? dash,
    },
    {
      title: org,
      key: 'enterprise',
      width: 200,
      ellipsis: true,
      render: (_v, row) =>
        row.enterpriseName || row.organization ? (
          <Flex vertical>
            <span>{row.enterpriseName ?? dash}</span>
            {row.organization ? <Typography.Text type="secondary">{row.organization}</Typography.Text> : null}
          </Flex>
        ) : (
          dash
        ),
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
          <Button type="link" size="small" data-testid="platform-edit" onClick={() => setEditing(row)}>
            {t('actions.edit')}
          </Button>
          <Popconfirm
            title={t('confirm.deleteTitle', { name: row.name })}
            description={t('confirm.deleteContent')}
            okText={t('actions.delete')}
            okButtonProps={{ danger: true, 'data-testid': 'platform-delete-confirm' }}
            cancelText={t('form.cancel')}
            onConfirm={() => remove.mutateAsync(row.platformId).catch(() => undefined)}
          >
            <Button type="link" size="small" danger data-testid="platform-delete">
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
      <PageHeaderCard icon={icon} title={t(kindTitleKey(kind))} description={t(`kinds.${kind}.description`)} />
      <Card variant="borderless" styles={{ body: { paddingBottom: 8 } }}>
        <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 16 }}>
          <Flex gap={12} wrap align="center">
            <Input.Search
              allowClear
              data-testid="platform-search"
              style={{ width: 260 }}
              placeholder={t('filters.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
            />
            <RegionCascader
              data-testid="platform-filter-region"
              style={{ width: 240 }}
              changeOnSelect
              placeholder={t('filters.region')}
              value={regionPath}
              onChange={(v) => {
                setRegionPath(v);
                setFilter({ regionCode: v?.[v.length - 1] });
              }}
            />
            <Select<number>
              allowClear
              data-testid="platform-filter-enterprise"
              style={{ width: 220 }}
              placeholder={t('filters.enterprise', { org: t(orgWord(kind)) })}
              value={params.enterpriseId}
              loading={enterprises.isLoading}
              showSearch={{ optionFilterProp: 'label' }}
              options={(enterprises.data ?? []).map((e) => ({ value: e.enterpriseId, label: e.name }))}
              onChange={(v) => setFilter({ enterpriseId: v ?? undefined })}
            />
            <Button onClick={resetFilters}>{t('filters.reset')}</Button>
          </Flex>
          <Flex gap={8}>
            <Tooltip title={t('actions.reload')}>
              <Button icon={<ReloadOutlined />} aria-label={t('actions.reload')} onClick={() => void refresh()} />
            </Tooltip>
            <Button type="primary" icon={<PlusOutlined />} data-testid="platform-add" onClick={() => setEditing(null)}>
              {t('actions.add', { kind: t(`kinds.${kind}.noun`) })}
            </Button>
          </Flex>
        </Flex>
        <div ref={tableTop}>
          <Table<PlatformRow>
            rowKey="platformId"
            size="middle"
            data-testid="platform-table"
            columns={columns}
            dataSource={list.data?.list ?? []}
            loading={list.isFetching}
            onChange={onTableChange}
            scroll={{ x: 1600, y: scrollY }}
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
      <PlatformFormDrawer
        kind={kind}
        open={editing !== undefined}
        site={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={(added) => {
          void msg.success(t(added ? 'messages.added' : 'messages.saved'));
          setEditing(undefined);
          void refresh();
        }}
      />
    </Flex>
  );
}
