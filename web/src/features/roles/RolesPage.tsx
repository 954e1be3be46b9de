import { useMemo, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { roleLabel } from '../../shared/labels.ts';
import { Badge, Button, Flex, Input, Tag, Typography, message } from 'antd';
import { PlusOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import type { RoleRow } from '@geosentry/contract';
import { isCancel } from '../../shared/api.ts';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { readCurrentUser } from '../../shared/currentUser.ts';
import { formatTime } from '../../shared/time.ts';
import { ROLE_SORT_FIELDS, deleteRole, fetchRoles, roleKeys, type RoleListParams } from './rolesApi.ts';
import { RoleFormModal } from './RoleFormModal.tsx';
import { RolePermissionsDrawer } from './RolePermissionsDrawer.tsx';

const retry = (count: number, error: unknown): boolean => !isCancel(error) && count < 1;

/** System > Roles: server-paged roles with add, edit, permission assignment and delete. */
export default function RolesPage() {
  const { t } = useTranslation('roles');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const me = useMemo(readCurrentUser, []);

  const table = useServerTable<RoleListParams>({ pageNum: 1, pageSize: 20 }, ROLE_SORT_FIELDS, {
    filters: { keyword: 'string' },
  });
  const { params } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
  const [editing, setEditing] = useState<RoleRow | null | undefined>(undefined);
  const [granting, setGranting] = useState<RoleRow | null>(null);

  const list = useQuery({
    queryKey: roleKeys.list(params),
    queryFn: () => fetchRoles(params),
    placeholderData: keepPreviousData,
    retry,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: roleKeys.all });

  const deleteBlock = (row: RoleRow): string | null => {
    if (row.builtin) return t('delete.builtin');
    if (row.userCount > 0) return t('delete.inUse', { count: row.userCount });
    return null;
  };

  const columns: ServerColumn<RoleRow>[] = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      key: 'name',
      width: 170,
      fixed: 'left',
      hideable: false,
      sortable: true,
      render: (v: string, row) => (
        <Flex gap={6} align="center" wrap>
          <Typography.Text strong>{roleLabel({ code: row.code, name: v })}</Typography.Text>
          {row.id === me.roleId ? <Tag color="processing">{t('self.tag')}</Tag> : null}
        </Flex>
      ),
    },
    {
      title: t('fields.code'),
      dataIndex: 'code',
      key: 'code',
      width: 140,
      sortable: true,
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    {
      title: t('fields.description'),
      dataIndex: 'description',
      key: 'description',
      width: 220,
    },
    {
      title: t('fields.parent'),
      dataIndex: 'parentName',
      key: 'parent',
      width: 130,
      render: (v: string | null) => (v ? <Tag>{v}</Tag> : <Typography.Text type="secondary">-</Typography.Text>),
    },
    {
      title: t('fields.users'),
      dataIndex: 'userCount',
      key: 'userCount',
      width: 90,
      align: 'center',
      sortable: true,
      render: (v: number) => <Badge count={v} showZero color={v > 0 ? 'blue' : '#bfbfbf'} overflowCount={9999} />,
    },
    {
      title: t('fields.kind'),
      dataIndex: 'builtin',
      key: 'builtin',
      width: 100,
      render: (v: boolean) => (v ? <Tag color="gold">{t('kind.builtin')}</Tag> : <Tag>{t('kind.custom')}</Tag>),
    },
    {
      title: t('fields.createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 170,
      sortable: true,
      render: (v: string) => formatTime(v),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 200,
      render: (_v, row) => {
        const blocked = deleteBlock(row);
        return (
          <Flex gap={0} wrap={false}>
            <Button
              type="link"
              size="small"

              data-testid="role-edit"
              onClick={() => setEditing(row)}
            >
              {t('actions.edit')}
            </Button>
            <Button
              type="link"
              size="small"

              data-testid="role-permissions"
              data-role-code={row.code}
              onClick={() => setGranting(row)}
            >
              {t('actions.permissions')}
            </Button>
            <DeleteAction
              title={t('delete.title', { name: row.name })}
              description={t('delete.content')}
              label={t('actions.delete')}
              disabledReason={blocked}
              data-testid="role-delete"
              onDelete={() => deleteRole(row.id)}
              success={t('messages.deleted')}
              onDone={() => {
                table.afterDelete(list.data?.list.length ?? 0);
                void refresh();
              }}
            />
          </Flex>
        );
      },
    },
  ];

  return (
    <ListPage icon={<SafetyCertificateOutlined />} title={t('title')} description={t('description')}>
      {msgHolder}
      <ServerTable<RoleRow>
        tableId="roles"
        rowKey="id"
        data-testid="role-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(total) => t('list.total', { count: total })}
        filters={
          <>
            <Input.Search
              allowClear
              data-testid="role-search"
              style={{ width: 280 }}
              placeholder={t('filters.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => table.setFilter({ keyword: v.trim() || undefined })}
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
        actions={
          <Button type="primary" icon={<PlusOutlined />} data-testid="role-add" onClick={() => setEditing(null)}>
            {t('actions.add')}
          </Button>
        }
      />
      <RoleFormModal
        open={editing !== undefined}
        role={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={(added) => {
          void msg.success(t(added ? 'messages.added' : 'messages.saved'));
          setEditing(undefined);
          void refresh();
        }}
      />
      <RolePermissionsDrawer
        role={granting}
        ownRoleId={me.roleId}
        onClose={() => setGranting(null)}
        onSaved={() => {
          void msg.success(t('messages.permissionsSaved'));
          setGranting(null);
          void refresh();
        }}
      />
    </ListPage>
  );
}
