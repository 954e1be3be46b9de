import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Flex, Input, Popconfirm, Select, Table, Tag, Tooltip, Typography, message } from 'antd';
import type { TableColumnsType } from 'antd';
import { ContactsOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { PersonRow } from '@geosentry/contract';
import { hasPermission, useSession } from '../../shared/session.ts';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { formatTime } from '../../shared/time.ts';
import { PAGE_SIZES, useServerTable } from '../../shared/table/serverTable.ts';
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
  const [tableTop, scrollY] = useTableScrollY();
  const session = useSession();
  const canPickRole = hasPermission('system:user', session);
  const sites = useSiteOptions();
  const table = useServerTable<PersonListParams>({ pageNum: 1, pageSize: 20 }, PERSON_SORT_FIELDS);
  const { params } = table;
  const [keywordInput, setKeywordInput] = useState('');
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

  const remove = useMutation({
    mutationFn: (id: number) => deletePerson(id),
    onSuccess: () => {
      void msg.success(t('messages.deleted'));
      table.afterDelete(list.data?.list.length ?? 0);
      void refresh();
    },
  });

  const resetFilters = () => {
    setKeywordInput('');
    table.setParams((p) => ({ pageNum: 1, pageSize: p.pageSize, sortField: p.sortField, sortOrder: p.sortOrder }));
  };
  const sortable = (key: string) => ({ key, sorter: true, sortOrder: table.sortOrderOf(key) });

  const columns: TableColumnsType<PersonRow> = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      width: 140,
      fixed: 'left',
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
          <Popconfirm
            title={t('confirm.deleteTitle', { name: row.name })}
            description={t('confirm.deleteContent')}
            okText={t('actions.delete')}
            okButtonProps={{ danger: true, 'data-testid': 'person-delete-confirm' }}
            cancelText={t('common.cancel')}
            onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
          >
            <Button type="link" size="small" danger data-testid="person-delete">
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
      <PageHeaderCard icon={<ContactsOutlined />} title={t('title')} description={t('description')} />
      <Card variant="borderless" styles={{ body: { paddingBottom: 8 } }}>
        <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 16 }}>
          <Flex gap={12} wrap align="center">
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
          </Flex>
          <Flex gap={8}>
            <Tooltip title={t('actions.reload')}>
              <Button icon={<ReloadOutlined />} aria-label={t('actions.reload')} onClick={() => void refresh()} />
            </Tooltip>
            <Button type="primary" icon={<PlusOutlined />} data-testid="person-add" onClick={() => setEditing(null)}>
              {t('actions.add')}
            </Button>
          </Flex>
        </Flex>
        <div ref={tableTop}>
          <Table<PersonRow>
            rowKey="id"
            size="middle"
            data-testid="person-table"
            columns={columns}
            dataSource={list.data?.list ?? []}
            loading={list.isFetching}
            onChange={table.onChange}
            scroll={{ x: 1600, y: scrollY }}
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
    </Flex>
  );
}
