import { useEffect, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Col, Flex, InputNumber, Row, Table, Typography, message } from 'antd';
import type { TableColumnsType } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { MIN_UPSTREAM_COORDS, type SectionRow, type UpstreamPoint } from '@geosentry/contract';
import { setUpstreamCoords } from './sectionsApi.ts';
import { PointsPreview } from './PointsPreview.tsx';

interface EditRow {
  key: number;
  x: number | null;
  y: number | null;
  elevation: number | null;
}

const PIXEL_MAX = 100000;

/**
 * The upstream-face (dam section) coordinates of a section: pixel points on the section drawing, each with
 * its elevation when known; at least 3 (spec §5). Test hooks: upstream-table, upstream-add-row,
 * upstream-save, upstream-error; inputs #upstream-x-<n>, #upstream-y-<n>, #upstream-elevation-<n> (n from 1).
 */
export function UpstreamCoordsEditor({ section, onSaved }: { section: SectionRow; onSaved: () => void }) {
  const { t } = useTranslation('sections');
  const [msg, msgHolder] = message.useMessage();
  const [rows, setRows] = useState<EditRow[]>([]);
  const [nextKey, setNextKey] = useState(0);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const start = section.upstreamCoords.map((p, i) => ({ key: i, x: p.x, y: p.y, elevation: p.elevation ?? null }));
    setRows(start);
    setNextKey(start.length);
    setError(null);
  }, [section.segmentId, section.updatedAt, section.upstreamCoords]);

  const save = useMutation({
    mutationFn: (coords: UpstreamPoint[]) => setUpstreamCoords(section.segmentId, coords),
    onSuccess: () => {
      void msg.success(t('messages.coordsSaved'));
      onSaved();
    },
  });

  const update = (key: number, patch: Partial<EditRow>) => {
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
    setError(null);
  };
  const addRow = () => {
    setRows((rs) => [...rs, { key: nextKey, x: null, y: null, elevation: null }]);
    setNextKey((k) => k + 1);
    setError(null);
  };

  const onSave = () => {
    if (rows.length < MIN_UPSTREAM_COORDS) {
      setError(t('validation.upstreamMin', { min: MIN_UPSTREAM_COORDS }));
      return;
    }
    const bad = rows.findIndex((r) => r.x === null || r.y === null);
    if (bad >= 0) {
      setError(t('validation.pointIncomplete', { n: bad + 1 }));
      return;
    }
    save.mutate(
      rows.map((r) => ({ x: r.x ?? 0, y: r.y ?? 0, ...(r.elevation !== null ? { elevation: r.elevation } : {}) })),
    );
  };

  const num = (row: EditRow, field: 'x' | 'y' | 'elevation', index: number, pixel: boolean) => (
    <InputNumber<number>
      id={`upstream-${field}-${index + 1}`}
      size="small"
      style={{ width: '100%' }}
      min={pixel ? 0 : undefined}
      max={pixel ? PIXEL_MAX : undefined}
      precision={pixel ? 1 : 3}
      value={row[field]}
      status={pixel && error && row[field] === null ? 'error' : undefined}
      onChange={(v) => update(row.key, { [field]: v })}
    />
  );

  const columns: TableColumnsType<EditRow> = [
    { title: '#', key: 'n', width: 48, render: (_v, _r, i) => i + 1 },
    { title: t('upstream.x'), key: 'x', render: (_v, r, i) => num(r, 'x', i, true) },
    { title: t('upstream.y'), key: 'y', render: (_v, r, i) => num(r, 'y', i, true) },
    { title: t('upstream.elevation'), key: 'elevation', render: (_v, r, i) => num(r, 'elevation', i, false) },
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

  const drawn = rows.filter((r) => r.x !== null && r.y !== null).map((r) => ({ x: r.x ?? 0, y: r.y ?? 0 }));

  return (
    <Flex vertical gap={12}>
      {msgHolder}
      <Typography.Text type="secondary">{t('upstream.hint', { min: MIN_UPSTREAM_COORDS })}</Typography.Text>
      <Row gutter={16}>
        <Col span={14}>
          <Table<EditRow>
            rowKey="key"
            size="small"
            data-testid="upstream-table"
            columns={columns}
            dataSource={rows}
            pagination={false}
            scroll={{ y: 320 }}
            locale={{ emptyText: t('upstream.empty') }}
          />
          <Button
            block
            type="dashed"
            icon={<PlusOutlined />}
            style={{ marginTop: 8 }}
            data-testid="upstream-add-row"
            onClick={addRow}
          >
            {t('actions.addPoint')}
          </Button>
        </Col>
        <Col span={10}>
          <PointsPreview points={drawn} closed={drawn.length >= 3} label={t('upstream.preview')} />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('upstream.preview')}
          </Typography.Text>
        </Col>
      </Row>
      {error ? <Alert type="error" showIcon title={error} data-testid="upstream-error" /> : null}
      <Flex justify="flex-end">
        <Button type="primary" data-testid="upstream-save" loading={save.isPending} onClick={onSave}>
          {t('actions.saveCoords')}
        </Button>
      </Flex>
    </Flex>
  );
}
