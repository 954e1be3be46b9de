import { useEffect, useMemo, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Drawer, Empty, Flex, Spin, Tree, Typography } from 'antd';
import type { TreeDataNode } from 'antd';
import { SUPER_ADMIN_ROLE, type PermissionNode, type RoleRow } from '@geosentry/contract';
import { isCancel } from '../../shared/api.ts';
import { fetchPermissionTree, permissionKeys } from '../permissions/index.ts';
import { usePermissionLabel } from '../permissions/index.ts';
import { fetchRolePermissions, roleKeys, setRolePermissions } from './rolesApi.ts';

export interface RolePermissionsDrawerProps {
  /** The role whose permissions are shown; null hides the drawer. */
  role: RoleRow | null;
  /** The signed-in user's role: its permissions cannot be changed by its holder. */
  ownRoleId: number | null;
  onClose: () => void;
  onSaved: () => void;
}

const retry = (count: number, error: unknown): boolean => !isCancel(error) && count < 1;

/**
 * The permissions of a role as a checkable two-level tree. Each node is checked on its own (what is
 * shown is what is saved): checking a group checks its screens, checking a screen checks its group,
 * unchecking a group unchecks its screens.
 */
export function RolePermissionsDrawer({ role, ownRoleId, onClose, onSaved }: RolePermissionsDrawerProps) {
  const { t } = useTranslation('roles');
  const label = usePermissionLabel();
  const open = role !== null;
  const isSuper = role?.code === SUPER_ADMIN_ROLE;
  const isOwn = role !== null && role.id === ownRoleId;
  const readOnly = isSuper || isOwn;

  const tree = useQuery({ queryKey: permissionKeys.tree, queryFn: fetchPermissionTree, enabled: open, retry });
  const held = useQuery({
    queryKey: roleKeys.permissions(role?.id ?? 0),
    queryFn: () => fetchRolePermissions(role?.id ?? 0),
    enabled: open && !isSuper,
    retry,
  });

  const { parentOf, childrenOf, allIds } = useMemo(() => {
    const parentOf = new Map<number, number>();
    const childrenOf = new Map<number, number[]>();
    const allIds: number[] = [];
    for (const n of tree.data ?? []) {
      allIds.push(n.id);
      const kids = (n.children ?? []).map((c) => c.id);
      childrenOf.set(n.id, kids);
      for (const c of kids) {
        parentOf.set(c, n.id);
        allIds.push(c);
      }
    }
    return { parentOf, childrenOf, allIds };
  }, [tree.data]);

  const [checked, setChecked] = useState<number[]>([]);
  const [expanded, setExpanded] = useState<number[] | null>(null);
  useEffect(() => {
    if (!open) return;
    setExpanded(null);
    if (isSuper) setChecked(allIds);
    else if (held.data) setChecked(held.data.filter((id) => allIds.includes(id)));
  }, [open, isSuper, held.data, allIds]);

  const treeData = useMemo(() => {
    const toNode = (n: PermissionNode): TreeDataNode => ({
      key: n.id,
      title: (
        <span>
          {label(n)}{' '}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {n.code}
          </Typography.Text>
        </span>
      ),
      children: n.children?.map(toNode),
    });
    return (tree.data ?? []).map(toNode);
  }, [tree.data, label]);

  const onCheck = (id: number, on: boolean) => {
    setChecked((prev) => {
      const next = new Set(prev);
      const kids = childrenOf.get(id) ?? [];
      const parent = parentOf.get(id);
      if (on) {
        next.add(id);
        for (const k of kids) next.add(k);
        if (parent !== undefined) next.add(parent);
      } else {
        next.delete(id);
        for (const k of kids) next.delete(k);
      }
      return [...next];
    });
  };

  const save = useMutation({
    mutationFn: () => setRolePermissions(role?.id ?? 0, checked),
    onSuccess: onSaved,
  });

  const loading = tree.isLoading || (!isSuper && held.isLoading);
  const groupIds = (tree.data ?? []).filter((n) => (n.children ?? []).length > 0).map((n) => n.id);

  return (
    <Drawer
      open={open}
      size={520}
      title={t('permissions.title', { name: role?.name ?? '' })}
      onClose={onClose}
      destroyOnHidden
      footer={
        <Flex justify="space-between" align="center" gap={8}>
          <Typography.Text type="secondary">
            {t('permissions.count', { count: checked.length, total: allIds.length })}
          </Typography.Text>
          <Flex gap={8}>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button
              type="primary"
              data-testid="role-permissions-save"
              disabled={readOnly || loading}
              loading={save.isPending}
              onClick={() => save.mutate()}
            >
              {t('common.save')}
            </Button>
          </Flex>
        </Flex>
      }
    >
      {isSuper ? <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('permissions.superAdmin')} /> : null}
      {!isSuper && isOwn ? (
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('permissions.ownRole')} />
      ) : null}
      <Flex gap={8} wrap style={{ marginBottom: 12 }}>
        <Button size="small" disabled={readOnly || loading} onClick={() => setChecked(allIds)}>
          {t('permissions.selectAll')}
        </Button>
        <Button size="small" disabled={readOnly || loading} onClick={() => setChecked([])}>
          {t('permissions.clearAll')}
        </Button>
        <Button size="small" onClick={() => setExpanded(groupIds)}>
          {t('permissions.expandAll')}
        </Button>
        <Button size="small" onClick={() => setExpanded([])}>
          {t('permissions.collapseAll')}
        </Button>
      </Flex>
      {loading ? (
        <Flex justify="center" style={{ padding: 48 }}>
          <Spin />
        </Flex>
      ) : treeData.length === 0 ? (
        <Empty />
      ) : (
        <Tree
          checkable
          checkStrictly
          selectable={false}
          disabled={readOnly}
          data-testid="role-permission-tree"
          treeData={treeData}
          checkedKeys={{ checked, halfChecked: [] }}
          expandedKeys={expanded ?? groupIds}
          onExpand={(keys) => setExpanded(keys.map(Number))}
          onCheck={(_keys, info) => onCheck(Number(info.node.key), info.checked)}
        />
      )}
    </Drawer>
  );
}
