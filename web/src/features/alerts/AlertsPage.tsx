import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { Badge, Button, DatePicker, Flex, Input, Select, Tooltip, Typography } from 'antd';
import { AlertOutlined } from '@ant-design/icons';
import { ALERT_LEVELS, ALERT_STATUS_FILTERS, type AlertRow, type AlertStatus } from '@geosentry/contract';

/** The status filter: a status, or 'open' (untreated or pre-processed: home's open alert counts link here with it). */
type AlertStatusFilter = (typeof ALERT_STATUS_FILTERS)[number];
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { SiteFilter } from '../../shared/table/SiteFilter.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { useMonitorSites } from '../../shared/monitorSites.ts';
import { ALERT_SORT_FIELDS, alertKeys, fetchAlertCounts, fetchAlerts, type AlertListParams } from './alertsApi.ts';
import { LevelTag, StatusTag, fmtNum, fmtTime, levelHex, levelTextHex } from './alertUi.tsx';
import { AlertDetailDrawer } from './AlertDetailDrawer.tsx';
import { useValueTypeText } from './valueTypes.ts';
import { formatInZone, pickedDaysIso, pickerValue } from '../../shared/time.ts';
import { RegionFilter } from '../regions/index.ts';

const DAY = 'YYYY-MM-DD';

/**
 * /alert/alert: the alerts of the caller's sites, newest first, with server paging, sorting and filters (level,
 * status, site, time range, keyword). A row opens the detail drawer with the evidence, deliveries, history and the
 * processing form; `?id=` (the pop-up's link) opens that alert directly.
 */
export default function AlertsPage() {
  const { t } = useTranslation('alerts');
  const queryClient = useQueryClient();
  const [search, setSearch] = useSearchParams();
  const table = useServerTable<AlertListParams>({ pageNum: 1, pageSize: 20 }, ALERT_SORT_FIELDS, {
    filters: {
      level: 'number',
      status: 'string',
      platformId: 'number',
      regionCode: 'string',
      startTime: 'string',
      endTime: 'string',
      keyword: 'string',
    },
  });
  const { params, setFilter } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
  // The picked days, shown again from the address's instants (days of the user's time zone).
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(() =>
    params.startTime || params.endTime
      ? [
          params.startTime ? pickerValue(formatInZone(params.startTime, undefined, DAY)) : null,
          params.endTime ? pickerValue(formatInZone(params.endTime, undefined, DAY)) : null,
        ]
      : null,
  );
  const [openId, setOpenId] = useState<number | null>(null);
  const { sites, isLoading: sitesLoading } = useMonitorSites();
  const typeText = useValueTypeText();

  // The pop-up links here with ?id=<alertId>.
  const linkedId = Number(search.get('id'));
  useEffect(() => {
    if (Number.isInteger(linkedId) && linkedId > 0) setOpenId(linkedId);
  }, [linkedId]);
  const close = () => {
    setOpenId(null);
    if (search.get('id')) {
      const next = new URLSearchParams(search);
      next.delete('id');
      setSearch(next, { replace: true });
    }
  };

  const list = useQuery({
    queryKey: alertKeys.list(params),
    queryFn: () => fetchAlerts(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const counts = useQuery({ queryKey: alertKeys.counts, queryFn: fetchAlertCounts, retry: false, staleTime: 10_000 });
  const refresh = () => queryClient.invalidateQueries({ queryKey: alertKeys.all });

  const columns: ServerColumn<AlertRow>[] = [
    {
      title: t('fields.level'),
      dataIndex: 'level',
      key: 'level',
      width: 110,
      sortable: true,
      render: (v: number) => <LevelTag level={v} />,
    },
    {
      title: t('fields.site'),
      dataIndex: 'platformName',
      key: 'platformName',
      width: 170,
      sortable: true,
      optional: 5,
    },
    {
      title: t('fields.device'),
      dataIndex: 'deviceName',
      key: 'deviceName',
      width: 200,
      sortable: true,
      render: (v: string, row) => (
        <Flex vertical>
          <Typography.Text strong ellipsis style={{ maxWidth: 190 }}>
            {v}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {row.deviceNumber}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: t('fields.quantity'),
      dataIndex: 'showName',
      key: 'showName',
      width: 150,
      optional: 2,
      ellipsis: true,
      render: (v: string, row) => v || row.quantity || '-',
    },
    {
      // The value that raised the current level, beside the limit (the rule column); the latest value apart.
      title: <Tooltip title={t('list.triggerHint')}>{t('fields.trigger')}</Tooltip>,
      key: 'value',
      width: 140,
      align: 'right',
      render: (_v, row) =>
        row.valueType === 'offline' ? (
          <Typography.Text strong style={{ color: levelTextHex(row.level) }} data-testid="alert-value">
            {t('types.offline')}
          </Typography.Text>
        ) : (
          <Flex vertical align="end">
            <Typography.Text strong style={{ color: levelTextHex(row.level) }} data-testid="alert-value">
              {fmtNum(row.triggerValue ?? row.metric ?? row.lastValue)}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="alert-latest">
              {t('list.latest', { value: fmtNum(row.metric ?? row.lastValue) })}
            </Typography.Text>
          </Flex>
        ),
    },
    {
      title: t('fields.rule'),
      key: 'rule',
      width: 200,
      optional: 1,
      render: (_v, row) =>
        row.valueType === 'offline' ? (
          t('types.offline')
        ) : (
          <Flex vertical>
            <span>{typeText(row.valueType)}</span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('list.threshold', { value: fmtNum(row.threshold) })}
              {row.kind === 'multi' ? ` · ${t('kinds.multi')}` : ''}
            </Typography.Text>
          </Flex>
        ),
    },
    {
      title: t('fields.firstAt'),
      dataIndex: 'firstAt',
      key: 'firstAt',
      width: 170,
      sortable: true,
      optional: 3,
      render: fmtTime,
    },
    { title: t('fields.lastAt'), dataIndex: 'lastAt', key: 'lastAt', width: 170, sortable: true, render: fmtTime },
    {
      title: t('fields.count'),
      dataIndex: 'count',
      key: 'count',
      width: 80,
      align: 'right',
      sortable: true,
      optional: 4,
    },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      key: 'status',
      width: 130,
      sortable: true,
      render: (v: AlertStatus) => <StatusTag status={v} />,
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 110,
      render: (_v, row) => (
        <Button
          type="link"
          size="small"
          data-testid="alert-open"
          onClick={(e) => {
            e.stopPropagation();
            setOpenId(row.id);
          }}
        >
          {row.status === 'processed' ? t('actions.view') : t('actions.handle')}
        </Button>
      ),
    },
  ];

  const c = counts.data;
  return (
    <ListPage
      icon={<AlertOutlined />}
      title={t('list.title')}
      description={t('list.description')}
      extra={
        c ? (
          <Flex gap={12} align="center" data-testid="alert-open-counts" wrap>
            <Typography.Text type="secondary">{t('list.open')}</Typography.Text>
            {ALERT_LEVELS.map((l) => (
              <Tooltip key={l} title={t(`levels.${l}`)}>
                <Badge
                  count={c.open[String(l) as '1'] ?? 0}
                  showZero
                  overflowCount={999}
                  color={levelHex(l)}
                  style={{ color: l === 2 ? '#3b2e00' : '#fff', fontWeight: 600 }}
                />
              </Tooltip>
            ))}
            <Typography.Text type="secondary">{t('list.untreatedCount', { count: c.untreated })}</Typography.Text>
          </Flex>
        ) : null
      }
    >
      <ServerTable<AlertRow>
        tableId="alerts"
        rowKey="id"
        data-testid="alert-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(total) => t('list.total', { count: total })}
        empty={list.isLoading ? t('list.loading') : t('list.empty')}
        onRow={(row) => ({
          onClick: () => setOpenId(row.id),
          style: { cursor: 'pointer', boxShadow: `inset 4px 0 0 ${levelHex(row.level)}` },
          'data-alert-id': row.id,
        })}
        filters={
          <>
            <Select<number>
              data-testid="alert-filter-level"
              allowClear
              style={{ width: 150 }}
              placeholder={t('filters.allLevels')}
              value={params.level}
              options={ALERT_LEVELS.map((l) => ({
                value: l,
                label: (
                  <Flex gap={6} align="center">
                    <span style={{ width: 10, height: 10, borderRadius: 2, background: levelHex(l) }} />
                    {t(`levels.${l}`)}
                  </Flex>
                ),
              }))}
              onChange={(v) => setFilter({ level: v ?? undefined })}
            />
            <Select<AlertStatusFilter>
              data-testid="alert-filter-status"
              allowClear
              style={{ width: 160 }}
              placeholder={t('filters.allStatuses')}
              value={params.status}
              options={ALERT_STATUS_FILTERS.map((s) => ({ value: s, label: t(`status.${s}`) }))}
              onChange={(v) => setFilter({ status: v ?? undefined })}
            />
            <SiteFilter
              data-testid="alert-filter-site"
              placeholder={t('filters.allSites')}
              loading={sitesLoading}
              value={params.platformId}
              sites={sites}
              onChange={(platformId) => setFilter({ platformId })}
            />
            <RegionFilter
              data-testid="alert-filter-region"
              placeholder={t('filters.allRegions')}
              value={params.regionCode}
              onChange={(regionCode) => setFilter({ regionCode })}
            />
            <DatePicker.RangePicker
              data-testid="alert-filter-range"
              value={range}
              format={DAY}
              placeholder={[t('filters.from'), t('filters.to')]}
              onChange={(v) => {
                setRange(v);
                // Days of the user's time zone (issue 14), not of the browser.
                setFilter(pickedDaysIso(v?.[0], v?.[1]));
              }}
            />
            <Input.Search
              allowClear
              data-testid="alert-search"
              style={{ width: 240 }}
              placeholder={t('filters.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
            />
            <Button
              onClick={() => {
                setRange(null);
                setKeywordInput('');
                table.resetFilters();
              }}
            >
              {t('filters.reset')}
            </Button>
          </>
        }
      />
      <AlertDetailDrawer
        id={openId}
        onClose={close}
        onChanged={() => {
          void refresh();
        }}
      />
    </ListPage>
  );
}
