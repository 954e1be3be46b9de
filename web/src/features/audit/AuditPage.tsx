import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, DatePicker, Input, Select, Tag, Tooltip, Typography } from 'antd';
import { AuditOutlined, SearchOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import type { AuditRow } from '@geosentry/contract';
import { isCancel } from '../../shared/api.ts';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { formatTime, instantToWall, wallToInstant } from '../../shared/time.ts';
import { useTimeZone, withZone } from '../../shared/useTimeZone.ts';
import { auditDetailText, auditTarget } from './auditDetail.ts';
import { ACTION_GROUPS, actionColor, actionKey, auditKeys, fetchAudit, type AuditListParams } from './auditActions.ts';

const PAGE_SIZES = [20, 50, 100, 200];
const SORT_FIELDS = ['at'] as const;

interface Filters {
  account: string;
  action: string | undefined;
  range: [Dayjs | null, Dayjs | null] | null;
}
const EMPTY: Filters = { account: '', action: undefined, range: null };

/** System > Audit log: sign-ins, failures, lockouts, sign-outs and permission changes, newest first. */
export default function AuditPage() {
  const { t } = useTranslation('audit');
  const queryClient = useQueryClient();

  // A picked time is that wall clock in the user's zone (issue 14), whatever the browser's zone.
  const { zone, label: zoneName } = useTimeZone();
  const iso = (d: Dayjs | null | undefined) => (d ? new Date(wallToInstant(d, zone)).toISOString() : undefined);
  const wall = (v: string | undefined) =>
    v && Number.isFinite(Date.parse(v)) ? instantToWall(Date.parse(v), zone) : null;
  const table = useServerTable<AuditListParams>(
    { pageNum: 1, pageSize: 50, sortField: 'at', sortOrder: 'descend' },
    SORT_FIELDS,
    { filters: { account: 'string', action: 'string', from: 'string', to: 'string' } },
  );
  const { params } = table;
  // The form starts from the list's filters (the address), and applies to them on Search.
  const [filters, setFilters] = useState<Filters>(() => ({
    account: params.account ?? '',
    action: params.action,
    range: params.from || params.to ? [wall(params.from), wall(params.to)] : null,
  }));

  const list = useQuery({
    queryKey: auditKeys.list(params),
    queryFn: () => fetchAudit(params),
    placeholderData: keepPreviousData,
    retry: (count, error) => !isCancel(error) && count < 1,
  });

  const apply = (f: Filters) =>
    table.setFilter({
      account: f.account.trim() || undefined,
      action: f.action,
      from: iso(f.range?.[0]),
      to: iso(f.range?.[1]),
    });

  const columns: ServerColumn<AuditRow>[] = [
    {
      title: withZone(t('fields.time'), zoneName),
      dataIndex: 'at',
      key: 'at',
      width: 170,
      hideable: false,
      sortable: true,
      sortDirections: ['descend', 'ascend', 'descend'],
      render: (v: string) => formatTime(v),
    },
    {
      title: t('fields.account'),
      dataIndex: 'account',
      key: 'account',
      width: 120,
      render: (v: string | null) =>
        v ? <Typography.Text strong>{v}</Typography.Text> : <Typography.Text type="secondary">-</Typography.Text>,
    },
    {
      title: t('fields.action'),
      dataIndex: 'action',
      key: 'action',
      width: 170,
      render: (v: string) => (
        <Tooltip title={v}>
          <Tag color={actionColor(v)} data-action={v}>
            {t(actionKey(v), { defaultValue: v })}
          </Tag>
        </Tooltip>
      ),
    },
    {
      title: t('fields.target'),
      dataIndex: 'target',
      key: 'target',
      width: 150,
      ellipsis: true,
      render: (v: string | null) => auditTarget(v) ?? <Typography.Text type="secondary">-</Typography.Text>,
    },
    {
      title: t('fields.detail'),
      dataIndex: 'detail',
      key: 'detail',
      // Columns sum to 970 px: the table fits 1280 px; long details end in … with the whole text in a tooltip.
      width: 230,
      ellipsis: true,
      // Labels, never raw JSON: "Role: 2 → 5; All sites: No" (auditDetail.ts).
      render: (_v: AuditRow['detail'], row: AuditRow) => {
        const text = auditDetailText(row);
        return text ? (
          <Tooltip title={<span style={{ wordBreak: 'break-word' }}>{text}</span>}>
            <Typography.Text style={{ fontSize: 12 }} data-testid="audit-detail">
              {text}
            </Typography.Text>
          </Tooltip>
        ) : (
          <Typography.Text type="secondary">-</Typography.Text>
        );
      },
    },
    {
      title: t('fields.ip'),
      dataIndex: 'ip',
      key: 'ip',
      width: 130,
    },
  ];

  return (
    <ListPage icon={<AuditOutlined />} title={t('title')} description={t('description')}>
      <ServerTable<AuditRow>
        tableId="audit"
        rowKey="id"
        data-testid="audit-table"
        table={table}
        query={list}
        columns={columns}
        pageSizes={PAGE_SIZES}
        onReload={() => void queryClient.invalidateQueries({ queryKey: ['audit'] })}
        totalText={(total) => t('list.total', { count: total })}
        filters={
          <>
            <Input
              allowClear
              data-testid="audit-account"
              style={{ width: 200 }}
              placeholder={t('filters.account')}
              value={filters.account}
              onChange={(e) => setFilters((f) => ({ ...f, account: e.target.value }))}
              onPressEnter={() => apply(filters)}
            />
            <Select<string>
              allowClear
              data-testid="audit-action"
              style={{ width: 220 }}
              placeholder={t('filters.action')}
              value={filters.action}
              showSearch={{ optionFilterProp: 'label' }}
              options={ACTION_GROUPS.map((g) => ({
                label: t(`groups.${g.key}`),
                title: t(`groups.${g.key}`),
                options: g.actions.map((a) => ({ value: a, label: t(actionKey(a)) })),
              }))}
              onChange={(v) => setFilters((f) => ({ ...f, action: v ?? undefined }))}
            />
            <DatePicker.RangePicker
              showTime={{ format: 'HH:mm', defaultOpenValue: [dayjs().startOf('day'), dayjs().endOf('day')] }}
              format="YYYY-MM-DD HH:mm"
              allowEmpty={[true, true]}
              placeholder={[t('filters.from'), t('filters.to')]}
              value={filters.range}
              onChange={(v) => setFilters((f) => ({ ...f, range: v }))}
            />
            <Button type="primary" icon={<SearchOutlined />} data-testid="audit-search" onClick={() => apply(filters)}>
              {t('filters.search')}
            </Button>
            <Button
              onClick={() => {
                setFilters(EMPTY);
                apply(EMPTY);
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
