import { useEffect, useMemo, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Empty, Flex, Input, Popconfirm, Select, Tag, Tooltip, Typography, message } from 'antd';
import { AppstoreAddOutlined } from '@ant-design/icons';
import type { SiteMonitorTypeRow } from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { BoundFilter } from '../../shared/table/BoundFilter.tsx';
import { useMonitorTypes } from '../../shared/catalogue.ts';
import { useSiteOptions } from '../../shared/sites.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import {
  SITE_MONITOR_TYPE_SORT_FIELDS,
  bindModules,
  fetchSiteModules,
  fetchSiteTypeList,
  moduleKeys,
  unbindModule,
  type SiteTypeListParams,
} from './monitorTypesApi.ts';

/**
 * Information > Monitor types of a site: the types bound to it (with device counts), bind several at once, and
 * the catalogue with each type's binding in the shared ServerTable (paged, sorted and filtered by the server,
 * the site and the table state in the address); bind or unbind a type from its row.
 */
export default function ModulesPage() {
  const { t } = useTranslation('monitorTypes');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const catalogue = useMonitorTypes();
  const sites = useSiteOptions();
  const table = useServerTable<SiteTypeListParams>({ pageNum: 1, pageSize: 20 }, SITE_MONITOR_TYPE_SORT_FIELDS, {
    filters: { platformId: 'number', keyword: 'string', bound: 'boolean' },
  });
  const { params, setFilter } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
  const [toBind, setToBind] = useState<number[]>([]);
  // Without a site in the address: the first site the user may use, written to the address (a shared link then
  // shows the same site whatever the other user's first site is).
  const firstSite = sites.sites[0]?.platformId;
  const siteId = params.platformId ?? firstSite;
  const { setParams } = table;
  useEffect(() => {
    if (params.platformId === undefined && firstSite !== undefined)
      setParams((p) => (p.platformId === undefined ? { ...p, platformId: firstSite } : p));
  }, [params.platformId, firstSite, setParams]);

  const listParams = siteId === undefined ? undefined : { ...params, platformId: siteId };
  const list = useQuery({
    queryKey: moduleKeys.list(listParams ?? { ...params, platformId: 0 }),
    queryFn: () => fetchSiteTypeList(listParams!),
    enabled: listParams !== undefined,
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const modules = useQuery({
    queryKey: moduleKeys.of(siteId ?? 0),
    queryFn: () => fetchSiteModules(siteId!),
    enabled: siteId !== undefined,
    retry: retryUnlessCancelled,
  });
  const bound = useMemo(() => new Set((modules.data ?? []).map((m) => m.moduleId)), [modules.data]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: moduleKeys.all });

  const bind = useMutation({
    mutationFn: (ids: number[]) => bindModules(siteId!, ids),
    onSuccess: (_d, ids) => {
      void msg.success(t('messages.bound', { count: ids.length }));
      setToBind([]);
      void refresh();
    },
  });
  const unbind = useMutation({
    mutationFn: (id: number) => unbindModule(siteId!, id),
    onSuccess: () => {
      void msg.success(t('messages.unbound'));
      void refresh();
    },
  });

  const unboundOptions = catalogue.options.filter((o) => !bound.has(o.value));

  const unbindButton = (m: SiteMonitorTypeRow) => {
    if (m.deviceCount > 0)
      return (
        <Tooltip title={t('inUse', { count: m.deviceCount })}>
          <Button type="link" size="small" danger disabled>
            {t('actions.unbind')}
          </Button>
        </Tooltip>
      );
    return (
      <Popconfirm
        title={t('confirm.unbindTitle', { name: catalogue.label(m.moduleId) })}
        description={t('confirm.unbindContent')}
        okText={t('actions.unbind')}
        okButtonProps={{ danger: true, 'data-testid': 'module-unbind-confirm' }}
        cancelText={t('common.cancel')}
        onConfirm={() => unbind.mutateAsync(m.moduleId).catch(() => undefined)}
      >
        <Button type="link" size="small" danger data-testid="module-unbind">
          {t('actions.unbind')}
        </Button>
      </Popconfirm>
    );
  };

  const columns: ServerColumn<SiteMonitorTypeRow>[] = [
    { title: t('fields.moduleId'), dataIndex: 'moduleId', key: 'moduleId', width: 90, sortable: true },
    {
      title: t('fields.name'),
      key: 'name',
      width: 200,
      sortable: true,
      hideable: false,
      ellipsis: true,
      render: (_v, row) => <Typography.Text strong>{catalogue.label(row.moduleId)}</Typography.Text>,
    },
    { title: t('fields.code'), dataIndex: 'code', key: 'code', width: 150, sortable: true, hidden: true },
    {
      title: t('fields.quantities'),
      key: 'quantities',
      width: 380,
      ellipsis: false,
      render: (_v, row) => (
        <Flex gap={4} wrap>
          {catalogue.quantities(row.moduleId).map((q) => (
            <Tag key={q.key}>{q.unit ? `${q.text} (${q.unit})` : q.text}</Tag>
          ))}
        </Flex>
      ),
    },
    {
      title: t('fields.status'),
      key: 'bound',
      width: 170,
      sortable: true,
      render: (_v, row) =>
        row.bound ? (
          <Tag color="green">{t('status.bound', { count: row.deviceCount })}</Tag>
        ) : (
          <Tag>{t('status.unbound')}</Tag>
        ),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 110,
      render: (_v, row) =>
        row.bound ? (
          unbindButton(row)
        ) : (
          <Button
            type="link"
            size="small"
            data-testid="module-bind-one"
            loading={bind.isPending && bind.variables?.[0] === row.moduleId}
            onClick={() => bind.mutate([row.moduleId])}
          >
            {t('actions.bind')}
          </Button>
        ),
    },
  ];

  const above = (
    <Card variant="borderless">
      <Flex gap={12} wrap align="center" style={{ marginBottom: siteId === undefined ? 0 : 16 }}>
        <Typography.Text>{t('fields.site')}</Typography.Text>
        <Select<number>
          id="modules-site"
          data-testid="modules-site"
          style={{ width: 280 }}
          placeholder={t('placeholders.site')}
          loading={sites.isLoading}
          value={siteId}
          options={sites.options}
          showSearch={{ optionFilterProp: 'label' }}
          notFoundContent={t('noSites')}
          onChange={(v) => {
            setToBind([]);
            setFilter({ platformId: v });
          }}
        />
      </Flex>
      {siteId === undefined ? null : (
        <Flex vertical gap={12}>
          <Typography.Text type="secondary">{t('boundTitle')}</Typography.Text>
          <Flex gap={8} wrap data-testid="modules-bound">
            {(modules.data ?? []).length === 0 ? (
              <Typography.Text type="secondary">{t('noneBound')}</Typography.Text>
            ) : (
              (modules.data ?? []).map((m) => (
                <Tag key={m.moduleId} color="blue" data-module={m.moduleId} style={{ padding: '2px 8px' }}>
                  {catalogue.label(m.moduleId)} · {t('deviceCount', { count: m.deviceCount })}
                </Tag>
              ))
            )}
          </Flex>
          <Flex gap={8} wrap align="center">
            <Select<number[]>
              id="modules-bind"
              mode="multiple"
              allowClear
              style={{ minWidth: 360, flex: '0 1 520px' }}
              placeholder={t('placeholders.bind')}
              value={toBind}
              options={unboundOptions}
              showSearch={{ optionFilterProp: 'label' }}
              maxTagCount="responsive"
              onChange={setToBind}
            />
            <Button
              type="primary"
              data-testid="module-bind"
              disabled={toBind.length === 0}
              loading={bind.isPending}
              onClick={() => bind.mutate(toBind)}
            >
              {t('actions.bindSelected')}
            </Button>
          </Flex>
        </Flex>
      )}
    </Card>
  );

  return (
    <ListPage icon={<AppstoreAddOutlined />} title={t('title')} description={t('description')} above={above}>
      {msgHolder}
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('catalogueTitle')}
      </Typography.Title>
      <ServerTable<SiteMonitorTypeRow>
        tableId="monitorTypes.site"
        rowKey="moduleId"
        data-testid="modules-table"
        table={table}
        query={list}
        columns={columns}
        footer={72}
        onReload={() => void refresh()}
        totalText={(total) => t('list.total', { count: total })}
        empty={
          siteId === undefined && !sites.isLoading ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noSites')} />
          ) : undefined
        }
        filters={
          <>
            <Input.Search
              allowClear
              data-testid="modules-search"
              style={{ width: 240 }}
              placeholder={t('filters.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
            />
            <BoundFilter
              data-testid="modules-filter-bound"
              value={params.bound}
              onChange={(bound) => setFilter({ bound })}
              labels={{
                placeholder: t('filters.bound'),
                bound: t('filters.onlyBound'),
                unbound: t('filters.onlyUnbound'),
              }}
            />
            <Button
              onClick={() => {
                setKeywordInput('');
                // The site stays: it is the page's subject, not a filter of the list.
                table.resetFilters();
                setFilter({ platformId: params.platformId });
              }}
            >
              {t('filters.reset')}
            </Button>
          </>
        }
      />
    </ListPage>
  );
}
