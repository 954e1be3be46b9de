import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Popconfirm, Select, Table, Typography, message } from 'antd';
import type { TableColumnsType } from 'antd';
import type { DeviceOption, HeartWallBinding } from '@geosentry/contract';
import { formatTime } from '../../shared/time.ts';
import { DeviceStateTag } from '../devices/index.ts';
import { deviceKeys, fetchDeviceOptions } from '../devices/index.ts';
import { bindHeartWall, fetchHeartWall, sectionKeys, unbindHeartWall } from './sectionsApi.ts';

interface BoundRow extends HeartWallBinding {
  device: DeviceOption | undefined;
}

/**
 * The core-wall ("heart wall") devices of a section: a searchable picker of the devices of the section's site
 * (grouped by monitor type, several at once: all or none, bindMiltiHeartWallDevice), and the bound devices
 * with their number, type and state, each with unbind.
 * Test hooks: #heartwall-devices, heartwall-bind, heartwall-table, heartwall-delete(-confirm).
 */
export function HeartWallPanel({ segmentId, platformId }: { segmentId: number; platformId: number }) {
  const { t } = useTranslation('sections');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [picked, setPicked] = useState<number[]>([]);
  const list = useQuery({ queryKey: sectionKeys.heartWall(segmentId), queryFn: () => fetchHeartWall(segmentId) });
  const devices = useQuery({
    queryKey: deviceKeys.options({ platformId }),
    queryFn: () => fetchDeviceOptions({ platformId }),
    staleTime: 30_000,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: sectionKeys.heartWall(segmentId) });

  const bind = useMutation({
    mutationFn: (deviceIds: number[]) => bindHeartWall(segmentId, deviceIds),
    onSuccess: () => {
      void msg.success(t('messages.devicesBound'));
      setPicked([]);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => unbindHeartWall(id),
    onSuccess: () => {
      void msg.success(t('messages.deviceRemoved'));
      void refresh();
    },
  });

  const byId = useMemo(() => new Map((devices.data ?? []).map((d) => [d.deviceId, d])), [devices.data]);
  const boundIds = useMemo(() => new Set((list.data ?? []).map((b) => b.deviceId)), [list.data]);
  const rows: BoundRow[] = (list.data ?? []).map((b) => ({ ...b, device: byId.get(b.deviceId) }));

  // Devices not bound yet, grouped by monitor type; the option text carries the name and number for search.
  const options = useMemo(() => {
    const groups = new Map<string, { label: string; value: number; title: string }[]>();
    for (const d of devices.data ?? []) {
      if (boundIds.has(d.deviceId)) continue;
      const label = `${d.deviceName} (${d.number})`;
      groups.set(d.moduleName, [...(groups.get(d.moduleName) ?? []), { label, value: d.deviceId, title: label }]);
    }
    return [...groups.entries()].map(([name, opts]) => ({ label: name, title: name, options: opts }));
  }, [devices.data, boundIds]);

  const nameOf = (row: BoundRow) => row.device?.deviceName ?? t('heartWall.unknownDevice', { id: row.deviceId });
  const columns: TableColumnsType<BoundRow> = [
    {
      title: t('heartWall.device'),
      key: 'device',
      render: (_v, row) => <Typography.Text strong>{nameOf(row)}</Typography.Text>,
    },
    { title: t('heartWall.number'), key: 'number', render: (_v, row) => row.device?.number ?? '-' },
    { title: t('heartWall.type'), key: 'type', render: (_v, row) => row.device?.moduleName ?? '-' },
    {
      title: t('heartWall.state'),
      key: 'state',
      width: 100,
      render: (_v, row) => (row.device ? <DeviceStateTag state={row.device.state} /> : '-'),
    },
    { title: t('heartWall.boundAt'), dataIndex: 'createdAt', key: 'createdAt', render: (v: string) => formatTime(v) },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 100,
      render: (_v, row) => (
        <Popconfirm
          title={t('confirm.unbindDevice', { name: nameOf(row) })}
          okText={t('actions.unbind')}
          okButtonProps={{ danger: true, 'data-testid': 'heartwall-delete-confirm' }}
          cancelText={t('form.cancel')}
          onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
        >
          <Button type="link" size="small" danger data-testid="heartwall-delete">
            {t('actions.unbind')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Flex vertical gap={12}>
      {msgHolder}
      <Typography.Text type="secondary">{t('heartWall.hint')}</Typography.Text>
      <Flex gap={8}>
        <Select<number[]>
          id="heartwall-devices"
          mode="multiple"
          allowClear
          style={{ flex: 1 }}
          placeholder={t('heartWall.placeholder')}
          loading={devices.isFetching}
          value={picked}
          options={options}
          showSearch={{ optionFilterProp: 'label' }}
          notFoundContent={devices.isFetching ? undefined : t('heartWall.noDevices')}
          onChange={(v) => setPicked(v)}
        />
        <Button
          type="primary"
          data-testid="heartwall-bind"
          disabled={picked.length === 0}
          loading={bind.isPending}
          onClick={() => bind.mutate(picked)}
        >
          {t('actions.bindDevices')}
        </Button>
      </Flex>
      <Table<BoundRow>
        rowKey="id"
        size="small"
        data-testid="heartwall-table"
        columns={columns}
        dataSource={rows}
        loading={list.isFetching}
        pagination={false}
        locale={{ emptyText: t('heartWall.empty') }}
      />
    </Flex>
  );
}
