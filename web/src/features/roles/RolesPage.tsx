import { useMemo, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Badge, Button, Card, Flex, Input, Popconfirm, Table, Tag, Tooltip, Typography, message } from 'antd';
import type { TableColumnsType, TableProps } from 'antd';
import { PlusOutlined, ReloadOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import type { RoleRow } from '@geosentry/contract';
import { isCancel } from '../../shared/api.ts';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { readCurrentUser } from '../../shared/currentUser.ts';
import { formatTime } from '../../shared/time.ts';
import {
  ROLE_SORT_FIELDS,
  deleteRole,
  fetchRoles,
  roleKeys,
  type RoleListParams,
  type RoleSortField,
} from './rolesApi.ts';
import { RoleFormModal } from './RoleFormModal.tsx';
import { RolePermissionsDrawer } from './RolePermissionsDrawer.tsx';

const PAGE_SIZES = [10, 20, 50, 100];
const isSortField = (v: unknown): v is RoleSortField =>
  typeof v === 'string' && (ROLE_SORT_FIELDS as readonly string[]).includes(v);
const retry = (count: number, error: unknown): boolean => !isCancel(error) && count < 1;

/** System > Roles: server-paged roles with add, edit, permission assignment and delete. */
export default function RolesPage() {
  const { t } = useTranslation('roles');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [tableTop, scrollY] = useTableScrollY();
  const me = useMemo(readCurrentUser, []);

  const [params, setParams] = useState<RoleListParams>({ pageNum: 1, pageSize: 20 });
  const [keywordInput, setKeywordInput] = useState('');
  const [editing, setEditing] = useState<RoleRow | null | undefined>(undefined);
  const [granting, setGranting] = useState<RoleRow | null>(null);

  const list = useQuery({
    queryKey: roleKeys.list(params),
    queryFn: () => fetchRoles(params),
    placeholderData: keepPreviousData,
    retry,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: roleKeys.all });

  const remove = useMutation({
    mutationFn: (id: number) => deleteRole(id),
    onSuccess: () => {
      void msg.success(t('messages.deleted'));
      if ((list.data?.list.length ?? 0) <= 1 && params.pageNum > 1)
        setParams((p) => ({ ...p, pageNum: p.pageNum - 1 }));
      void refresh();
    },
  });

  const onTableChange: TableProps<RoleRow>['onChange'] = (pagination, _filters, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const field = s?.order && isSortField(s.columnKey) ? s.columnKey : undefined;
    setParams((p) => {
      const order = field ? (s?.order ?? undefined) : undefined;
      const pageSize = pagination.pageSize ?? p.pageSize;
      const restart = field !== p.sortField || order !== p.sortOrder || pageSize !== p.pageSize;
      return { ...p, sortField: field, sortOrder: order, pageSize, pageNum: restart ? 1 : (pagination.current ?? 1) };
    });
  };
  const sortOrderOf = (field: RoleSortField) => (params.sortField === field ? (params.sortOrder ?? null) : null);

  const deleteBlock = (row: RoleRow): string | null => {
    if (row.builtin) return t('delete.builtin');
    if (row.userCount > 0) return t('delete.inUse', { count: row.userCount });
    return null;
  };

  const columns: TableColumnsType<RoleRow> = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      key: 'name',
      width: 170,
      fixed: 'left',
      sorter: true,
      sortOrder: sortOrderOf('name'),
      render: (v: string, row) => (
        <Flex gap={6} align="center" wrap>
          <Typography.Text strong>{v}</Typography.Text>
          {row.id === me.roleId ? <Tag color="processing">{t('self.tag')}</Tag> : null}
        </Flex>
      ),
    },
    {
      title: t('fields.code'),
      dataIndex: 'code',
      key: 'code',
      width: 140,
      sorter: true,
      sortOrder: sortOrderOf('code'),
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    {
      title: t('fields.description'),
      dataIndex: 'description',
      key: 'description',
      ellipsis: { showTitle: true },
      render: (v: string | null) => v ?? <Typography.Text type="secondary">-</Typography.Text>,
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
      sorter: true,
      sortOrder: sortOrderOf('userCount'),
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
      sorter: true,
      sortOrder: sortOrderOf('createdAt'),
      render: (v: string) => formatTime(v),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 200,
      fixed: 'right',
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
            {blocked ? (
              <Tooltip title={blocked}>
                <Button type="link" size="small" danger disabled data-testid="role-delete">
                  {t('actions.delete')}
                </Button>
              </Tooltip>
            ) : (
              <Popconfirm
                title={t('delete.title', { name: row.name })}
                description={t('delete.content')}
                okText={t('actions.delete')}
                okButtonProps={{ danger: true, 'data-testid': 'role-delete-confirm' }}
                cancelText={t('common.cancel')}
                onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
              >
                <Button type="link" size="small" danger data-testid="role-delete">
                  {t('actions.delete')}
                </Button>
              </Popconfirm>
            )}
          </Flex>
        );
      },
    },
  ];

  return (
    <Flex vertical gap={16}>
      {msgHolder}
      <PageHeaderCard icon={<SafetyCertificateOutlined />} title={t('title')} description={t('description')} />
      <Card variant="borderless" styles={{ body: { paddingBottom: 8 } }}>
        <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 16 }}>
          <Flex gap={12} wrap align="center">
            <Input.Search
              allowClear
              data-testid="role-search"
              style={{ width: 280 }}
              placeholder={t('filters.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => setParams((p) => ({ ...p, keyword: v.trim() || undefined, pageNum: 1 }))}
            />
            <Button
              onClick={() => {
                setKeywordInput('');
                setParams((p) => ({ ...p, keyword: undefined, pageNum: 1 }));
              }}
            >
              {t('filters.reset')}
            </Button>
          </Flex>
          <Flex gap={8}>
            <Tooltip title={t('actions.reload')}>
              <Button icon={<ReloadOutlined />} aria-label={t('actions.reload')} onClick={() => void refresh()} />
            </Tooltip>
            <Button type="primary" icon={<PlusOutlined />} data-testid="role-add" onClick={() => setEditing(null)}>
              {t('actions.add')}
            </Button>
          </Flex>
        </Flex>
        <div ref={tableTop}>
          <Table<RoleRow>
            rowKey="id"
            size="middle"
            data-testid="role-table"
            columns={columns}
            dataSource={list.data?.list ?? []}
            loading={list.isFetching}
            onChange={onTableChange}
            scroll={{ x: 1150, y: scrollY }}
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
    </Flex>
  );
}
