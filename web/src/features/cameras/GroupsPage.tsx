import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, App, Button, Card, Flex, Form, Input, Modal, Popconfirm, Select, Switch, Typography } from 'antd';
import { ApartmentOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { CAMERA_GROUP_MAX_LEVEL, type CameraGroupNode } from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { mayUse, readCurrentUser } from '../../shared/currentUser.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import {
  addGroup,
  cameraKeys,
  deleteGroup,
  editGroup,
  fetchCameras,
  fetchRoleConfig,
  fetchRoles,
  saveRoleConfig,
} from './camerasApi.ts';
import { GroupTree, useGroupTree } from './GroupTree.tsx';

function find(nodes: CameraGroupNode[], id: number): CameraGroupNode | undefined {
  for (const n of nodes) {
    if (n.id === id) return n;
    const f = find(n.children, id);
    if (f) return f;
  }
  return undefined;
}

/** Which groups and cameras a role sees (spec §6 role camera configuration), on top of its data scope. */
function RoleCameras() {
  const { t } = useTranslation('cameras');
  const { message } = App.useApp();
  const roles = useQuery({ queryKey: cameraKeys.roles, queryFn: fetchRoles, retry: retryUnlessCancelled });
  const cameras = useQuery({
    queryKey: ['cameras', 'all'],
    queryFn: () => fetchCameras({ pageNum: 1, pageSize: 1000 }),
    retry: retryUnlessCancelled,
  });
  const [roleId, setRoleId] = useState<number>();
  const cfg = useQuery({
    queryKey: cameraKeys.roleConfig(roleId ?? 0),
    queryFn: () => fetchRoleConfig(roleId ?? 0),
    enabled: roleId !== undefined,
    retry: retryUnlessCancelled,
  });
  const [restricted, setRestricted] = useState(false);
  const [checked, setChecked] = useState<string[]>([]);
  useEffect(() => {
    if (!cfg.data) return;
    setRestricted(cfg.data.restricted);
    setChecked([...cfg.data.groupIds.map((g) => `g${g}`), ...cfg.data.cameraIds.map((c) => `c${c}`)]);
  }, [cfg.data]);
  const save = useMutation({
    mutationFn: () =>
      saveRoleConfig(
        roleId ?? 0,
        restricted,
        checked.filter((k) => k.startsWith('g')).map((k) => Number(k.slice(1))),
        checked.filter((k) => k.startsWith('c')).map((k) => Number(k.slice(1))),
      ),
    onSuccess: () => void message.success(t('messages.saved')),
  });
  return (
    <Card size="small" title={t('roles.title')} data-testid="role-cameras">
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{t('roles.description')}</Typography.Text>
        <Select<number>
          placeholder={t('roles.pick')}
          value={roleId}
          onChange={setRoleId}
          options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
        />
        {roleId !== undefined ? (
          <>
            <Flex gap={8} align="center">
              <Switch checked={restricted} onChange={setRestricted} />
              <Typography.Text>{restricted ? t('roles.restricted') : t('roles.all')}</Typography.Text>
            </Flex>
            {restricted ? (
              <GroupTree cameras={cameras.data?.list} checkable checked={checked} onCheck={setChecked} />
            ) : null}
            <Button type="primary" loading={save.isPending} onClick={() => save.mutate()}>
              {t('actions.save')}
            </Button>
          </>
        ) : null}
      </Flex>
    </Card>
  );
}

/**
 * Camera > camera groups: groups three levels deep (spec §9); deleting a group deletes the groups below, their
 * cameras and their pictures, after the spec's warning (§8). Beside it, the role camera configuration.
 */
export default function GroupsPage() {
  const { t } = useTranslation('cameras');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const tree = useGroupTree();
  const [selected, setSelected] = useState<number>();
  const [naming, setNaming] = useState<{ id?: number; parentId?: number; name: string } | null>(null);
  const node = selected !== undefined ? find(tree.data ?? [], selected) : undefined;
  const refresh = () => queryClient.invalidateQueries({ queryKey: cameraKeys.all });
  const save = useMutation({
    mutationFn: (v: { id?: number; parentId?: number; name: string }) =>
      v.id ? editGroup(v.id, v.name) : addGroup(v.name, v.parentId),
    onSuccess: () => {
      setNaming(null);
      void message.success(t('messages.saved'));
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteGroup(id),
    onSuccess: (r) => {
      setSelected(undefined);
      void message.success(t('groups.deleted', { cameras: r.cameras, snapshots: r.snapshots }));
      void refresh();
    },
  });
  const canRoles = mayUse(readCurrentUser(), 'system:role');
  return (
    <Flex vertical gap={16}>
      <PageHeaderCard icon={<ApartmentOutlined />} title={t('groups.title')} description={t('groups.description')} />
      <Flex gap={16} align="flex-start">
        <Card
          size="small"
          style={{ flex: 1, minWidth: 0 }}
          title={t('groups.tree')}
          extra={
            <Flex gap={8}>
              <Button
                size="small"
                icon={<PlusOutlined />}
                data-testid="group-add-root"
                onClick={() => setNaming({ name: '' })}
              >
                {t('groups.addRoot')}
              </Button>
              <Button
                size="small"
                icon={<PlusOutlined />}
                disabled={!node || node.level >= CAMERA_GROUP_MAX_LEVEL}
                onClick={() => node && setNaming({ parentId: node.id, name: '' })}
              >
                {t('groups.addChild')}
              </Button>
              <Button
                size="small"
                icon={<EditOutlined />}
                disabled={!node}
                onClick={() => node && setNaming({ id: node.id, name: node.name })}
              >
                {t('actions.rename')}
              </Button>
              <Popconfirm
                title={t('groups.deleteTitle', { name: node?.name ?? '' })}
                description={t('groups.deleteWarning')}
                okButtonProps={{ danger: true }}
                onConfirm={() => node && remove.mutate(node.id)}
                disabled={!node}
              >
                <Button size="small" danger icon={<DeleteOutlined />} disabled={!node}>
                  {t('actions.delete')}
                </Button>
              </Popconfirm>
            </Flex>
          }
        >
          {node ? (
            <Alert
              style={{ marginBottom: 12 }}
              type="info"
              showIcon
              message={t('groups.selected', { name: node.name, level: node.level })}
            />
          ) : null}
          <GroupTree
            selected={selected ? `g${selected}` : undefined}
            onSelect={(k) => setSelected(k?.startsWith('g') ? Number(k.slice(1)) : undefined)}
          />
        </Card>
        {canRoles ? (
          <div style={{ width: 380, flex: 'none' }}>
            <RoleCameras />
          </div>
        ) : null}
      </Flex>
      <Modal
        open={naming !== null}
        title={naming?.id ? t('actions.rename') : t('groups.add')}
        onCancel={() => setNaming(null)}
        onOk={() => naming && save.mutate(naming)}
        okButtonProps={
          { disabled: !naming?.name.trim(), loading: save.isPending, 'data-testid': 'group-save' } as never
        }
        destroyOnHidden
      >
        <Form layout="vertical">
          <Form.Item label={t('groups.name')} required>
            <Input
              data-testid="group-name"
              maxLength={50}
              value={naming?.name}
              onChange={(e) => setNaming((n) => (n ? { ...n, name: e.target.value } : n))}
            />
          </Form.Item>
        </Form>
      </Modal>
    </Flex>
  );
}
