import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Flex, Input, Popconfirm, Table, Tag, Tooltip, Typography, message } from 'antd';
import type { TableColumnsType } from 'antd';
import { MenuOutlined, MinusSquareOutlined, PlusOutlined, PlusSquareOutlined, ReloadOutlined } from '@ant-design/icons';
import type { PermissionNode } from '@geosentry/contract';
import { isCancel } from '../../shared/api.ts';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { deletePermission, fetchPermissionTree, permissionKeys } from './permissionsApi.ts';
import { usePermissionLabel } from './usePermissionLabel.ts';
import { PermissionFormModal } from './PermissionFormModal.tsx';

const TYPE_COLORS: Record<string, string> = { menu: 'blue', common: 'green', button: 'orange' };

interface Editing {
  node: PermissionNode | null;
  parentId: number | null;
}

/** Keeps the nodes whose label or code contains the text, with the groups that hold matching screens. */
function filterTree(nodes: PermissionNode[], text: string, label: (p: PermissionNode) => string): PermissionNode[] {
  const q = text.trim().toLowerCase();
  if (!q) return nodes;
  const hit = (p: PermissionNode) =>
    label(p).toLowerCase().includes(q) || p.code.toLowerCase().includes(q) || (p.path ?? '').toLowerCase().includes(q);
  const out: PermissionNode[] = [];
  for (const n of nodes) {
    const kids = (n.children ?? []).filter(hit);
    if (hit(n)) out.push(n);
    else if (kids.length) out.push({ ...n, children: kids });
  }
  return out;
}

/** System > Menu management: the two-level permission tree with add, edit and delete. */
export default function PermissionsPage() {
  const { t } = useTranslation('permissions');
  const label = usePermissionLabel();
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [tableTop, scrollY] = useTableScrollY(40);

  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState<number[] | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);

  const tree = useQuery({
    queryKey: permissionKeys.tree,
    queryFn: fetchPermissionTree,
    retry: (count, error) => !isCancel(error) && count < 1,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: permissionKeys.tree });

  const roots = useMemo(() => tree.data ?? [], [tree.data]);
  const rows = useMemo(() => filterTree(roots, search, label), [roots, search, label]);
  const groupIds = useMemo(() => roots.filter((n) => (n.children?.length ?? 0) > 0).map((n) => n.id), [roots]);
  const total = useMemo(() => roots.reduce((sum, n) => sum + 1 + (n.children?.length ?? 0), 0), [roots]);

  const remove = useMutation({
    mutationFn: (id: number) => deletePermission(id),
    onSuccess: () => {
      void msg.success(t('messages.deleted'));
      void refresh();
      // Roles may have held the deleted permissions.
      void queryClient.invalidateQueries({ queryKey: ['roles'] });
    },
  });

  const columns: TableColumnsType<PermissionNode> = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      key: 'name',
      width: 280,
      render: (_v, row) => {
        const shown = label(row);
        const text = <Typography.Text strong={row.level === 1}>{shown}</Typography.Text>;
        // A translated catalogue label: the stored name is shown on hover.
        return shown !== row.name ? <Tooltip title={`${t('list.storedName')}: ${row.name}`}>{text}</Tooltip> : text;
      },
    },
    {
      title: t('fields.code'),
      dataIndex: 'code',
      key: 'code',
      width: 260,
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    {
      title: t('fields.type'),
      dataIndex: 'type',
      key: 'type',
      width: 110,
      render: (v: string) => <Tag color={TYPE_COLORS[v] ?? 'default'}>{t(`types.${v}`, { defaultValue: v })}</Tag>,
    },
    {
      title: t('fields.level'),
      dataIndex: 'level',
      key: 'level',
      width: 100,
      render: (v: number) => (v === 1 ? t('levels.parent') : t('levels.child')),
    },
    {
      title: t('fields.path'),
      dataIndex: 'path',
      key: 'path',
      ellipsis: true,
      render: (v: string | null) => v ?? <Typography.Text type="secondary">-</Typography.Text>,
    },
    { title: t('fields.sort'), dataIndex: 'sort', key: 'sort', width: 80, align: 'right' },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 200,
      fixed: 'right',
      render: (_v, row) => {
        const kids = row.children?.length ?? 0;
        return (
          <Flex gap={0} wrap={false}>
            {row.level === 1 ? (
              <Button
                type="link"
                size="small"

                data-testid="permission-add-child"
                onClick={() => setEditing({ node: null, parentId: row.id })}
              >
                {t('actions.addChild')}
              </Button>
            ) : null}
            <Button
              type="link"
              size="small"

              data-testid="permission-edit"
              onClick={() => setEditing({ node: row, parentId: row.parentId })}
            >
              {t('actions.edit')}
            </Button>
            <Popconfirm
              title={t('delete.title', { name: label(row) })}
              description={kids > 0 ? t('delete.withChildren', { count: kids }) : t('delete.content')}
              okText={t('actions.delete')}
              okButtonProps={{ danger: true, 'data-testid': 'permission-delete-confirm' }}
              cancelText={t('common.cancel')}
              onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
            >
              <Button type="link" size="small" danger data-testid="permission-delete">
                {t('actions.delete')}
              </Button>
            </Popconfirm>
          </Flex>
        );
      },
    },
  ];

  // While searching every matching group is open.
  const expandedKeys = search.trim() ? rows.map((r) => r.id) : (expanded ?? groupIds);

  return (
    <Flex vertical gap={16}>
      {msgHolder}
      <PageHeaderCard icon={<MenuOutlined />} title={t('title')} description={t('description')} />
      <Card variant="borderless">
        <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 16 }}>
          <Flex gap={12} wrap align="center">
            <Input.Search
              allowClear
              data-testid="permission-search"
              style={{ width: 280 }}
              placeholder={t('filters.keyword')}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
            <Button icon={<PlusSquareOutlined />} onClick={() => setExpanded(groupIds)}>
              {t('actions.expandAll')}
            </Button>
            <Button icon={<MinusSquareOutlined />} onClick={() => setExpanded([])}>
              {t('actions.collapseAll')}
            </Button>
            <Typography.Text type="secondary">{t('list.total', { groups: roots.length, total })}</Typography.Text>
          </Flex>
          <Flex gap={8}>
            <Tooltip title={t('actions.reload')}>
              <Button icon={<ReloadOutlined />} aria-label={t('actions.reload')} onClick={() => void refresh()} />
            </Tooltip>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              data-testid="permission-add"
              onClick={() => setEditing({ node: null, parentId: null })}
            >
              {t('actions.add')}
            </Button>
          </Flex>
        </Flex>
        <div ref={tableTop}>
          <Table<PermissionNode>
            rowKey="id"
            size="middle"
            data-testid="permission-table"
            columns={columns}
            dataSource={rows}
            loading={tree.isFetching}
            pagination={false}
            virtual
            scroll={{ x: 1300, y: scrollY }}
            expandable={{
              expandedRowKeys: expandedKeys,
              onExpandedRowsChange: (keys) => setExpanded(keys.map(Number)),
            }}
          />
        </div>
      </Card>
      <PermissionFormModal
        open={editing !== null}
        node={editing?.node ?? null}
        parentId={editing?.parentId ?? null}
        parents={roots}
        onClose={() => setEditing(null)}
        onSaved={(added) => {
          void msg.success(t(added ? 'messages.added' : 'messages.saved'));
          setEditing(null);
          void refresh();
        }}
      />
    </Flex>
  );
}
