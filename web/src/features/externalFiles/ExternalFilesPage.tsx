import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Flex, Input, Popconfirm, Table, Tooltip, Typography, message } from 'antd';
import type { TableColumnsType } from 'antd';
import { ExportOutlined, LinkOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { ExternalFileRow } from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { formatTime } from '../../shared/time.ts';
import { PAGE_SIZES, useServerTable } from '../../shared/table/serverTable.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import {
  EXTERNAL_FILE_SORT_FIELDS,
  deleteExternalFile,
  externalFileKeys,
  fetchExternalFiles,
  type ExternalFileListParams,
} from './externalFilesApi.ts';
import { ExternalFileFormModal } from './ExternalFileFormModal.tsx';

/** Information > External files: named links to documents kept elsewhere (cloud disks, file shares). */
export default function ExternalFilesPage() {
  const { t } = useTranslation('externalFiles');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [tableTop, scrollY] = useTableScrollY();
  const table = useServerTable<ExternalFileListParams>({ pageNum: 1, pageSize: 20 }, EXTERNAL_FILE_SORT_FIELDS);
  const { params } = table;
  const [keywordInput, setKeywordInput] = useState('');
  const [editing, setEditing] = useState<ExternalFileRow | null | undefined>(undefined);

  const list = useQuery({
    queryKey: externalFileKeys.list(params),
    queryFn: () => fetchExternalFiles(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: externalFileKeys.all });

  const remove = useMutation({
    mutationFn: (id: number) => deleteExternalFile(id),
    onSuccess: () => {
      void msg.success(t('messages.deleted'));
      table.afterDelete(list.data?.list.length ?? 0);
      void refresh();
    },
  });
  const sortable = (key: string) => ({ key, sorter: true, sortOrder: table.sortOrderOf(key) });

  const columns: TableColumnsType<ExternalFileRow> = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      width: 220,
      ...sortable('name'),
      render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
    },
    {
      title: t('fields.url'),
      dataIndex: 'url',
      width: 360,
      ellipsis: true,
      ...sortable('url'),
      render: (v: string) => (
        <a href={v} target="_blank" rel="noopener noreferrer" data-testid="link-open" title={v}>
          <ExportOutlined style={{ marginRight: 6 }} />
          {v}
        </a>
      ),
    },
    {
      title: t('fields.description'),
      dataIndex: 'description',
      key: 'description',
      ellipsis: true,
      render: (v: string | null) => v || '-',
    },
    {
      title: t('fields.role'),
      dataIndex: 'roleName',
      key: 'roleName',
      width: 140,
      render: (v: string | null) => v || '-',
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
      width: 140,
      fixed: 'right',
      render: (_v, row) => (
        <Flex gap={0} wrap={false}>
          <Button type="link" size="small" data-testid="link-edit" onClick={() => setEditing(row)}>
            {t('actions.edit')}
          </Button>
          <Popconfirm
            title={t('confirm.deleteTitle', { name: row.name })}
            description={t('confirm.deleteContent')}
            okText={t('actions.delete')}
            okButtonProps={{ danger: true, 'data-testid': 'link-delete-confirm' }}
            cancelText={t('common.cancel')}
            onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
          >
            <Button type="link" size="small" danger data-testid="link-delete">
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
      <PageHeaderCard icon={<LinkOutlined />} title={t('title')} description={t('description')} />
      <Card variant="borderless" styles={{ body: { paddingBottom: 8 } }}>
        <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 16 }}>
          <Flex gap={12} wrap align="center">
            <Input.Search
              allowClear
              data-testid="link-search"
              style={{ width: 280 }}
              placeholder={t('filters.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => table.setFilter({ keyword: v.trim() || undefined })}
            />
          </Flex>
          <Flex gap={8}>
            <Tooltip title={t('actions.reload')}>
              <Button icon={<ReloadOutlined />} aria-label={t('actions.reload')} onClick={() => void refresh()} />
            </Tooltip>
            <Button type="primary" icon={<PlusOutlined />} data-testid="link-add" onClick={() => setEditing(null)}>
              {t('actions.add')}
            </Button>
          </Flex>
        </Flex>
        <div ref={tableTop}>
          <Table<ExternalFileRow>
            rowKey="id"
            size="middle"
            data-testid="link-table"
            columns={columns}
            dataSource={list.data?.list ?? []}
            loading={list.isFetching}
            onChange={table.onChange}
            scroll={{ x: 1200, y: scrollY }}
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
      <ExternalFileFormModal
        open={editing !== undefined}
        link={editing ?? null}
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
