import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Empty, Flex, Popconfirm, Select, Table, Tag, Tooltip, Typography, message } from 'antd';
import type { TableColumnsType } from 'antd';
import { AppstoreAddOutlined, ReloadOutlined } from '@ant-design/icons';
import { MONITOR_TYPES, type MonitorType, type PlatformModule } from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { useMonitorTypes } from '../../shared/catalogue.ts';
import { useSiteOptions } from '../../shared/sites.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { bindModules, fetchSiteModules, moduleKeys, unbindModule } from './monitorTypesApi.ts';

/** Information > Monitor types of a site: the types bound to it (with device counts), bind more, unbind. */
export default function ModulesPage() {
  const { t } = useTranslation('monitorTypes');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [tableTop, scrollY] = useTableScrollY(72);
  const catalogue = useMonitorTypes();
  const sites = useSiteOptions();
  const [platformId, setPlatformId] = useState<number | undefined>(undefined);
  const [toBind, setToBind] = useState<number[]>([]);
  const siteId = platformId ?? sites.sites[0]?.platformId;

  const modules = useQuery({
    queryKey: moduleKeys.of(siteId ?? 0),
    queryFn: () => fetchSiteModules(siteId!),
    enabled: siteId !== undefined,
    retry: retryUnlessCancelled,
  });
  const bound = useMemo(() => new Map((modules.data ?? []).map((m) => [m.moduleId, m])), [modules.data]);
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

  const unbindButton = (m: PlatformModule | undefined, moduleId: number) => {
    if (!m) return null;
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
        title={t('confirm.unbindTitle', { name: catalogue.label(moduleId) })}
        description={t('confirm.unbindContent')}
        okText={t('actions.unbind')}
        okButtonProps={{ danger: true, 'data-testid': 'module-unbind-confirm' }}
        cancelText={t('common.cancel')}
        onConfirm={() => unbind.mutateAsync(moduleId).catch(() => undefined)}
      >
        <Button type="link" size="small" danger data-testid="module-unbind">
          {t('actions.unbind')}
        </Button>
      </Popconfirm>
    );
  };

  const columns: TableColumnsType<MonitorType> = [
    { title: t('fields.moduleId'), dataIndex: 'moduleId', key: 'moduleId', width: 90 },
    {
      title: t('fields.name'),
      key: 'name',
      width: 220,
      render: (_v, row) => <Typography.Text strong>{catalogue.label(row.moduleId)}</Typography.Text>,
    },
    {
      title: t('fields.quantities'),
      key: 'quantities',
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
      key: 'status',
      width: 150,
      render: (_v, row) => {
        const m = bound.get(row.moduleId);
        return m ? (
          <Tag color="green">{t('status.bound', { count: m.deviceCount })}</Tag>
        ) : (
          <Tag>{t('status.unbound')}</Tag>
        );
      },
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 120,
      render: (_v, row) =>
        bound.has(row.moduleId) ? (
          unbindButton(bound.get(row.moduleId), row.moduleId)
        ) : (
          <Button
            type="link"
            size="small"
            data-testid="module-bind-one"
            disabled={siteId === undefined}
            onClick={() => bind.mutate([row.moduleId])}
          >
            {t('actions.bind')}
          </Button>
        ),
    },
  ];

  return (
    <Flex vertical gap={16}>
      {msgHolder}
      <PageHeaderCard icon={<AppstoreAddOutlined />} title={t('title')} description={t('description')} />
      <Card variant="borderless">
        <Flex gap={12} wrap align="center" style={{ marginBottom: 16 }}>
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
            onChange={(v) => setPlatformId(v)}
          />
          <Tooltip title={t('actions.reload')}>
            <Button icon={<ReloadOutlined />} aria-label={t('actions.reload')} onClick={() => void refresh()} />
          </Tooltip>
        </Flex>
        {siteId === undefined ? (
          <Empty description={t('noSites')} />
        ) : (
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
      <Card variant="borderless" title={t('catalogueTitle')} styles={{ body: { paddingBottom: 8 } }}>
        <div ref={tableTop}>
          <Table<MonitorType>
            rowKey="moduleId"
            size="middle"
            data-testid="modules-table"
            columns={columns}
            dataSource={[...MONITOR_TYPES]}
            loading={modules.isFetching}
            scroll={{ x: 900, y: scrollY }}
            pagination={false}
          />
        </div>
      </Card>
    </Flex>
  );
}
