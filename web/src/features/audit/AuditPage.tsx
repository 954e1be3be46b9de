import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, DatePicker, Flex, Input, Select, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType, TableProps } from 'antd';
import { AuditOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import type { AuditRow } from '@geosentry/contract';
import { isCancel } from '../../shared/api.ts';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { formatTime } from '../../shared/time.ts';
import { wallToInstant } from '../../shared/time.ts';
import { useTimeZone, withZone } from '../../shared/useTimeZone.ts';
import { ACTION_GROUPS, actionColor, actionKey, auditKeys, fetchAudit, type AuditListParams } from './auditActions.ts';

const PAGE_SIZES = [20, 50, 100, 200];

interface Filters {
  account: string;
  action: string | undefined;
  range: [Dayjs | null, Dayjs | null] | null;
}
const EMPTY: Filters = { account: '', action: undefined, range: null };

const compactJson = (v: Record<string, unknown> | null): string =>
  v && Object.keys(v).length ? JSON.stringify(v) : '';

/** System > Audit log: sign-ins, failures, lockouts, sign-outs and permission changes, newest first. */
export default function AuditPage() {
  const { t } = useTranslation('audit');
  const queryClient = useQueryClient();
  const [tableTop, scrollY] = useTableScrollY();

  const [filters, setFilters] = useState<Filters>(EMPTY);
  // A picked time is that wall clock in the user's zone (issue 14), whatever the browser's zone.
  const { zone, label: zoneName } = useTimeZone();
  const iso = (d: Dayjs | null | undefined) => (d ? new Date(wallToInstant(d, zone)).toISOString() : undefined);
  const [params, setParams] = useState<AuditListParams>({ pageNum: 1, pageSize: 50, sortOrder: 'descend' });

  const list = useQuery({
    queryKey: auditKeys.list(params),
    queryFn: () => fetchAudit(params),
    placeholderData: keepPreviousData,
    retry: (count, error) => !isCancel(error) && count < 1,
  });

  const apply = (f: Filters) =>
    setParams((p) => ({
      pageNum: 1,
      pageSize: p.pageSize,
      sortOrder: p.sortOrder,
      account: f.account.trim() || undefined,
      action: f.action,
      from: iso(f.range?.[0]),
      to: iso(f.range?.[1]),
    }));

  const onTableChange: TableProps<AuditRow>['onChange'] = (pagination, _filters, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const order = s?.order === 'ascend' ? 'ascend' : 'descend';
    setParams((p) => {
      const pageSize = pagination.pageSize ?? p.pageSize;
      const restart = order !== p.sortOrder || pageSize !== p.pageSize;
      return { ...p, sortOrder: order, pageSize, pageNum: restart ? 1 : (pagination.current ?? 1) };
    });
  };

  const columns: TableColumnsType<AuditRow> = [
    {
      title: withZone(t('fields.time'), zoneName),
      dataIndex: 'at',
      key: 'at',
      width: 180,
      sorter: true,
      sortDirections: ['descend', 'ascend', 'descend'],
      sortOrder: params.sortOrder,
      render: (v: string) => formatTime(v),
    },
    {
      title: t('fields.account'),
      dataIndex: 'account',
      key: 'account',
      width: 150,
      render: (v: string | null) =>
        v ? <Typography.Text strong>{v}</Typography.Text> : <Typography.Text type="secondary">-</Typography.Text>,
    },
    {
      title: t('fields.action'),
      dataIndex: 'action',
      key: 'action',
      width: 200,
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
      width: 180,
      ellipsis: true,
      render: (v: string | null) => v ?? <Typography.Text type="secondary">-</Typography.Text>,
    },
    {
      title: t('fields.detail'),
      dataIndex: 'detail',
      key: 'detail',
      ellipsis: { showTitle: false },
      render: (v: Record<string, unknown> | null) => {
        const text = compactJson(v);
        return text ? (
          <Tooltip title={<span style={{ wordBreak: 'break-all' }}>{text}</span>}>
            <Typography.Text code style={{ fontSize: 12 }}>
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
      width: 150,
      render: (v: string | null) => v ?? <Typography.Text type="secondary">-</Typography.Text>,
    },
  ];

  return (
    <Flex vertical gap={16}>
      <PageHeaderCard icon={<AuditOutlined />} title={t('title')} description={t('description')} />
      <Card variant="borderless" styles={{ body: { paddingBottom: 8 } }}>
        <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 16 }}>
          <Flex gap={12} wrap align="center">
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
          </Flex>
          <Tooltip title={t('actions.reload')}>
            <Button
              icon={<ReloadOutlined />}
              aria-label={t('actions.reload')}
              onClick={() => void queryClient.invalidateQueries({ queryKey: ['audit'] })}
            />
          </Tooltip>
        </Flex>
        <div ref={tableTop}>
          <Table<AuditRow>
            rowKey="id"
            size="middle"
            data-testid="audit-table"
            columns={columns}
            dataSource={list.data?.list ?? []}
            loading={list.isFetching}
            onChange={onTableChange}
            scroll={{ x: 1100, y: scrollY }}
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
    </Flex>
  );
}
