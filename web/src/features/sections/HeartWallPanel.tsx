import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Popconfirm, Select, Table, Typography, message } from 'antd';
import type { TableColumnsType } from 'antd';
import type { HeartWallBinding } from '@geosentry/contract';
import { formatTime } from '../users/ui/formatTime.ts';
import { bindHeartWall, fetchHeartWall, sectionKeys, unbindHeartWall } from './sectionsApi.ts';

const isId = (s: string): boolean => /^\d{1,9}$/.test(s.trim());

/**
 * The core-wall ("heart wall") devices of a section: the bound devices with delete, and binding by device
 * number (several at once: all or none). The devices feature will bring a device picker.
 * Test hooks: heartwall-table, #heartwall-device-ids, heartwall-bind, heartwall-delete(-confirm).
 */
export function HeartWallPanel({ segmentId }: { segmentId: number }) {
  const { t } = useTranslation('sections');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [ids, setIds] = useState<string[]>([]);
  const list = useQuery({ queryKey: sectionKeys.heartWall(segmentId), queryFn: () => fetchHeartWall(segmentId) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: sectionKeys.heartWall(segmentId) });

  const bind = useMutation({
    mutationFn: (deviceIds: number[]) => bindHeartWall(segmentId, deviceIds),
    onSuccess: () => {
      void msg.success(t('messages.devicesBound'));
      setIds([]);
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

  const columns: TableColumnsType<HeartWallBinding> = [
    { title: t('heartWall.deviceId'), dataIndex: 'deviceId', key: 'deviceId' },
    { title: t('heartWall.boundAt'), dataIndex: 'createdAt', key: 'createdAt', render: (v: string) => formatTime(v) },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 100,
      render: (_v, row) => (
        <Popconfirm
          title={t('confirm.unbindDevice', { id: row.deviceId })}
          okText={t('actions.delete')}
          okButtonProps={{ danger: true, 'data-testid': 'heartwall-delete-confirm' }}
          cancelText={t('form.cancel')}
          onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
        >
          <Button type="link" size="small" danger data-testid="heartwall-delete">
            {t('actions.delete')}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  const valid = ids.filter(isId);
  return (
    <Flex vertical gap={12}>
      {msgHolder}
      <Typography.Text type="secondary">{t('heartWall.hint')}</Typography.Text>
      <Flex gap={8}>
        <Select<string[]>
          id="heartwall-device-ids"
          mode="tags"
          style={{ flex: 1 }}
          tokenSeparators={[',', ' ', '，']}
          placeholder={t('heartWall.placeholder')}
          value={ids}
          open={false}
          suffixIcon={null}
          onChange={(v) => setIds(v.filter(isId).map((s) => s.trim()))}
        />
        <Button
          type="primary"
          data-testid="heartwall-bind"
          disabled={valid.length === 0}
          loading={bind.isPending}
          onClick={() => bind.mutate([...new Set(valid.map(Number))])}
        >
          {t('actions.bindDevices')}
        </Button>
      </Flex>
      <Table<HeartWallBinding>
        rowKey="id"
        size="small"
        data-testid="heartwall-table"
        columns={columns}
        dataSource={list.data ?? []}
        loading={list.isFetching}
        pagination={false}
        locale={{ emptyText: t('heartWall.empty') }}
      />
    </Flex>
  );
}
