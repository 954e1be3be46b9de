import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge, Card, Col, Empty, Flex, Row, Statistic, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';
import type { ViewDevice, ViewTerminal } from '@geosentry/contract';
import { useMonitorTypes } from '../../shared/catalogue.ts';
import { DeviceValues, LiveStatus, NoSite, StateTag, ViewSitePicker, ViewToolbar, fmtTime } from './common.tsx';
import { STATE_COLORS, useSiteOverview, useViewSite } from './live.ts';

dayjs.extend(relativeTime);

interface StationRow extends ViewTerminal {
  devices: ViewDevice[];
}

/**
 * Monitor > monitoring station: the site's terminals (data loggers) with their online status, last seen and
 * devices (expand a row). A terminal is online while any of its devices is. Test hook: station-table.
 */
export default function MonitorStationPage() {
  const { t, i18n } = useTranslation('monitorViews');
  const types = useMonitorTypes();
  const { sites, platformId, setPlatformId, loading } = useViewSite();
  const live = useSiteOverview(platformId);
  const o = live.overview;
  const byId = useMemo(() => new Map(live.devices.map((d) => [d.deviceId, d])), [live.devices]);
  const rows = useMemo<StationRow[]>(
    () =>
      (o?.terminals ?? []).map((tm) => {
        const devices = tm.deviceIds.map((id) => byId.get(id)).filter((d): d is ViewDevice => !!d);
        const seen = devices.map((d) => d.lastSeenAt).filter((s): s is string => !!s);
        return {
          ...tm,
          devices,
          online: devices.some((d) => d.state !== 'offline'),
          lastSeenAt: seen.length > 0 ? seen.reduce((a, b) => (a > b ? a : b)) : tm.lastSeenAt,
        };
      }),
    [o, byId],
  );
  const online = rows.filter((r) => r.online).length;
  const unassigned = live.devices.filter((d) => d.terminalId === null).length;
  const lang = i18n.language === 'zh' ? 'zh-cn' : i18n.language;
  const ago = (iso: string | null) => (iso ? dayjs(iso).locale(lang).fromNow() : '-');

  const columns: TableColumnsType<StationRow> = [
    {
      key: 'status',
      title: t('col.status'),
      width: 110,
      render: (_, r) => (
        <Badge
          color={r.online ? STATE_COLORS.normal : STATE_COLORS.offline}
          text={r.online ? t('station.online') : t('station.offline')}
          data-online={r.online ? '1' : '0'}
        />
      ),
    },
    {
      key: 'name',
      title: t('col.terminal'),
      render: (_, r) => (
        <Flex vertical>
          <Typography.Text strong>{r.name}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.serial}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'model',
      title: t('col.model'),
      width: 200,
      render: (_, r) => [r.manufacturer, r.model].filter(Boolean).join(' · ') || '-',
    },
    { key: 'protocol', title: t('col.protocol'), width: 110, dataIndex: 'protocolType' },
    {
      key: 'devices',
      title: t('col.devices'),
      width: 200,
      render: (_, r) => {
        const off = r.devices.filter((d) => d.state === 'offline').length;
        return (
          <Typography.Text>
            {r.devices.length}
            {off > 0 ? (
              <Typography.Text type="secondary"> ({t('station.offlineCount', { count: off })})</Typography.Text>
            ) : null}
          </Typography.Text>
        );
      },
    },
    {
      key: 'seen',
      title: t('col.lastSeen'),
      width: 220,
      render: (_, r) => (
        <Flex vertical>
          <span>{fmtTime(r.lastSeenAt)}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {ago(r.lastSeenAt)}
          </Typography.Text>
        </Flex>
      ),
    },
  ];

  return (
    <div className="gs-view-page" data-testid="view-station">
      <ViewToolbar extra={<LiveStatus connected={live.connected} supported={live.supported} />}>
        <ViewSitePicker sites={sites} value={platformId} onChange={setPlatformId} loading={loading} />
      </ViewToolbar>
      {platformId === undefined ? (
        <NoSite loading={loading} />
      ) : !o ? (
        <Card loading />
      ) : (
        <>
          <Row gutter={12}>
            <Col span={6}>
              <Card size="small">
                <Statistic title={t('station.total')} value={rows.length} />
              </Card>
            </Col>
            <Col span={6}>
              <Card size="small">
                <Statistic
                  title={t('station.online')}
                  value={online}
                  styles={{ content: { color: STATE_COLORS.normal } }}
                  data-testid="station-online"
                />
              </Card>
            </Col>
            <Col span={6}>
              <Card size="small">
                <Statistic
                  title={t('station.offline')}
                  value={rows.length - online}
                  styles={{ content: { color: rows.length - online > 0 ? STATE_COLORS.alarm : STATE_COLORS.offline } }}
                />
              </Card>
            </Col>
            <Col span={6}>
              <Card size="small">
                <Statistic
                  title={t('station.devices')}
                  value={live.devices.length}
                  suffix={
                    unassigned > 0 ? (
                      <Typography.Text type="secondary" style={{ fontSize: 13 }}>
                        {t('station.unassigned', { count: unassigned })}
                      </Typography.Text>
                    ) : null
                  }
                />
              </Card>
            </Col>
          </Row>
          <Card size="small" title={t('station.title')}>
            <Table<StationRow>
              rowKey="terminalId"
              size="middle"
              columns={columns}
              dataSource={rows}
              pagination={false}
              data-testid="station-table"
              locale={{ emptyText: <Empty description={t('empty.noTerminals')} /> }}
              expandable={{
                defaultExpandAllRows: rows.length <= 3,
                rowExpandable: (r) => r.devices.length > 0,
                expandedRowRender: (r) => (
                  <Flex vertical gap={6} style={{ paddingLeft: 8 }}>
                    {r.devices.map((d) => (
                      <Flex key={d.deviceId} gap={12} align="center" wrap>
                        <span style={{ width: 84 }}>
                          <StateTag state={d.state} />
                        </span>
                        <Typography.Text strong style={{ width: 180 }} ellipsis>
                          {d.deviceName}
                        </Typography.Text>
                        <Typography.Text type="secondary" style={{ width: 170 }} ellipsis>
                          {types.label(d.moduleId)}
                        </Typography.Text>
                        <span style={{ flex: 1, minWidth: 200 }}>
                          <DeviceValues device={d} withCommon />
                        </span>
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          {fmtTime(d.lastSeenAt)}
                        </Typography.Text>
                      </Flex>
                    ))}
                  </Flex>
                ),
              }}
            />
          </Card>
        </>
      )}
    </div>
  );
}
