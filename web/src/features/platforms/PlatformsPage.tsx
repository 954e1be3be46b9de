import { useMemo, useState, type ReactNode } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Input, Select, Tag, Typography, message } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { PlatformRow, PlatformType } from '@geosentry/contract';
import { orgWord } from '../../shared/wording.ts';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { formatTime } from '../../shared/time.ts';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { RegionFilter } from '../regions/index.ts';
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
} from './platformsApi.ts';
import { PlatformFormDrawer } from './PlatformFormDrawer.tsx';

/** Where a site's type label is found: the type labels, then the kinds' own types stored as one. */
const SUB_TYPE_CATALOGUES = [
  'platforms:subTypes',
  'platforms:options.damType',
  'platforms:options.tailingsType',
  'platforms:options.bridgeType',
];

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
  const table = useServerTable<PlatformListParams>({ pageNum: 1, pageSize: 20 }, PLATFORM_SORT_FIELDS, {
    filters: { keyword: 'string', regionCode: 'string', enterpriseId: 'number' },
  });
  const { params, setFilter } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
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

  const resetFilters = () => {
    setKeywordInput('');
    table.resetFilters();
  };

  const detailColumns = useMemo((): ServerColumn<PlatformRow>[] => {
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

  const columns: ServerColumn<PlatformRow>[] = [
    {
      title: t(kind === 'bridge' ? 'fields.bridgeName' : 'fields.name'),
      dataIndex: 'name',
      key: 'name',
      width: 200,
      fixed: 'left',
      hideable: false,
      sorter: true,
      sortOrder: table.sortOrderOf('name'),
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
      sortOrder: table.sortOrderOf('regionCode'),
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
      sortOrder: table.sortOrderOf('createdAt'),
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
          <DeleteAction
            title={t('confirm.deleteTitle', { name: row.name })}
            description={t('confirm.deleteContent')}
            label={t('actions.delete')}
            data-testid="platform-delete"
            onDelete={() => deletePlatform(kind, row.platformId)}
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
    <ListPage icon={icon} title={t(kindTitleKey(kind))} description={t(`kinds.${kind}.description`)}>
      {msgHolder}
      <ServerTable<PlatformRow>
        tableId={`platforms.${kind}`}
        rowKey="platformId"
        data-testid="platform-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(total) => t('list.total', { count: total })}
        filters={
          <>
            <Input.Search
              allowClear
              data-testid="platform-search"
              style={{ width: 260 }}
              placeholder={t('filters.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
            />
            <RegionFilter
              data-testid="platform-filter-region"
              style={{ width: 240 }}
              placeholder={t('filters.region')}
              value={params.regionCode}
              onChange={(regionCode) => setFilter({ regionCode })}
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
          </>
        }
        actions={
          <>
            <Button type="primary" icon={<PlusOutlined />} data-testid="platform-add" onClick={() => setEditing(null)}>
              {t('actions.add', { kind: t(`kinds.${kind}.noun`) })}
            </Button>
          </>
        }
      />
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
    </ListPage>
  );
}
