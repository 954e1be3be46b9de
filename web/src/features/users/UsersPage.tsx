import { useMemo, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { roleLabel } from '../../shared/labels.ts';
import { Button, Flex, Input, Modal, Popconfirm, Select, Switch, Tag, Tooltip, Typography, message } from 'antd';
import { LockOutlined, PlusOutlined, TeamOutlined } from '@ant-design/icons';
import { SUPER_ADMIN_ROLE, type UserRow } from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { mayUse, readCurrentUser } from '../../shared/currentUser.ts';
import { formatTime } from '../../shared/time.ts';
import {
  USER_SORT_FIELDS,
  deleteUser,
  enableUser,
  fetchAllRoles,
  fetchSiteOptions,
  fetchUsers,
  retryUnlessCancelled,
  unlockUser,
  userKeys,
  type UserListParams,
} from './usersApi.ts';
import { UserFormDrawer } from './UserFormDrawer.tsx';
import { ResetPasswordModal } from './ResetPasswordModal.tsx';

/** System > Users: server-paged, sorted and filtered accounts, with add, edit, enable, reset password and delete. */
export default function UsersPage() {
  const { t } = useTranslation('users');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [modal, modalHolder] = Modal.useModal();
  const me = useMemo(readCurrentUser, []);
  const canSeeSites = mayUse(me, 'system:data');

  const table = useServerTable<UserListParams>({ pageNum: 1, pageSize: 20 }, USER_SORT_FIELDS, {
    filters: { keyword: 'string', roleId: 'number', enabled: 'boolean' },
  });
  const { params, setFilter } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
  const [editing, setEditing] = useState<UserRow | null | undefined>(undefined);
  const [resetting, setResetting] = useState<UserRow | null>(null);
  const [switching, setSwitching] = useState<number | null>(null);

  const list = useQuery({
    queryKey: userKeys.list(params),
    queryFn: () => fetchUsers(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const roles = useQuery({ queryKey: userKeys.roles, queryFn: fetchAllRoles, retry: retryUnlessCancelled });
  const sites = useQuery({
    queryKey: userKeys.sites,
    queryFn: fetchSiteOptions,
    enabled: canSeeSites,
    retry: retryUnlessCancelled,
  });
  const siteNames = useMemo(() => new Map((sites.data ?? []).map((s) => [s.platformId, s.name])), [sites.data]);

  // User counts of roles change with users, so the role lists are refreshed too.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: userKeys.all }),
      queryClient.invalidateQueries({ queryKey: ['roles'] }),
    ]);

  const enable = useMutation({
    mutationFn: (v: { id: number; enabled: boolean }) => enableUser(v.id, v.enabled),
    onMutate: (v) => setSwitching(v.id),
    onSettled: () => setSwitching(null),
    onSuccess: (_d, v) => {
      void msg.success(t(v.enabled ? 'messages.enabled' : 'messages.disabled'));
      void refresh();
    },
  });
  const unlock = useMutation({
    mutationFn: (id: number) => unlockUser(id),
    onSuccess: () => {
      void msg.success(t('messages.unlocked'));
      void refresh();
    },
  });
  const resetFilters = () => {
    setKeywordInput('');
    table.resetFilters();
  };

  const onToggle = (row: UserRow, enabled: boolean) => {
    if (enabled) {
      enable.mutate({ id: row.id, enabled });
      return;
    }
    void modal.confirm({
      title: t('confirm.disableTitle', { account: row.account }),
      content: t('confirm.disableContent'),
      okText: t('confirm.disableOk'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: () => enable.mutateAsync({ id: row.id, enabled }).catch(() => undefined),
    });
  };

  /** Only a super administrator manages super administrator accounts (the server refuses the rest). */
  const outOfReach = (row: UserRow) => !me.superAdmin && row.roleCode === SUPER_ADMIN_ROLE;

  const columns: ServerColumn<UserRow>[] = [
    {
      title: t('fields.account'),
      dataIndex: 'account',
      key: 'account',
      width: 200,
      fixed: 'left',
      hideable: false,
      sortable: true,
      render: (v: string, row) => (
        <Flex gap={6} align="center">
          <Typography.Text strong>{v}</Typography.Text>
          {row.id === me.id ? <Tag color="processing">{t('self.tag')}</Tag> : null}
          {row.locked ? (
            <Tooltip title={t('lock.hint')}>
              <Tag color="red" icon={<LockOutlined />} data-testid="user-locked">
                {t('lock.locked')}
              </Tag>
            </Tooltip>
          ) : null}
        </Flex>
      ),
    },
    {
      title: t('fields.name'),
      dataIndex: 'name',
      key: 'name',
      width: 140,
      sortable: true,
    },
    {
      title: t('fields.role'),
      dataIndex: 'roleName',
      key: 'roleName',
      width: 150,
      sortable: true,
      render: (v: string, row) => (
        <Tag color={row.roleCode === 'superAdmin' ? 'gold' : 'blue'}>{roleLabel({ code: row.roleCode, name: v })}</Tag>
      ),
    },
    { title: t('fields.phone'), dataIndex: 'phone', key: 'phone', width: 140 },
    { title: t('fields.email'), dataIndex: 'email', key: 'email', width: 200 },
    { title: t('fields.area'), dataIndex: 'area', key: 'area', width: 140 },
    {
      title: t('fields.dataScope'),
      key: 'scope',
      width: 130,
      render: (_v, row) => {
        if (row.scopeAll) return <Tag color="green">{t('scope.all')}</Tag>;
        const names = row.platformIds.map((id) => siteNames.get(id) ?? `#${id}`);
        const tag = <Tag>{t('scope.count', { count: row.platformIds.length })}</Tag>;
        return names.length ? <Tooltip title={names.join(', ')}>{tag}</Tooltip> : tag;
      },
    },
    {
      title: t('fields.enabled'),
      dataIndex: 'enabled',
      key: 'enabled',
      width: 110,
      sortable: true,
      render: (v: boolean, row) => {
        const self = row.id === me.id;
        const guarded = outOfReach(row);
        const sw = (
          <Switch
            size="small"
            checked={v}
            data-testid="user-enabled"
            disabled={(self && v) || guarded}
            loading={switching === row.id}
            checkedChildren={t('status.on')}
            unCheckedChildren={t('status.off')}
            onChange={(checked) => onToggle(row, checked)}
          />
        );
        return self && v ? (
          <Tooltip title={t('self.cannotDisable')}>{sw}</Tooltip>
        ) : guarded ? (
          <Tooltip title={t('superAdmin.only')}>{sw}</Tooltip>
        ) : (
          sw
        );
      },
    },
    {
      title: t('fields.lastLogin'),
      dataIndex: 'lastLoginAt',
      key: 'lastLoginAt',
      width: 170,
      sortable: true,
      render: (v: string | null) =>
        v ? formatTime(v) : <Typography.Text type="secondary">{t('list.never')}</Typography.Text>,
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
      width: 300,
      render: (_v, row) => {
        const self = row.id === me.id;
        if (outOfReach(row))
          return (
            <Tooltip title={t('superAdmin.only')}>
              <Typography.Text type="secondary" data-testid="user-out-of-reach">
                {t('superAdmin.readOnly')}
              </Typography.Text>
            </Tooltip>
          );
        return (
          <Flex gap={0} wrap={false}>
            <Button type="link" size="small" data-testid="user-edit" onClick={() => setEditing(row)}>
              {t('actions.edit')}
            </Button>
            <Button type="link" size="small" data-testid="user-reset-password" onClick={() => setResetting(row)}>
              {t('actions.resetPassword')}
            </Button>
            {row.locked ? (
              <Popconfirm
                title={t('confirm.unlockTitle', { account: row.account })}
                description={t('confirm.unlockContent')}
                okText={t('actions.unlock')}
                okButtonProps={{ 'data-testid': 'user-unlock-confirm' }}
                cancelText={t('common.cancel')}
                onConfirm={() => unlock.mutateAsync(row.id).catch(() => undefined)}
              >
                <Button type="link" size="small" icon={<LockOutlined />} data-testid="user-unlock">
                  {t('actions.unlock')}
                </Button>
              </Popconfirm>
            ) : null}
            {self ? (
              <Tooltip title={t('self.cannotDelete')}>
                <Button type="link" size="small" danger disabled>
                  {t('actions.delete')}
                </Button>
              </Tooltip>
            ) : (
              <DeleteAction
                title={t('confirm.deleteTitle', { account: row.account })}
                description={t('confirm.deleteContent')}
                label={t('actions.delete')}
                data-testid="user-delete"
                onDelete={() => deleteUser(row.id)}
                success={t('messages.deleted')}
                onDone={() => {
                  table.afterDelete(list.data?.list.length ?? 0);
                  void refresh();
                }}
              />
            )}
          </Flex>
        );
      },
    },
  ];

  return (
    <ListPage icon={<TeamOutlined />} title={t('title')} description={t('description')}>
      {msgHolder}
      {modalHolder}
      <ServerTable<UserRow>
        tableId="users"
        rowKey="id"
        data-testid="user-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(total) => t('list.total', { count: total })}
        filters={
          <>
            <Input.Search
              allowClear
              data-testid="user-search"
              style={{ width: 260 }}
              placeholder={t('filters.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
            />
            <Select<number>
              allowClear
              style={{ width: 180 }}
              placeholder={t('filters.role')}
              value={params.roleId}
              loading={roles.isLoading}
              options={(roles.data ?? []).map((r) => ({ value: r.id, label: roleLabel(r) }))}
              onChange={(v) => setFilter({ roleId: v ?? undefined })}
            />
            <Select<'true' | 'false'>
              allowClear
              style={{ width: 150 }}
              placeholder={t('filters.status')}
              value={params.enabled === undefined ? undefined : params.enabled ? 'true' : 'false'}
              options={[
                { value: 'true', label: t('status.enabled') },
                { value: 'false', label: t('status.disabled') },
              ]}
              onChange={(v) => setFilter({ enabled: v === undefined ? undefined : v === 'true' })}
            />
            <Button onClick={resetFilters}>{t('filters.reset')}</Button>
          </>
        }
        actions={
          <Button type="primary" icon={<PlusOutlined />} data-testid="user-add" onClick={() => setEditing(null)}>
            {t('actions.add')}
          </Button>
        }
      />
      <UserFormDrawer
        open={editing !== undefined}
        user={editing ?? null}
        selfId={me.id}
        superAdmin={me.superAdmin}
        canEditScope={canSeeSites}
        onClose={() => setEditing(undefined)}
        onSaved={(added) => {
          void msg.success(t(added ? 'messages.added' : 'messages.saved'));
          setEditing(undefined);
          void refresh();
        }}
      />
      <ResetPasswordModal
        user={resetting}
        onClose={() => setResetting(null)}
        onDone={() => {
          void msg.success(t('messages.passwordReset'));
          setResetting(null);
        }}
      />
    </ListPage>
  );
}
