import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Flex, Input, Popconfirm, Select, Table, Tooltip, Typography, message } from 'antd';
import type { TableColumnsType } from 'antd';
import { ClusterOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { TERMINAL_STATUSES, type TerminalKeyAnswer, type TerminalRow } from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { formatTime } from '../../shared/time.ts';
import { catalogueLabel } from '../../shared/labels.ts';
import { PAGE_SIZES, useServerTable } from '../../shared/table/serverTable.ts';
import { useSiteOptions } from '../../shared/sites.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import {
  TERMINAL_SORT_FIELDS,
  deleteTerminal,
  fetchTerminals,
  rotateTerminalKey,
  terminalKeys,
  type TerminalListParams,
} from './terminalsApi.ts';
import { TerminalFormDrawer } from './TerminalFormDrawer.tsx';
import { TerminalKeyModal } from './TerminalKeyModal.tsx';
import { TerminalStatusTag } from './TerminalStatusTag.tsx';

const dash = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '-' : v);

/** Information > Terminals: server-paged data loggers with add, edit, key rotation and delete. */
export default function TerminalsPage() {
  const { t } = useTranslation('terminals');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [tableTop, scrollY] = useTableScrollY();
  const sites = useSiteOptions();
  const table = useServerTable<TerminalListParams>({ pageNum: 1, pageSize: 20 }, TERMINAL_SORT_FIELDS);
  const { params } = table;
  const [keywordInput, setKeywordInput] = useState('');
  const [editing, setEditing] = useState<TerminalRow | null | undefined>(undefined);
  const [shownKey, setShownKey] = useState<(TerminalKeyAnswer & { name: string; rotated: boolean }) | null>(null);

  const list = useQuery({
    queryKey: terminalKeys.list(params),
    queryFn: () => fetchTerminals(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: terminalKeys.all });

  const remove = useMutation({
    mutationFn: (id: number) => deleteTerminal(id),
    onSuccess: () => {
      void msg.success(t('messages.deleted'));
      table.afterDelete(list.data?.list.length ?? 0);
      void refresh();
    },
  });
  const rotate = useMutation({
    mutationFn: (row: TerminalRow) => rotateTerminalKey(row.terminalId),
    onSuccess: (answer, row) => {
      setShownKey({ ...answer, name: row.name, rotated: true });
      void refresh();
    },
  });

  const resetFilters = () => {
    setKeywordInput('');
    table.setParams((p) => ({ pageNum: 1, pageSize: p.pageSize, sortField: p.sortField, sortOrder: p.sortOrder }));
  };

  const sortable = (key: string) => ({ key, sorter: true, sortOrder: table.sortOrderOf(key) });

  const columns: TableColumnsType<TerminalRow> = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      width: 170,
      fixed: 'left',
      ellipsis: true,
      ...sortable('name'),
      render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
    },
    { title: t('fields.serial'), dataIndex: 'serial', width: 150, ...sortable('serial') },
    {
      title: t('fields.site'),
      dataIndex: 'platformName',
      width: 160,
      ellipsis: true,
      ...sortable('platformName'),
    },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      width: 110,
      ...sortable('status'),
      render: (v: TerminalRow['status']) => <TerminalStatusTag status={v} />,
    },
    { title: t('fields.deviceCount'), dataIndex: 'deviceCount', key: 'deviceCount', width: 100, align: 'right' },
    {
      title: t('fields.manufacturer'),
      dataIndex: 'manufacturer',
      width: 140,
      ellipsis: true,
      ...sortable('manufacturer'),
      render: dash,
    },
    { title: t('fields.model'), dataIndex: 'model', width: 120, ellipsis: true, ...sortable('model'), render: dash },
    { title: t('fields.protocolType'), dataIndex: 'protocolType', key: 'protocolType', width: 120 },
    { title: t('fields.port'), dataIndex: 'port', key: 'port', width: 90, render: dash },
    {
      title: t('fields.type'),
      dataIndex: 'type',
      key: 'type',
      width: 110,
      ellipsis: true,
      // A known kind (gateway, RTU, data logger) by its label, free text as typed.
      render: (v: string | null) => dash(v ? catalogueLabel(v, 'terminals:types') : v),
    },
    {
      title: t('fields.parent'),
      dataIndex: 'parentName',
      key: 'parentName',
      width: 140,
      ellipsis: true,
      render: dash,
    },
    {
      title: t('fields.keyRotatedAt'),
      dataIndex: 'keyRotatedAt',
      key: 'keyRotatedAt',
      width: 170,
      render: (v: string) => formatTime(v),
    },
    {
      title: t('fields.createdAt'),
      dataIndex: 'createdAt',
      width: 170,
      ...sortable('createdAt'),
      render: (v: string) => formatTime(v),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 220,
      fixed: 'right',
      render: (_v, row) => (
        <Flex gap={0} wrap={false}>
          <Button type="link" size="small" data-testid="terminal-edit" onClick={() => setEditing(row)}>
            {t('actions.edit')}
          </Button>
          <Popconfirm
            title={t('confirm.rotateTitle', { name: row.name })}
            description={t('confirm.rotateContent')}
            okText={t('actions.rotateKey')}
            okButtonProps={{ 'data-testid': 'terminal-rotate-confirm' }}
            cancelText={t('common.cancel')}
            onConfirm={() => rotate.mutateAsync(row).catch(() => undefined)}
          >
            <Button type="link" size="small" data-testid="terminal-rotate">
              {t('actions.rotateKey')}
            </Button>
          </Popconfirm>
          <Popconfirm
            title={t('confirm.deleteTitle', { name: row.name })}
            description={
              row.deviceCount > 0 ? t('confirm.deleteBound', { count: row.deviceCount }) : t('confirm.deleteContent')
            }
            okText={t('actions.delete')}
            okButtonProps={{ danger: true, 'data-testid': 'terminal-delete-confirm' }}
            cancelText={t('common.cancel')}
            onConfirm={() => remove.mutateAsync(row.terminalId).catch(() => undefined)}
          >
            <Button type="link" size="small" danger data-testid="terminal-delete">
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
      <PageHeaderCard icon={<ClusterOutlined />} title={t('title')} description={t('description')} />
      <Card variant="borderless" styles={{ body: { paddingBottom: 8 } }}>
        <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 16 }}>
          <Flex gap={12} wrap align="center">
            <Input.Search
              allowClear
              data-testid="terminal-search"
              style={{ width: 260 }}
              placeholder={t('filters.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => table.setFilter({ keyword: v.trim() || undefined })}
            />
            <Select<number>
              allowClear
              style={{ width: 200 }}
              placeholder={t('filters.site')}
              value={params.platformId}
              loading={sites.isLoading}
              options={sites.options}
              showSearch={{ optionFilterProp: 'label' }}
              onChange={(v) => table.setFilter({ platformId: v ?? undefined })}
            />
            <Select
              allowClear
              style={{ width: 150 }}
              placeholder={t('filters.status')}
              value={params.status}
              options={TERMINAL_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
              onChange={(v) => table.setFilter({ status: v ?? undefined })}
            />
            <Button onClick={resetFilters}>{t('filters.reset')}</Button>
          </Flex>
          <Flex gap={8}>
            <Tooltip title={t('actions.reload')}>
              <Button icon={<ReloadOutlined />} aria-label={t('actions.reload')} onClick={() => void refresh()} />
            </Tooltip>
            <Button type="primary" icon={<PlusOutlined />} data-testid="terminal-add" onClick={() => setEditing(null)}>
              {t('actions.add')}
            </Button>
          </Flex>
        </Flex>
        <div ref={tableTop}>
          <Table<TerminalRow>
            rowKey="terminalId"
            size="middle"
            data-testid="terminal-table"
            columns={columns}
            dataSource={list.data?.list ?? []}
            loading={list.isFetching}
            onChange={table.onChange}
            scroll={{ x: 1900, y: scrollY }}
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
      <TerminalFormDrawer
        open={editing !== undefined}
        terminal={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={(added, name) => {
          void msg.success(t(added ? 'messages.added' : 'messages.saved'));
          setEditing(undefined);
          if (added) setShownKey({ ...added, name, rotated: false });
          void refresh();
        }}
      />
      <TerminalKeyModal shown={shownKey} onClose={() => setShownKey(null)} />
    </Flex>
  );
}
