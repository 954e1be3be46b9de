import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Input, Typography, message } from 'antd';
import { ExportOutlined, LinkOutlined, PlusOutlined } from '@ant-design/icons';
import type { ExternalFileRow } from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { formatTime } from '../../shared/time.ts';
import { useServerTable } from '../../shared/table/serverTable.ts';
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
  const table = useServerTable<ExternalFileListParams>({ pageNum: 1, pageSize: 20 }, EXTERNAL_FILE_SORT_FIELDS, {
    filters: { keyword: 'string' },
  });
  const { params } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
  const [editing, setEditing] = useState<ExternalFileRow | null | undefined>(undefined);

  const list = useQuery({
    queryKey: externalFileKeys.list(params),
    queryFn: () => fetchExternalFiles(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: externalFileKeys.all });

  const sortable = (key: string) => ({ key, sorter: true, sortOrder: table.sortOrderOf(key) });

  const columns: ServerColumn<ExternalFileRow>[] = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      width: 220,
      hideable: false,
      ...sortable('name'),
      render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
    },
    {
      title: t('fields.url'),
      dataIndex: 'url',
      width: 320,
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
      width: 240,
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
          <DeleteAction
            title={t('confirm.deleteTitle', { name: row.name })}
            description={t('confirm.deleteContent')}
            label={t('actions.delete')}
            data-testid="link-delete"
            onDelete={() => deleteExternalFile(row.id)}
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
    <ListPage icon={<LinkOutlined />} title={t('title')} description={t('description')}>
      {msgHolder}
      <ServerTable<ExternalFileRow>
        tableId="externalFiles"
        rowKey="id"
        data-testid="link-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(total) => t('list.total', { count: total })}
        filters={
          <>
            <Input.Search
              allowClear
              data-testid="link-search"
              style={{ width: 280 }}
              placeholder={t('filters.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => table.setFilter({ keyword: v.trim() || undefined })}
            />
          </>
        }
        actions={
          <>
            <Button type="primary" icon={<PlusOutlined />} data-testid="link-add" onClick={() => setEditing(null)}>
              {t('actions.add')}
            </Button>
          </>
        }
      />
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
    </ListPage>
  );
}
