import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Flex, Row, Typography } from 'antd';
import { RadarChartOutlined } from '@ant-design/icons';
import type { AreaAlert } from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { SimpleTable } from '../../shared/ui/SimpleTable.tsx';
import { formatTime } from '../../shared/time.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { AreaMap } from './AreaMap.tsx';
import { AreaTable, useAreaList } from './AreaList.tsx';
import { areaKeys, fetchArea } from './areasApi.ts';
import { LevelTag } from './common.tsx';

/**
 * Area monitoring > My areas (myareasmos, area:monitor): the areas of the user's sites with their state; the chosen
 * area live on the map (polygon in its level's colour, its devices by level), its open alerts. Refreshed every
 * 10 s. Test hooks: area-table, area-map (data-level), area-alerts, area-level.
 */
export default function AreaMonitorPage() {
  const { t } = useTranslation('areas');
  const state = useAreaList(true);
  const rows = state.list.data?.list;
  const [selected, setSelected] = useState<number | undefined>();
  useEffect(() => {
    if (rows?.length && (selected === undefined || !rows.some((r) => r.id === selected))) setSelected(rows[0]!.id);
  }, [rows, selected]);
  const info = useQuery({
    queryKey: areaKeys.info(selected ?? 0),
    queryFn: () => fetchArea(selected!),
    enabled: selected !== undefined,
    refetchInterval: 10_000,
    retry: retryUnlessCancelled,
  });
  const a = info.data;
  return (
    <ListPage icon={<RadarChartOutlined />} title={t('monitor.title')} description={t('monitor.description')}>
      <Row gutter={[12, 12]}>
        <Col xs={24} xl={12}>
          <AreaTable tableId="areas.monitor" state={state} onRow={(r) => setSelected(r.id)} selected={selected} />
        </Col>
        <Col xs={24} xl={12}>
          <Card
            size="small"
            title={
              a ? (
                <Flex gap={8} align="center">
                  <span>{a.name}</span>
                  <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
                    {a.platformName}
                  </Typography.Text>
                  <span data-testid="area-level">
                    <LevelTag level={a.level} />
                  </span>
                </Flex>
              ) : (
                t('monitor.pick')
              )
            }
            extra={
              a ? (
                <Typography.Text type="secondary">
                  {t('monitor.summary', { devices: a.devices, alerting: a.alerting })}
                </Typography.Text>
              ) : null
            }
          >
            {a ? (
              <Flex vertical gap={12}>
                <AreaMap points={a.points} devices={a.deviceList} level={a.level} fitKey={a.id} height={380} />
                <SimpleTable<AreaAlert>
                  data-testid="area-alerts"
                  rows={a.alerts}
                  rowKey={(r) => r.id}
                  empty={<Typography.Text type="secondary">{t('monitor.noAlerts')}</Typography.Text>}
                  columns={[
                    { key: 'level', title: t('col.level'), render: (r) => <LevelTag level={r.level} /> },
                    { key: 'device', title: t('col.device'), render: (r) => r.deviceName },
                    {
                      key: 'value',
                      title: t('col.value'),
                      align: 'right',
                      render: (r) => (r.lastValue === null ? '-' : `${r.quantity ?? ''} ${r.lastValue}`),
                    },
                    {
                      key: 'status',
                      title: t('col.status'),
                      render: (r) => t(`status.${r.status}`, { defaultValue: r.status }),
                    },
                    { key: 'at', title: t('col.lastAt'), render: (r) => formatTime(r.lastAt) },
                  ]}
                />
                {a.unplaced > 0 ? (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('monitor.unplaced', { count: a.unplaced })}
                  </Typography.Text>
                ) : null}
              </Flex>
            ) : (
              <Empty description={t('empty')} />
            )}
          </Card>
        </Col>
      </Row>
    </ListPage>
  );
}
