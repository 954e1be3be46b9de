import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Col, Flex, InputNumber, Row, Spin, Table, Typography, message } from 'antd';
import type { TableColumnsType } from 'antd';
import { DeleteOutlined, PlusOutlined, SortAscendingOutlined } from '@ant-design/icons';
import type { CapacityRow } from '@geosentry/contract';
import { fetchCapacity, saveCapacity, sectionKeys } from './sectionsApi.ts';
import { PointsPreview } from './PointsPreview.tsx';

interface EditRow {
  key: number;
  waterLevelElevation: number | null;
  waterVolume: number | null;
}

/** The first row (1-based) where the table stops rising, or null: levels must rise and volumes not fall. */
export function firstNotRising(rows: { waterLevelElevation: number; waterVolume: number }[]): number | null {
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1]!;
    const b = rows[i]!;
    if (b.waterLevelElevation <= a.waterLevelElevation || b.waterVolume < a.waterVolume) return i + 1;
  }
  return null;
}

/**
 * The capacity (storage) table of a site or one of its sections: water level elevation → water volume,
 * rows numbered in order. Saved whole (it replaces the stored table).
 * Test hooks: capacity-table, capacity-add-row, capacity-save, capacity-error; inputs #capacity-level-<n>,
 * #capacity-volume-<n>.
 */
export function CapacityTableEditor({ platformId, segmentId }: { platformId: number; segmentId?: number | undefined }) {
  const { t } = useTranslation('sections');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [rows, setRows] = useState<EditRow[]>([]);
  const [nextKey, setNextKey] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const table = useQuery({
    queryKey: sectionKeys.capacity(platformId, segmentId),
    queryFn: () => fetchCapacity(platformId, segmentId),
  });

  useEffect(() => {
    const start = [...(table.data ?? [])]
      .sort((a, b) => a.index - b.index)
      .map((r, i) => ({ key: i, waterLevelElevation: r.waterLevelElevation, waterVolume: r.waterVolume }));
    setRows(start);
    setNextKey(start.length);
    setError(null);
  }, [table.data]);

  const save = useMutation({
    mutationFn: (list: CapacityRow[]) => saveCapacity(platformId, segmentId, list),
    onSuccess: () => {
      void msg.success(t('messages.capacitySaved'));
      void queryClient.invalidateQueries({ queryKey: sectionKeys.capacity(platformId, segmentId) });
    },
  });

  const update = (key: number, patch: Partial<EditRow>) => {
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
    setError(null);
  };

  const onSave = () => {
    const bad = rows.findIndex((r) => r.waterLevelElevation === null || r.waterVolume === null);
    if (bad >= 0) {
      setError(t('validation.rowIncomplete', { n: bad + 1 }));
      return;
    }
    const list = rows.map((r, i) => ({
      index: i + 1,
      waterLevelElevation: r.waterLevelElevation ?? 0,
      waterVolume: r.waterVolume ?? 0,
    }));
    const notRising = firstNotRising(list);
    if (notRising !== null) {
      setError(t('validation.capacityRising', { n: notRising }));
      return;
    }
    save.mutate(list);
  };

  const sortByLevel = () =>
    setRows((rs) =>
      [...rs].sort(
        (a, b) =>
          (a.waterLevelElevation ?? Number.POSITIVE_INFINITY) - (b.waterLevelElevation ?? Number.POSITIVE_INFINITY),
      ),
    );

  const columns: TableColumnsType<EditRow> = [
    { title: t('capacity.index'), key: 'index', width: 64, render: (_v, _r, i) => i + 1 },
    {
      title: `${t('capacity.level')} (${t('units.m')})`,
      key: 'level',
      render: (_v, r, i) => (
        <InputNumber<number>
          id={`capacity-level-${i + 1}`}
          size="small"
          style={{ width: '100%' }}
          precision={3}
          value={r.waterLevelElevation}
          onChange={(v) => update(r.key, { waterLevelElevation: v })}
        />
      ),
    },
    {
      title: `${t('capacity.volume')} (${t('units.tenThousandM3')})`,
      key: 'volume',
      render: (_v, r, i) => (
        <InputNumber<number>
          id={`capacity-volume-${i + 1}`}
          size="small"
          style={{ width: '100%' }}
          min={0}
          precision={3}
          value={r.waterVolume}
          onChange={(v) => update(r.key, { waterVolume: v })}
        />
      ),
    },
    {
      title: '',
      key: 'remove',
      width: 48,
      render: (_v, r) => (
        <Button
          type="text"
          size="small"
          danger
          icon={<DeleteOutlined />}
          aria-label={t('actions.removeRow')}
          onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))}
        />
      ),
    },
  ];

  const curve = rows
    .filter((r) => r.waterLevelElevation !== null && r.waterVolume !== null)
    .map((r) => ({ x: r.waterVolume ?? 0, y: r.waterLevelElevation ?? 0 }));

  if (table.isLoading)
    return (
      <Flex justify="center" style={{ padding: 32 }}>
        <Spin />
      </Flex>
    );

  return (
    <Flex vertical gap={12}>
      {msgHolder}
      <Typography.Text type="secondary">{t('capacity.hint')}</Typography.Text>
      <Row gutter={16}>
        <Col span={14}>
          <Table<EditRow>
            rowKey="key"
            size="small"
            data-testid="capacity-table"
            columns={columns}
            dataSource={rows}
            pagination={false}
            scroll={{ y: 320 }}
            locale={{ emptyText: t('capacity.empty') }}
          />
          <Flex gap={8} style={{ marginTop: 8 }}>
            <Button
              block
              type="dashed"
              icon={<PlusOutlined />}
              data-testid="capacity-add-row"
              onClick={() => {
                setRows((rs) => [...rs, { key: nextKey, waterLevelElevation: null, waterVolume: null }]);
                setNextKey((k) => k + 1);
              }}
            >
              {t('actions.addRow')}
            </Button>
            <Button icon={<SortAscendingOutlined />} onClick={sortByLevel} disabled={rows.length < 2}>
              {t('actions.sortRows')}
            </Button>
          </Flex>
        </Col>
        <Col span={10}>
          <PointsPreview points={curve} yUp label={t('capacity.preview')} />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('capacity.preview')}
          </Typography.Text>
        </Col>
      </Row>
      {error ? <Alert type="error" showIcon title={error} data-testid="capacity-error" /> : null}
      <Flex justify="flex-end">
        <Button type="primary" data-testid="capacity-save" loading={save.isPending} onClick={onSave}>
          {t('actions.saveCapacity')}
        </Button>
      </Flex>
    </Flex>
  );
}
