import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Input, Popconfirm, Select, Switch, Tag, Typography, message } from 'antd';
import { PlusOutlined, SlidersOutlined } from '@ant-design/icons';
import { ALERT_VALUE_TYPES, type AlertRuleRow, type AlertValueType } from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { SiteFilter } from '../../shared/table/SiteFilter.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { useMonitorSites } from '../../shared/monitorSites.ts';
import {
  ALERT_RULE_SORT_FIELDS,
  alertKeys,
  deleteRule,
  enableRule,
  fetchGroupOptions,
  fetchRules,
  type RuleListParams,
} from './alertsApi.ts';
import { LevelTag, fmtNum } from './alertUi.tsx';
import { AlertValueDrawer, useLevelOptions } from './AlertValueDrawer.tsx';
import { useValueTypeText } from './valueTypes.ts';

/**
 * /alert/setalert: the alert values of every device quantity in the caller's scope (level, type, value, window,
 * ratio, contact group, channels, push interval, on/off), with add/edit (and a test against stored readings).
 */
export default function AlertValuesPage() {
  const { t } = useTranslation('alerts');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const table = useServerTable<RuleListParams>({ pageNum: 1, pageSize: 20 }, ALERT_RULE_SORT_FIELDS, {
    filters: { platformId: 'number', level: 'number', valueType: 'string', enabled: 'boolean', keyword: 'string' },
  });
  const { params, setFilter } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
  const [editing, setEditing] = useState<AlertRuleRow | null | undefined>(undefined);
  const { sites } = useMonitorSites();
  const typeText = useValueTypeText();
  const levelOptions = useLevelOptions();
  const list = useQuery({
    queryKey: alertKeys.rules(params),
    queryFn: () => fetchRules(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const groups = useQuery({ queryKey: alertKeys.groups, queryFn: fetchGroupOptions, retry: false });
  const groupName = (id: number | null) =>
    id === null ? '-' : (groups.data?.find((g) => g.id === id)?.name ?? `#${id}`);
  const refresh = () => queryClient.invalidateQueries({ queryKey: alertKeys.rulesAll });
  const remove = useMutation({
    mutationFn: deleteRule,
    onSuccess: () => {
      void msg.success(t('rules.deleted'));
      table.afterDelete(list.data?.list.length ?? 0);
      void refresh();
    },
  });
  const toggle = useMutation({
    mutationFn: (v: { id: number; enabled: boolean }) => enableRule(v.id, v.enabled),
    onSuccess: () => void refresh(),
  });

  const condition = (r: AlertRuleRow): string => {
    const parts = [`${t(`directions.${r.direction}`)} ${fmtNum(r.value)}${r.unit ? ` ${r.unit}` : ''}`];
    if (r.rateValue !== null)
      parts.push(`${r.valueType === 'rainfallIntensity' ? 'b' : t('evidence.rate')} ${fmtNum(r.rateValue)}`);
    if (r.windowN && r.windowUnit) parts.push(`${t('evidence.window')} ${r.windowN} ${t(`units.${r.windowUnit}`)}`);
    if (r.ratio !== null) parts.push(`${t('evidence.ratio')} ${fmtNum(r.ratio)}`);
    return parts.join(' · ');
  };

  const columns: ServerColumn<AlertRuleRow>[] = [
    { title: t('fields.site'), dataIndex: 'platformName', key: 'platformName', width: 160, optional: 5 },
    {
      title: t('fields.device'),
      dataIndex: 'deviceName',
      key: 'deviceName',
      width: 190,
      sortable: true,
      render: (v: string, r) => (
        <Flex vertical>
          <Typography.Text strong ellipsis style={{ maxWidth: 180 }}>
            {v}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.deviceNumber}
          </Typography.Text>
        </Flex>
      ),
    },
    { title: t('fields.quantity'), dataIndex: 'showName', key: 'quantity', width: 150, sortable: true },
    {
      title: t('fields.level'),
      dataIndex: 'level',
      key: 'level',
      width: 130,
      sortable: true,
      render: (l: number) => <LevelTag level={l} />,
    },
    {
      title: t('rules.fields.valueType'),
      dataIndex: 'valueType',
      key: 'valueType',
      width: 170,
      sortable: true,
      optional: 4,
      render: (v: AlertValueType) => typeText(v),
    },
    { title: t('rules.fields.condition'), key: 'condition', width: 260, render: (_v, r) => condition(r) },
    {
      title: t('rules.fields.group'),
      dataIndex: 'groupId',
      key: 'groupId',
      width: 140,
      ellipsis: true,
      render: groupName,
    },
    {
      title: t('rules.fields.channels'),
      dataIndex: 'channels',
      key: 'channels',
      width: 180,
      optional: 1,
      render: (v: string[]) => (
        <Flex gap={4} wrap>
          {v.map((c) => (
            <Tag key={c} style={{ marginInlineEnd: 0 }}>
              {t(`channels.${c}`)}
            </Tag>
          ))}
        </Flex>
      ),
    },
    {
      title: t('rules.fields.pushInterval'),
      dataIndex: 'pushIntervalMinutes',
      key: 'pushIntervalMinutes',
      width: 110,
      optional: 2,
      align: 'right',
      render: (v: number) => (v > 0 ? t('rules.minutes', { count: v }) : t('rules.onceOnly')),
    },
    {
      title: t('rules.fields.enabled'),
      dataIndex: 'enabled',
      key: 'enabled',
      width: 90,
      render: (v: boolean, r) => (
        <Switch
          size="small"
          checked={v}
          loading={toggle.isPending && toggle.variables?.id === r.id}
          aria-label={t('rules.fields.enabled')}
          onChange={(on) => toggle.mutate({ id: r.id, enabled: on })}
        />
      ),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 140,
      render: (_v, r) => (
        <Flex gap={0}>
          <Button type="link" size="small" data-testid="rule-edit" onClick={() => setEditing(r)}>
            {t('actions.edit')}
          </Button>
          <Popconfirm
            title={t('rules.deleteConfirm', { device: r.deviceName, quantity: r.showName })}
            description={t('rules.deleteHint')}
            okText={t('actions.delete')}
            okButtonProps={{ danger: true }}
            cancelText={t('actions.cancel')}
            onConfirm={() => remove.mutateAsync(r.id).catch(() => undefined)}
          >
            <Button type="link" size="small" danger>
              {t('actions.delete')}
            </Button>
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  return (
    <ListPage icon={<SlidersOutlined />} title={t('rules.title')} description={t('rules.description')}>
      {msgHolder}
      <ServerTable<AlertRuleRow>
        tableId="alerts.values"
        rowKey="id"
        data-testid="rule-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(total) => t('rules.total', { count: total })}
        empty={t('rules.empty')}
        actions={
          <Button type="primary" icon={<PlusOutlined />} data-testid="rule-add" onClick={() => setEditing(null)}>
            {t('rules.add')}
          </Button>
        }
        filters={
          <>
            <SiteFilter
              placeholder={t('filters.allSites')}
              value={params.platformId}
              sites={sites}
              onChange={(platformId) => setFilter({ platformId })}
            />
            <Select<number>
              allowClear
              style={{ width: 150 }}
              placeholder={t('filters.allLevels')}
              value={params.level}
              options={levelOptions}
              onChange={(v) => setFilter({ level: v ?? undefined })}
            />
            <Select<AlertValueType>
              allowClear
              style={{ width: 210 }}
              placeholder={t('filters.allTypes')}
              value={params.valueType}
              options={ALERT_VALUE_TYPES.map((v) => ({ value: v, label: typeText(v) }))}
              onChange={(v) => setFilter({ valueType: v ?? undefined })}
            />
            <Select<string>
              allowClear
              style={{ width: 140 }}
              placeholder={t('rules.filters.anyState')}
              value={params.enabled === undefined ? undefined : params.enabled ? 'on' : 'off'}
              options={[
                { value: 'on', label: t('rules.filters.on') },
                { value: 'off', label: t('rules.filters.off') },
              ]}
              onChange={(v) => setFilter({ enabled: v === undefined ? undefined : v === 'on' })}
            />
            <Input.Search
              allowClear
              style={{ width: 220 }}
              placeholder={t('rules.filters.keyword')}
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
      />
      <AlertValueDrawer
        open={editing !== undefined}
        rule={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={(added) => {
          void msg.success(t(added ? 'rules.added' : 'rules.saved'));
          setEditing(undefined);
          void refresh();
        }}
      />
    </ListPage>
  );
}
