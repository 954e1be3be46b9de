import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Button, Card, Col, Descriptions, Empty, Flex, Image, Row, Segmented, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { EnvironmentOutlined, LineChartOutlined, UserOutlined } from '@ant-design/icons';
import type { PlatformType, SiteOverview, ViewDevice } from '@geosentry/contract';
import { useMonitorTypes } from '../../shared/catalogue.ts';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import {
  DeviceValues,
  LiveStatus,
  NoSite,
  StateCountsBar,
  StateDot,
  StateTag,
  ViewSitePicker,
  ViewToolbar,
  fmtTime,
} from './common.tsx';
import { STATE_COLORS, useSiteOverview, useViewSite } from './live.ts';
import { pictureUrl } from './viewsApi.ts';

/** The site's header: name, kind, region, manager, coordinates and the device counts by state. */
export function SiteHeader({
  overview,
  counts,
  extra,
}: {
  overview: SiteOverview;
  counts: SiteOverview['stateCounts'];
  extra?: React.ReactNode;
}) {
  const { t } = useTranslation('monitorViews');
  return (
    <Card size="small" data-testid="view-site-header">
      <Flex wrap gap={16} align="center" justify="space-between">
        <Flex vertical gap={4} style={{ minWidth: 0 }}>
          <Flex gap={8} align="center" wrap>
            <h2 className="gs-view-header-name">{overview.name}</h2>
            <Tag color="blue">{t(`kinds.${overview.type}`)}</Tag>
            {extra}
          </Flex>
          <Flex gap={16} wrap>
            <Typography.Text type="secondary">
              <EnvironmentOutlined /> {overview.regionNames.length > 0 ? overview.regionNames.join(' / ') : '-'}
            </Typography.Text>
            <Typography.Text type="secondary">
              <UserOutlined /> {t('header.manager')}: {overview.manager ?? '-'}
            </Typography.Text>
            {overview.lat !== null && overview.lon !== null ? (
              <Typography.Text type="secondary">
                {overview.lat.toFixed(5)}, {overview.lon.toFixed(5)}
              </Typography.Text>
            ) : null}
            <Typography.Text type="secondary">
              {t('header.devices', { count: overview.devices.length })} ·{' '}
              {t('header.terminals', { count: overview.terminals.length })}
            </Typography.Text>
          </Flex>
        </Flex>
        <StateCountsBar counts={counts} testId="view-state-counts" />
      </Flex>
    </Card>
  );
}

/** A device as a tile: state colour bar, name, values, last reading. */
function DeviceTile({ d }: { d: ViewDevice }) {
  return (
    <div
      className="gs-view-tile"
      style={{ borderLeftColor: STATE_COLORS[d.state] }}
      data-testid={`view-tile-${d.deviceId}`}
    >
      <Flex align="center" gap={6} justify="space-between">
        <Flex align="center" gap={6} style={{ minWidth: 0 }}>
          <StateDot state={d.state} />
          <span className="gs-view-tile-name" title={d.deviceName}>
            {d.deviceName}
          </span>
        </Flex>
        <StateTag state={d.state} />
      </Flex>
      <div style={{ margin: '4px 0 2px' }}>
        <DeviceValues device={d} max={3} />
      </div>
      <div className="gs-view-tile-time">{fmtTime(d.lastReadingAt)}</div>
    </div>
  );
}

function DevicesByType({ devices }: { devices: readonly ViewDevice[] }) {
  const { t } = useTranslation('monitorViews');
  const types = useMonitorTypes();
  const groups = useMemo(() => {
    const m = new Map<number, ViewDevice[]>();
    for (const d of devices) m.set(d.moduleId, [...(m.get(d.moduleId) ?? []), d]);
    return [...m.entries()].sort((a, b) => a[0] - b[0]);
  }, [devices]);
  if (groups.length === 0)
    return (
      <Card size="small">
        <Empty description={t('empty.noDevices')} />
      </Card>
    );
  return (
    <div className={groups.length > 1 ? 'gs-view-groups' : undefined}>
      {groups.map(([moduleId, list]) => (
        <Card
          key={moduleId}
          size="small"
          title={
            <Flex gap={8} align="center">
              <span>{types.label(moduleId)}</span>
              <Tag>{list.length}</Tag>
            </Flex>
          }
          data-testid={`view-type-${moduleId}`}
        >
          <div className="gs-view-tiles">
            {list.map((d) => (
              <DeviceTile key={d.deviceId} d={d} />
            ))}
          </div>
        </Card>
      ))}
    </div>
  );
}

function SitePictures({ pictures, name }: { pictures: readonly string[]; name: string }) {
  const { t } = useTranslation('monitorViews');
  return (
    <Card size="small" title={t('display.picture')}>
      {pictures.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty.noPicture')} />
      ) : (
        <Image.PreviewGroup>
          <Flex vertical gap={8}>
            <Image src={pictureUrl(pictures[0]!)} alt={name} className="gs-view-picture" data-testid="view-picture" />
            {pictures.length > 1 ? (
              <Flex gap={6} wrap>
                {pictures.slice(1).map((p) => (
                  <Image key={p} src={pictureUrl(p)} alt={name} width={72} height={54} style={{ objectFit: 'cover' }} />
                ))}
              </Flex>
            ) : null}
          </Flex>
        </Image.PreviewGroup>
      )}
    </Card>
  );
}

function TerminalsSummary({ overview }: { overview: SiteOverview }) {
  const { t } = useTranslation('monitorViews');
  return (
    <Card size="small" title={t('station.title')}>
      {overview.terminals.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty.noTerminals')} />
      ) : (
        <Flex vertical gap={6}>
          {overview.terminals.map((tm) => (
            <Flex key={tm.terminalId} justify="space-between" align="center" gap={8}>
              <Flex align="center" gap={6} style={{ minWidth: 0 }}>
                <StateDot state={tm.online ? 'normal' : 'offline'} />
                <Typography.Text ellipsis>{tm.name}</Typography.Text>
              </Flex>
              <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
                {tm.online ? t('station.online') : t('station.offline')} · {fmtTime(tm.lastSeenAt)}
              </Typography.Text>
            </Flex>
          ))}
        </Flex>
      )}
    </Card>
  );
}

function RealTimeTable({ devices }: { devices: readonly ViewDevice[] }) {
  const { t } = useTranslation('monitorViews');
  const types = useMonitorTypes();
  const [top, scrollY] = useTableScrollY(40);
  const columns: TableColumnsType<ViewDevice> = [
    {
      key: 'name',
      title: t('col.device'),
      width: 200,
      render: (_, d) => (
        <Flex vertical>
          <Typography.Text strong ellipsis>
            {d.deviceName}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {d.number}
          </Typography.Text>
        </Flex>
      ),
    },
    { key: 'type', title: t('col.type'), width: 160, render: (_, d) => types.label(d.moduleId) },
    { key: 'state', title: t('col.state'), width: 100, render: (_, d) => <StateTag state={d.state} /> },
    { key: 'values', title: t('col.values'), render: (_, d) => <DeviceValues device={d} withCommon /> },
    { key: 'reading', title: t('col.lastReading'), width: 170, render: (_, d) => fmtTime(d.lastReadingAt) },
  ];
  return (
    <div ref={top}>
      <Table<ViewDevice>
        rowKey="deviceId"
        size="middle"
        columns={columns}
        dataSource={[...devices]}
        pagination={false}
        scroll={{ y: scrollY }}
        data-testid="view-realtime-table"
        locale={{ emptyText: <Empty description={t('empty.noDevices')} /> }}
      />
    </div>
  );
}

/** Monitor > <kind> display: a site overview of one kind (header, devices by type, picture) and its real-time data. */
function PlatformDisplay({ kind }: { kind: PlatformType }) {
  const { t } = useTranslation('monitorViews');
  const { sites, platformId, setPlatformId, loading } = useViewSite([kind]);
  const live = useSiteOverview(platformId);
  const [tab, setTab] = useState<'overview' | 'realtime'>('overview');
  const o = live.overview;
  return (
    <div className="gs-view-page" data-testid={`view-display-${kind}`}>
      <ViewToolbar
        extra={
          <>
            <LiveStatus connected={live.connected} supported={live.supported} />
            {platformId !== undefined ? (
              <Link to={`/monitor/realTimeData?platformId=${platformId}`}>
                <Button icon={<LineChartOutlined />} data-testid="view-open-realtime">
                  {t('display.openRealtime')}
                </Button>
              </Link>
            ) : null}
          </>
        }
      >
        <ViewSitePicker sites={sites} value={platformId} onChange={setPlatformId} loading={loading} />
        <Segmented
          value={tab}
          onChange={(v) => setTab(v as 'overview' | 'realtime')}
          options={[
            { value: 'overview', label: t('display.overview') },
            { value: 'realtime', label: t('display.realtime') },
          ]}
          data-testid="view-display-tab"
        />
      </ViewToolbar>
      {platformId === undefined ? (
        <NoSite loading={loading} />
      ) : !o ? (
        <Card loading />
      ) : (
        <>
          <SiteHeader overview={o} counts={live.stateCounts} />
          {tab === 'overview' ? (
            <Row gutter={[12, 12]}>
              <Col xs={24} xl={16}>
                <DevicesByType devices={live.devices} />
              </Col>
              <Col xs={24} xl={8}>
                <Flex vertical gap={12}>
                  <SitePictures pictures={o.pictures} name={o.name} />
                  {o.description ? (
                    <Card size="small" title={t('display.description')}>
                      <Descriptions size="small" column={1} items={[{ key: 'd', children: o.description }]} />
                    </Card>
                  ) : null}
                  <TerminalsSummary overview={o} />
                </Flex>
              </Col>
            </Row>
          ) : (
            <RealTimeTable devices={live.devices} />
          )}
        </>
      )}
    </div>
  );
}

export const DisasterDisplay = () => <PlatformDisplay kind="disaster" />;
export const TailingsDisplay = () => <PlatformDisplay kind="tailings" />;
export const ReservoirDisplay = () => <PlatformDisplay kind="reservoir" />;
export const RiverDisplay = () => <PlatformDisplay kind="river" />;
export const SideslopeDisplay = () => <PlatformDisplay kind="sideslope" />;
export const BridgeDisplay = () => <PlatformDisplay kind="bridge" />;
