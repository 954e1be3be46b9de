import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App, Button, Card, Drawer, Flex, Form, Input, InputNumber, Select, Switch, Tag, TreeSelect } from 'antd';
import { CameraOutlined, PlusOutlined } from '@ant-design/icons';
import {
  CAMERA_CHANNEL_MAX,
  CAMERA_CHANNEL_MIN,
  CAMERA_TYPES,
  CAMERA_VENDORS,
  type Camera,
  type CameraGroupNode,
} from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { SiteFilter } from '../../shared/table/SiteFilter.tsx';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { useSiteOptions } from '../../shared/sites.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import {
  CAMERA_SORT_FIELDS,
  addCamera,
  cameraKeys,
  deleteCamera,
  editCamera,
  fetchCameras,
  type CameraForm,
  type CameraListParams,
} from './camerasApi.ts';
import { GroupTree, useGroupTree } from './GroupTree.tsx';

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

interface GroupOption {
  value: number;
  title: string;
  children: GroupOption[];
}

export function groupOptions(nodes: CameraGroupNode[]): GroupOption[] {
  return nodes.map((n) => ({ value: n.id, title: n.name, children: groupOptions(n.children) }));
}

type FormValues = Omit<CameraForm, 'ptz'> & { ptz?: boolean };

function CameraDrawer({ camera, onClose }: { camera: Camera | null | undefined; onClose: (saved: boolean) => void }) {
  const { t } = useTranslation('cameras');
  const [form] = Form.useForm<FormValues>();
  const tree = useGroupTree();
  const { options: siteOptions } = useSiteOptions();
  const vendor = Form.useWatch('vendor', form);
  const ptz = Form.useWatch('ptz', form);
  const save = useMutation({
    mutationFn: (v: FormValues) => (camera ? editCamera(camera.id, v) : addCamera(v)),
    onSuccess: () => onClose(true),
  });
  return (
    <Drawer
      open={camera !== undefined}
      width={560}
      title={camera ? t('manage.edit', { name: camera.name }) : t('manage.add')}
      onClose={() => onClose(false)}
      destroyOnHidden
      afterOpenChange={(open) => {
        if (!open) return;
        form.resetFields();
        if (camera)
          form.setFieldsValue({
            ...camera,
            vmCode: camera.vmCode ?? undefined,
            vmUser: camera.vmUser ?? undefined,
            rtspUrl: camera.rtspUrl ?? undefined,
            subRtspUrl: camera.subRtspUrl ?? undefined,
            onvifUrl: camera.onvifUrl ?? undefined,
            lon: camera.lon ?? undefined,
            lat: camera.lat ?? undefined,
            address: camera.address ?? undefined,
            principal: camera.principal ?? undefined,
            vmPassword: undefined,
          });
      }}
      extra={
        <Button type="primary" data-testid="camera-save" loading={save.isPending} onClick={() => form.submit()}>
          {t('actions.save')}
        </Button>
      }
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={{ channel: 1, type: 'bullet', vendor: 'hikvision', ptz: false }}
        onFinish={(v) => save.mutate(v)}
      >
        <Flex gap={12}>
          <Form.Item name="groupId" label={t('fields.group')} rules={[{ required: true }]} style={{ flex: 1 }}>
            <TreeSelect treeData={groupOptions(tree.data ?? [])} treeDefaultExpandAll data-testid="camera-group" />
          </Form.Item>
          <Form.Item name="platformId" label={t('fields.site')} rules={[{ required: true }]} style={{ flex: 1 }}>
            <Select showSearch={{ optionFilterProp: 'label' }} options={siteOptions} data-testid="camera-site" />
          </Form.Item>
        </Flex>
        <Flex gap={12}>
          <Form.Item name="name" label={t('fields.name')} rules={[{ required: true, max: 100 }]} style={{ flex: 1 }}>
            <Input data-testid="camera-name" />
          </Form.Item>
          <Form.Item
            name="serialNumber"
            label={t('fields.serialNumber')}
            rules={[{ required: true, max: 64 }]}
            style={{ flex: 1 }}
          >
            <Input />
          </Form.Item>
        </Flex>
        <Flex gap={12}>
          <Form.Item name="channel" label={t('fields.channel')} rules={[{ required: true }]} style={{ width: 120 }}>
            <InputNumber min={CAMERA_CHANNEL_MIN} max={CAMERA_CHANNEL_MAX} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="type" label={t('fields.type')} rules={[{ required: true }]} style={{ flex: 1 }}>
            <Select options={CAMERA_TYPES.map((v) => ({ value: v, label: t(`types.${v}`) }))} />
          </Form.Item>
          <Form.Item name="vendor" label={t('fields.vendor')} rules={[{ required: true }]} style={{ flex: 1 }}>
            <Select options={CAMERA_VENDORS.map((v) => ({ value: v, label: t(`vendors.${v}`) }))} />
          </Form.Item>
        </Flex>
        <Flex gap={12}>
          <Form.Item name="vmCode" label={t('fields.vmCode')} style={{ flex: 1 }}>
            <Input />
          </Form.Item>
          <Form.Item name="vmUser" label={t('fields.vmUser')} style={{ flex: 1 }}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="vmPassword"
            label={t('fields.vmPassword')}
            style={{ flex: 1 }}
            extra={camera?.hasVmPassword ? t('manage.passwordKept') : undefined}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </Flex>
        <Form.Item
          name="ip"
          label={t('fields.ip')}
          rules={[
            { required: true },
            {
              validator: async (_r, v: string) => {
                if (v && !IPV4.test(v.trim()) && !v.includes(':')) throw new Error(t('manage.badIp'));
              },
            },
          ]}
        >
          <Input placeholder="192.168.1.64" />
        </Form.Item>
        <Form.Item
          name="rtspUrl"
          label={t('fields.rtspUrl')}
          extra={t('manage.rtspHelp')}
          rules={[
            { required: vendor === 'onvif' || vendor === 'other' },
            { pattern: /^rtsps?:\/\/[^\s/@]+(\/\S*)?$/, message: t('manage.badRtsp') },
          ]}
        >
          <Input placeholder="rtsp://192.168.1.64:554/Streaming/Channels/101" />
        </Form.Item>
        <Form.Item
          name="subRtspUrl"
          label={t('fields.subRtspUrl')}
          extra={t('manage.subRtspHelp')}
          rules={[{ pattern: /^rtsps?:\/\/[^\s/@]+(\/\S*)?$/, message: t('manage.badRtsp') }]}
        >
          <Input placeholder="rtsp://192.168.1.64:554/Streaming/Channels/102" />
        </Form.Item>
        <Flex gap={12} align="flex-start">
          <Form.Item name="ptz" label={t('fields.ptz')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item
            name="onvifUrl"
            label={t('fields.onvifUrl')}
            style={{ flex: 1 }}
            rules={[{ required: !!ptz }, { pattern: /^https?:\/\/[^\s/@]+(\/\S*)?$/, message: t('manage.badUrl') }]}
          >
            <Input placeholder="http://192.168.1.64/onvif/device_service" />
          </Form.Item>
        </Flex>
        <Flex gap={12}>
          <Form.Item name="lon" label={t('fields.lon')} style={{ flex: 1 }}>
            <InputNumber min={-180} max={180} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="lat" label={t('fields.lat')} style={{ flex: 1 }}>
            <InputNumber min={-90} max={90} style={{ width: '100%' }} />
          </Form.Item>
        </Flex>
        <Form.Item name="address" label={t('fields.address')}>
          <Input />
        </Form.Item>
        <Form.Item name="principal" label={t('fields.principal')}>
          <Input />
        </Form.Item>
      </Form>
    </Drawer>
  );
}

/** Camera > camera management: the cameras of a group (tree on the left) or site, added and edited in a drawer. */
export default function CamerasPage() {
  const { t } = useTranslation('cameras');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const table = useServerTable<CameraListParams>({ pageNum: 1, pageSize: 10 }, CAMERA_SORT_FIELDS, {
    filters: { groupId: 'number', platformId: 'number', vendor: 'string', keyword: 'string' },
  });
  const { params, setFilter } = table;
  const { sites } = useSiteOptions();
  const [editing, setEditing] = useState<Camera | null | undefined>(undefined);
  const list = useQuery({
    queryKey: cameraKeys.list(params),
    queryFn: () => fetchCameras(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: cameraKeys.all });
  const sortable = (key: string) => ({ key, sorter: true, sortOrder: table.sortOrderOf(key) });
  const columns: ServerColumn<Camera>[] = [
    { title: t('fields.name'), dataIndex: 'name', width: 180, hideable: false, ...sortable('name') },
    { title: t('fields.site'), dataIndex: 'platformName', width: 150, ...sortable('platformName') },
    {
      title: t('fields.group'),
      dataIndex: 'groupName',
      width: 200,
      ...sortable('groupName'),
      render: (_v, row) => row.groupPath.join(' / '),
    },
    { title: t('fields.channel'), dataIndex: 'channel', width: 80, ...sortable('channel') },
    {
      title: t('fields.vendor'),
      dataIndex: 'vendor',
      width: 110,
      ...sortable('vendor'),
      render: (v: Camera['vendor']) => t(`vendors.${v}`),
    },
    {
      title: t('fields.type'),
      dataIndex: 'type',
      key: 'type',
      width: 100,
      render: (v: Camera['type']) => t(`types.${v}`),
    },
    { title: t('fields.ip'), dataIndex: 'ip', key: 'ip', width: 130 },
    {
      title: t('fields.ptz'),
      dataIndex: 'ptz',
      key: 'ptz',
      width: 70,
      render: (v: boolean) => (v ? <Tag color="blue">{t('fields.ptz')}</Tag> : '-'),
    },
    {
      title: t('fields.principal'),
      dataIndex: 'principal',
      key: 'principal',
      width: 100,
      render: (v: string | null) => v ?? '-',
    },
    {
      title: t('actions.title'),
      key: 'actions',
      width: 140,
      fixed: 'right',
      render: (_v, row) => (
        <Flex>
          <Button type="link" size="small" onClick={() => setEditing(row)}>
            {t('actions.edit')}
          </Button>
          <DeleteAction
            title={t('manage.deleteTitle', { name: row.name })}
            onDelete={() => deleteCamera(row.id)}
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
    <Flex gap={16} align="flex-start">
      <Card size="small" title={t('groups.title')} style={{ width: 240, flex: 'none' }}>
        <GroupTree
          selected={params.groupId ? `g${params.groupId}` : undefined}
          onSelect={(key) => setFilter({ groupId: key ? Number(key.slice(1)) : undefined })}
        />
      </Card>
      <div style={{ flex: 1, minWidth: 0 }}>
        <ListPage
          icon={<CameraOutlined />}
          title={t('manage.title')}
          description={t('manage.description')}
          extra={
            <Button type="primary" icon={<PlusOutlined />} data-testid="camera-add" onClick={() => setEditing(null)}>
              {t('manage.add')}
            </Button>
          }
        >
          <ServerTable<Camera>
            tableId="cameras"
            rowKey="id"
            data-testid="camera-table"
            table={table}
            query={list}
            columns={columns}
            onReload={() => void refresh()}
            totalText={(total) => t('manage.total', { count: total })}
            filters={
              <>
                <SiteFilter
                  placeholder={t('live.siteAll')}
                  sites={sites}
                  value={params.platformId}
                  onChange={(platformId) => setFilter({ platformId })}
                />
                <Select
                  allowClear
                  style={{ width: 150 }}
                  placeholder={t('manage.allVendors')}
                  value={params.vendor}
                  options={CAMERA_VENDORS.map((v) => ({ value: v, label: t(`vendors.${v}`) }))}
                  onChange={(v) => setFilter({ vendor: v ?? undefined })}
                />
                <Input.Search
                  allowClear
                  style={{ width: 200 }}
                  placeholder={t('manage.keyword')}
                  defaultValue={params.keyword}
                  onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
                />
              </>
            }
          />
        </ListPage>
      </div>
      <CameraDrawer
        camera={editing}
        onClose={(saved) => {
          setEditing(undefined);
          if (saved) {
            void message.success(t('messages.saved'));
            void refresh();
          }
        }}
      />
    </Flex>
  );
}
