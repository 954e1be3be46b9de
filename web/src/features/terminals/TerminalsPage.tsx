import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Input, Popconfirm, Select, Typography, message } from 'antd';
import { ClusterOutlined, PlusOutlined } from '@ant-design/icons';
import { TERMINAL_STATUSES, type TerminalKeyAnswer, type TerminalRow } from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { formatTime } from '../../shared/time.ts';
import { catalogueLabel } from '../../shared/labels.ts';
import { useServerTable } from '../../shared/table/serverTable.ts';
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

/** Information > Terminals: server-paged data loggers with add, edit, key rotation and delete. */
export default function TerminalsPage() {
  const { t } = useTranslation('terminals');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const sites = useSiteOptions();
  const table = useServerTable<TerminalListParams>({ pageNum: 1, pageSize: 20 }, TERMINAL_SORT_FIELDS, {
    filters: { keyword: 'string', platformId: 'number', status: 'string' },
  });
  const { params } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
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
    table.resetFilters();
  };

  const columns: ServerColumn<TerminalRow>[] = [
    {
      key: 'name',
      title: t('fields.name'),
      dataIndex: 'name',
      width: 170,
      sortable: true,
      ellipsis: true,
      render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
    },
    { key: 'serial', title: t('fields.serial'), dataIndex: 'serial', width: 150, sortable: true },
    { key: 'platformName', title: t('fields.site'), dataIndex: 'platformName', width: 160, sortable: true },
    {
      key: 'status',
      title: t('fields.status'),
      dataIndex: 'status',
      width: 110,
      sortable: true,
      render: (v: TerminalRow['status']) => <TerminalStatusTag status={v} />,
    },
    { key: 'deviceCount', title: t('fields.deviceCount'), dataIndex: 'deviceCount', width: 100, align: 'right' },
    {
      key: 'manufacturer',
      title: t('fields.manufacturer'),
      dataIndex: 'manufacturer',
      width: 140,
      sortable: true,
      optional: 7,
    },
    { key: 'model', title: t('fields.model'), dataIndex: 'model', width: 120, sortable: true, optional: 6 },
    { key: 'protocolType', title: t('fields.protocolType'), dataIndex: 'protocolType', width: 120, optional: 4 },
    { key: 'port', title: t('fields.port'), dataIndex: 'port', width: 90, optional: 3 },
    {
      key: 'type',
      title: t('fields.type'),
      dataIndex: 'type',
      width: 110,
      ellipsis: true,
      optional: 5,
      // A known kind (gateway, RTU, data logger) by its label, free text as typed.
      render: (v: string | null) => (v ? catalogueLabel(v, 'terminals:types') : '-'),
    },
    { key: 'parentName', title: t('fields.parent'), dataIndex: 'parentName', width: 140, optional: 2 },
    {
      key: 'keyRotatedAt',
      title: t('fields.keyRotatedAt'),
      dataIndex: 'keyRotatedAt',
      width: 170,
      optional: 1,
      render: (v: string) => formatTime(v),
    },
    {
      key: 'createdAt',
      title: t('fields.createdAt'),
      dataIndex: 'createdAt',
      width: 170,
      sortable: true,
      optional: 8,
      render: (v: string) => formatTime(v),
    },
    {
      key: 'actions',
      title: t('fields.actions'),
      width: 220,
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
    <ListPage icon={<ClusterOutlined />} title={t('title')} description={t('description')}>
      {msgHolder}
      <ServerTable<TerminalRow>
        tableId="terminals"
        rowKey="terminalId"
        data-testid="terminal-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(total) => t('list.total', { count: total })}
        filters={
          <>
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
          </>
        }
        actions={
          <Button type="primary" icon={<PlusOutlined />} data-testid="terminal-add" onClick={() => setEditing(null)}>
            {t('actions.add')}
          </Button>
        }
      />
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
    </ListPage>
  );
}
