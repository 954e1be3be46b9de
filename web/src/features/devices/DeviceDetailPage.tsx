import { useMemo, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Card, Col, Descriptions, Empty, Flex, Row, Skeleton, Tag, Typography, message } from 'antd';
import type { DescriptionsProps } from 'antd';
import { ArrowLeftOutlined, DeploymentUnitOutlined, EditOutlined } from '@ant-design/icons';
import { GNSS_MODULE_ID, type DeviceOption, type DeviceRow } from '@geosentry/contract';
import { hasPermission, useSession } from '../../shared/session.ts';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { formatTime } from '../../shared/time.ts';
import { useMonitorTypes } from '../../shared/catalogue.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { deviceDetailPath, deviceKeys, fetchDeviceByNumber, fetchDeviceOptions } from './devicesApi.ts';
import { DeviceStateTag } from './DeviceStateTag.tsx';
import { DeviceFormDrawer } from './DeviceFormDrawer.tsx';

type Items = NonNullable<DescriptionsProps['items']>;

const show = (v: ReactNode | null | undefined, unit?: string): ReactNode =>
  v === null || v === undefined || v === '' ? (
    <Typography.Text type="secondary">-</Typography.Text>
  ) : unit ? (
    `${String(v)} ${unit}`
  ) : (
    v
  );

function Section({ title, items, testId }: { title: ReactNode; items: Items; testId?: string }) {
  return (
    <Card variant="borderless" title={title} size="small" data-testid={testId}>
      <Descriptions column={{ xs: 1, sm: 2, lg: 3 }} size="small" items={items} />
    </Card>
  );
}

/** Information > Device card (hidden): every field of one device, grouped as in the form. */
export default function DeviceDetailPage() {
  const { t } = useTranslation('devices');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const session = useSession();
  const catalogue = useMonitorTypes();
  const canManage = hasPermission('information:device', session);
  const deviceId = Number(search.get('deviceId'));
  const number = search.get('number') ?? '';
  const [editing, setEditing] = useState(false);

  const full = useQuery({
    queryKey: deviceKeys.byNumber(number),
    queryFn: () => fetchDeviceByNumber(number),
    enabled: canManage && number !== '',
    retry: retryUnlessCancelled,
  });
  // Without the device management right, the card shows what the pickers' list tells.
  const brief = useQuery({
    queryKey: deviceKeys.options({}),
    queryFn: () => fetchDeviceOptions({}),
    enabled: !canManage,
    retry: retryUnlessCancelled,
  });
  const device: DeviceRow | null = full.data && (!deviceId || full.data.deviceId === deviceId) ? full.data : null;
  const option: DeviceOption | null = useMemo(
    () => (brief.data ?? []).find((d) => d.deviceId === deviceId || d.number === number) ?? null,
    [brief.data, deviceId, number],
  );
  const loading = canManage ? full.isLoading : brief.isLoading;

  const back = (
    <Button
      icon={<ArrowLeftOutlined />}
      onClick={() => void navigate(canManage ? '/information/monitoringDeviceManagement' : '/information/deviceInfo')}
    >
      {t('detail.back')}
    </Button>
  );

  if (loading)
    return (
      <Card variant="borderless">
        <Skeleton active />
      </Card>
    );

  if (!device && !option)
    return (
      <Card variant="borderless">
        <Empty description={t('detail.notFound')}>{back}</Empty>
      </Card>
    );

  if (!device && option) {
    return (
      <Flex vertical gap={16} data-testid="device-detail">
        <PageHeaderCard
          icon={<DeploymentUnitOutlined />}
          title={option.deviceName}
          description={`${option.number} · ${catalogue.label(option.moduleId)}`}
          extra={<DeviceStateTag state={option.state} />}
        />
        <Section
          title={t('form.sectionBasics')}
          items={[
            { key: 'name', label: t('fields.deviceName'), children: option.deviceName },
            { key: 'number', label: t('fields.number'), children: option.number },
            { key: 'module', label: t('fields.moduleId'), children: catalogue.label(option.moduleId) },
            { key: 'site', label: t('fields.site'), children: option.platformName },
            { key: 'state', label: t('fields.state'), children: <DeviceStateTag state={option.state} /> },
          ]}
        />
      </Flex>
    );
  }

  const d = device!;
  const g = d.params.gnss;
  const quantities = catalogue.quantities(d.moduleId);
  const paramSet = (v: Record<string, number> | undefined) =>
    v ? (
      <Flex gap={4} wrap>
        {Object.entries(v).map(([k, x]) => (
          <Tag key={k}>
            {t(`gnss.params.${k}`)} = {x}
          </Tag>
        ))}
      </Flex>
    ) : (
      show(null)
    );

  return (
    <Flex vertical gap={16} data-testid="device-detail">
      {msgHolder}
      <PageHeaderCard
        icon={<DeploymentUnitOutlined />}
        title={d.deviceName}
        description={`${d.number} · ${catalogue.label(d.moduleId)}${d.platformName ? ` · ${d.platformName}` : ''}`}
        extra={
          <Flex gap={8} align="center">
            <DeviceStateTag state={d.state} />
            {!d.bound ? <Tag>{t('list.unbound')}</Tag> : null}
            {back}
            <Button
              type="primary"
              icon={<EditOutlined />}
              data-testid="device-detail-edit"
              onClick={() => setEditing(true)}
            >
              {t('actions.edit')}
            </Button>
          </Flex>
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Flex vertical gap={16}>
            <Section
              title={t('form.sectionBasics')}
              items={[
                { key: 'name', label: t('fields.deviceName'), children: d.deviceName },
                { key: 'number', label: t('fields.number'), children: d.number },
                { key: 'module', label: t('fields.moduleId'), children: catalogue.label(d.moduleId) },
                { key: 'site', label: t('fields.site'), children: show(d.platformName) },
                { key: 'terminal', label: t('fields.terminal'), children: show(d.terminalName) },
                { key: 'type', label: t('fields.type'), children: show(d.type ? t(`kind.${d.type}`) : null) },
                { key: 'group', label: t('fields.group'), children: show(d.group) },
                { key: 'description', label: t('fields.description'), span: 2, children: show(d.description) },
              ]}
            />
            <Section
              title={t('form.sectionCommunication')}
              items={[
                { key: 'protocol', label: t('fields.protocolType'), children: show(d.protocolType) },
                { key: 'ip', label: t('fields.ip'), children: show(d.ip) },
                { key: 'port', label: t('fields.port'), children: show(d.port) },
                { key: 'comm', label: t('fields.communicationType'), children: show(d.communicationType) },
                { key: 'serial', label: t('fields.serialPort'), children: show(d.serialPort) },
                { key: 'baud', label: t('fields.baudRate'), children: show(d.baudRate) },
              ]}
            />
            <Section
              title={t('form.sectionInstallation')}
              testId="device-detail-installation"
              items={[
                { key: 'depth', label: t('fields.installedDepth'), children: show(d.installedDepth, 'm') },
                { key: 'offset', label: t('fields.offset'), children: show(d.offset) },
                { key: 'filter', label: t('fields.filterThreshold'), children: show(d.filterThreshold) },
                { key: 'x', label: t('fields.initialX'), children: show(d.initialX) },
                { key: 'y', label: t('fields.initialY'), children: show(d.initialY) },
                { key: 'z', label: t('fields.initialZ'), children: show(d.initialZ) },
                ...quantities.map((q) => ({
                  key: `q-${q.key}`,
                  label: t('fields.initialValueOf', { name: q.text }),
                  children: show(d.initialValues[q.key], q.unit),
                })),
                { key: 'level', label: t('fields.initialLevel'), children: show(d.initialLevel) },
                { key: 'sens', label: t('fields.sensitivityCoefficient'), children: show(d.sensitivityCoefficient) },
                { key: 'temp', label: t('fields.temperatureCoefficient'), children: show(d.temperatureCoefficient) },
                { key: 'freq', label: t('fields.initialFrequency'), children: show(d.initialFrequency, 'Hz') },
                { key: 'itemp', label: t('fields.initialTemperature'), children: show(d.initialTemperature, '°C') },
              ]}
            />
            {d.moduleId === GNSS_MODULE_ID ? (
              <Section
                title={t('form.sectionGnss')}
                testId="device-detail-gnss"
                items={[
                  {
                    key: 'station',
                    label: t('fields.stationType'),
                    children: show(d.stationType ? t(`station.${d.stationType}`) : null),
                  },
                  {
                    key: 'ellipsoid',
                    label: t('gnss.ellipsoid'),
                    children: show(g ? t(`gnss.ellipsoids.${g.ellipsoid}`) : null),
                  },
                  {
                    key: 'projection',
                    label: t('gnss.projection'),
                    children: show(g ? t(`gnss.projections.${g.projection}`) : null),
                  },
                  { key: 'cm', label: t('gnss.centralMeridian'), children: show(g?.centralMeridian, '°') },
                  { key: 'zone', label: t('gnss.zoneWidth'), children: show(g?.zoneWidth, '°') },
                  { key: 'fe', label: t('gnss.falseEasting'), children: show(g?.falseEasting, 'm') },
                  { key: 'fn', label: t('gnss.falseNorthing'), children: show(g?.falseNorthing, 'm') },
                  { key: 'ph', label: t('gnss.projectionHeight'), children: show(g?.projectionHeight, 'm') },
                  { key: 'mask', label: t('gnss.maskAngle'), children: show(g?.maskAngle, '°') },
                  { key: 'seven', label: t('gnss.sevenParameters'), span: 3, children: paramSet(g?.sevenParameters) },
                  { key: 'four', label: t('gnss.fourParameters'), span: 3, children: paramSet(g?.fourParameters) },
                  { key: 'base', label: t('gnss.baseNumber'), children: show(g?.baseNumber) },
                  { key: 'bl', label: t('gnss.baselineLength'), children: show(g?.baselineLength, 'm') },
                ]}
              />
            ) : null}
          </Flex>
        </Col>
        <Col xs={24} xl={8}>
          <Card variant="borderless" title={t('detail.status')} size="small">
            <Descriptions
              column={1}
              size="small"
              items={[
                { key: 'state', label: t('fields.state'), children: <DeviceStateTag state={d.state} /> },
                {
                  key: 'bound',
                  label: t('detail.binding'),
                  children: d.bound ? t('detail.bound') : t('list.unbound'),
                },
                {
                  key: 'seen',
                  label: t('fields.lastSeenAt'),
                  children: d.lastSeenAt ? formatTime(d.lastSeenAt) : t('list.never'),
                },
                { key: 'offline', label: t('fields.offlineHours'), children: show(d.offlineHours, t('units.hours')) },
                { key: 'created', label: t('fields.createdAt'), children: formatTime(d.createdAt) },
                { key: 'updated', label: t('detail.updatedAt'), children: formatTime(d.updatedAt) },
              ]}
            />
          </Card>
        </Col>
      </Row>
      <DeviceFormDrawer
        open={editing}
        device={d}
        onClose={() => setEditing(false)}
        onSaved={(_added, v) => {
          void msg.success(t('messages.saved'));
          setEditing(false);
          if (v.number.trim() !== d.number)
            void navigate(deviceDetailPath({ deviceId: d.deviceId, number: v.number.trim() }), { replace: true });
          void queryClient.invalidateQueries({ queryKey: deviceKeys.all });
        }}
      />
    </Flex>
  );
}
