import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Input, Select, Tag, Tooltip, Typography, message } from 'antd';
import { ContactsOutlined, PlusOutlined } from '@ant-design/icons';
import type { PersonRow } from '@geosentry/contract';
import { hasPermission, useSession } from '../../shared/session.ts';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { formatTime } from '../../shared/time.ts';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { useSiteOptions } from '../../shared/sites.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import {
  PERSON_SORT_FIELDS,
  deletePerson,
  fetchPersons,
  fetchRoles,
  personKeys,
  type PersonListParams,
} from './personsApi.ts';
import { PersonFormModal } from './PersonFormModal.tsx';

const dash = (v: string | null) => v || '-';

/** Information > Responsible persons: paged on the server (its default page is 10000; the screen pages by 20). */
export default function PersonsPage() {
  const { t } = useTranslation('persons');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const session = useSession();
  const canPickRole = hasPermission('system:user', session);
  const sites = useSiteOptions();
  const table = useServerTable<PersonListParams>({ pageNum: 1, pageSize: 20 }, PERSON_SORT_FIELDS, {
    filters: { keyword: 'string', platformId: 'number', roleId: 'number' },
  });
  const { params } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
  const [editing, setEditing] = useState<PersonRow | null | undefined>(undefined);

  const list = useQuery({
    queryKey: personKeys.list(params),
    queryFn: () => fetchPersons(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const roles = useQuery({
    queryKey: personKeys.roles,
    queryFn: fetchRoles,
    enabled: canPickRole,
    retry: retryUnlessCancelled,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: personKeys.all });

  const resetFilters = () => {
    setKeywordInput('');
    table.resetFilters();
  };
  const sortable = (key: string) => ({ key, sorter: true, sortOrder: table.sortOrderOf(key) });

  const columns: ServerColumn<PersonRow>[] = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      width: 140,
      fixed: 'left',
      hideable: false,
      ...sortable('name'),
      render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
    },
    {
      title: t('fields.phone'),
      dataIndex: 'phone',
      width: 160,
      ...sortable('phone'),
      render: (v: string) => <a href={`tel:${v.replace(/[\s-]/g, '')}`}>{v}</a>,
    },
    { title: t('fields.title'), dataIndex: 'title', width: 140, ellipsis: true, ...sortable('title'), render: dash },
    {
      title: t('fields.company'),
      dataIndex: 'company',
      width: 180,
      ellipsis: true,
      ...sortable('company'),
      render: dash,
    },
    {
      title: t('fields.companyAddress'),
      dataIndex: 'companyAddress',
      key: 'companyAddress',
      width: 200,
      ellipsis: true,
      render: dash,
    },
    {
      title: t('fields.email'),
      dataIndex: 'email',
      key: 'email',
      width: 200,
      ellipsis: true,
      render: (v: string | null) => (v ? <a href={`mailto:${v}`}>{v}</a> : '-'),
    },
    { title: t('fields.role'), dataIndex: 'roleName', key: 'roleName', width: 140, render: dash },
    {
      title: t('fields.sites'),
      dataIndex: 'platformIds',
      key: 'sites',
      width: 130,
      render: (ids: number[]) => {
        if (!ids.length) return <Tag>{t('list.allSites')}</Tag>;
        const names = ids.map((id) => sites.names.get(id) ?? `#${id}`);
        return (
          <Tooltip title={names.join(', ')}>
            <Tag color="blue">{t('list.siteCount', { count: ids.length })}</Tag>
          </Tooltip>
        );
      },
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
          <Button type="link" size="small" data-testid="person-edit" onClick={() => setEditing(row)}>
            {t('actions.edit')}
          </Button>
          <DeleteAction
            title={t('confirm.deleteTitle', { name: row.name })}
            description={t('confirm.deleteContent')}
            label={t('actions.delete')}
            data-testid="person-delete"
            onDelete={() => deletePerson(row.id)}
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
    <ListPage icon={<ContactsOutlined />} title={t('title')} description={t('description')}>
      {msgHolder}
      <ServerTable<PersonRow>
        tableId="persons"
        rowKey="id"
        data-testid="person-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(total) => t('list.total', { count: total })}
        filters={
          <>
            <Input.Search
              allowClear
              data-testid="person-search"
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
            {canPickRole ? (
              <Select<number>
                allowClear
                style={{ width: 180 }}
                placeholder={t('filters.role')}
                value={params.roleId}
                loading={roles.isLoading}
                options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
                onChange={(v) => table.setFilter({ roleId: v ?? undefined })}
              />
            ) : null}
            <Button onClick={resetFilters}>{t('filters.reset')}</Button>
          </>
        }
        actions={
          <>
            <Button type="primary" icon={<PlusOutlined />} data-testid="person-add" onClick={() => setEditing(null)}>
              {t('actions.add')}
            </Button>
          </>
        }
      />
      <PersonFormModal
        open={editing !== undefined}
        person={editing ?? null}
        canPickRole={canPickRole}
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
