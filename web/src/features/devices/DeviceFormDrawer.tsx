import { useEffect, useMemo, type ReactNode } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  Alert,
  AutoComplete,
  Button,
  Col,
  Divider,
  Drawer,
  Flex,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Typography,
} from 'antd';
import {
  COMMUNICATION_TYPE_SUGGESTIONS,
  DEVICE_KINDS,
  DEVICE_PROTOCOL_SUGGESTIONS,
  GNSS_ELLIPSOIDS,
  GNSS_MODULE_ID,
  GNSS_PROJECTIONS,
  STATION_TYPES,
  type DeviceRow,
} from '@geosentry/contract';
import { useSiteOptions } from '../../shared/sites.ts';
import { useMonitorTypes } from '../../shared/catalogue.ts';
import { nn, retryUnlessCancelled } from '../../shared/query.ts';
import { fetchSiteModules, moduleKeys } from '../monitorTypes/index.ts';
import { fetchAllTerminals, terminalKeys } from '../terminals/index.ts';
import {
  FOUR_KEYS,
  SEVEN_KEYS,
  addDevice,
  deviceKeys,
  editDevice,
  fetchGnssBases,
  type DeviceFormValues,
} from './devicesApi.ts';
import { completeSet, deviceRules } from './deviceValidation.ts';

export interface DeviceFormDrawerProps {
  open: boolean;
  /** The device to edit, or null to add one. */
  device: DeviceRow | null;
  /** Preset site for a new device (the list's site filter). */
  defaultPlatformId?: number | undefined;
  onClose: () => void;
  /** Saved: whether it was added, and the values sent. */
  onSaved: (added: boolean, values: DeviceFormValues) => void;
}

/** The form values of a stored device. */
function valuesOf(d: DeviceRow): DeviceFormValues {
  const g = d.params.gnss;
  return {
    platformId: d.platformId as number,
    terminalId: d.terminalId as number,
    moduleId: d.moduleId,
    deviceName: d.deviceName,
    number: d.number,
    description: nn(d.description),
    group: nn(d.group),
    type: d.type,
    protocolType: nn(d.protocolType),
    ip: d.ip ?? '',
    port: d.port as number,
    communicationType: nn(d.communicationType),
    serialPort: nn(d.serialPort),
    baudRate: d.baudRate,
    installedDepth: d.installedDepth,
    offset: d.offset,
    initialX: d.initialX,
    initialY: d.initialY,
    initialZ: d.initialZ,
    initialValues: d.initialValues,
    filterThreshold: d.filterThreshold,
    initialLevel: d.initialLevel,
    sensitivityCoefficient: d.sensitivityCoefficient,
    temperatureCoefficient: d.temperatureCoefficient,
    initialFrequency: d.initialFrequency,
    initialTemperature: d.initialTemperature,
    offlineHours: d.offlineHours,
    stationType: d.stationType,
    gnss: g
      ? {
          ellipsoid: g.ellipsoid,
          projection: g.projection,
          centralMeridian: g.centralMeridian,
          zoneWidth: g.zoneWidth,
          falseEasting: g.falseEasting,
          falseNorthing: g.falseNorthing,
          projectionHeight: g.projectionHeight,
          sevenParameters: g.sevenParameters,
          fourParameters: g.fourParameters,
          baseNumber: g.baseNumber,
          baselineLength: g.baselineLength,
          maskAngle: g.maskAngle,
        }
      : { ellipsoid: 'CGCS2000', projection: 'gaussKruger', maskAngle: 10 },
  };
}

/** One optional number field in a third of a row. */
function NumberField({
  name,
  label,
  id,
  unit,
  rules,
  span = 8,
  precision,
  extra,
  dependencies,
}: {
  name: (string | number)[] | string;
  label: ReactNode;
  id: string;
  unit?: string | undefined;
  rules?: Parameters<typeof Form.Item>[0]['rules'];
  span?: number;
  precision?: number;
  extra?: ReactNode;
  dependencies?: (string | number)[][];
}) {
  return (
    <Col span={span}>
      <Form.Item name={name} label={label} rules={rules} extra={extra} dependencies={dependencies}>
        <InputNumber id={id} style={{ width: '100%' }} suffix={unit || undefined} precision={precision} />
      </Form.Item>
    </Col>
  );
}

/**
 * Adds or edits a device: site, then a terminal of that site, then the monitor type; every Device field of
 * spec §3 in groups; GNSS devices (monitor type 1) also carry their solution parameters.
 */
export function DeviceFormDrawer({ open, device, defaultPlatformId, onClose, onSaved }: DeviceFormDrawerProps) {
  const { t } = useTranslation('devices');
  const [form] = Form.useForm<DeviceFormValues>();
  const isEdit = device !== null;
  const platformId = Form.useWatch('platformId', form);
  const moduleId = Form.useWatch('moduleId', form);
  const stationType = Form.useWatch('stationType', form);
  const projection = Form.useWatch(['gnss', 'projection'], form);
  const isGnss = moduleId === GNSS_MODULE_ID;
  const catalogue = useMonitorTypes();
  const sites = useSiteOptions(open);

  const terminals = useQuery({
    queryKey: terminalKeys.ofSite(platformId),
    queryFn: () => fetchAllTerminals(platformId),
    enabled: open && platformId !== undefined,
    retry: retryUnlessCancelled,
  });
  const siteModules = useQuery({
    queryKey: moduleKeys.of(platformId ?? 0),
    queryFn: () => fetchSiteModules(platformId!),
    enabled: open && platformId !== undefined,
    retry: retryUnlessCancelled,
  });
  const bases = useQuery({
    queryKey: deviceKeys.gnssBases(platformId),
    queryFn: () => fetchGnssBases(platformId!),
    enabled: open && isGnss && stationType === 'rover' && platformId !== undefined,
    retry: retryUnlessCancelled,
  });

  const moduleOptions = useMemo(() => {
    const bound = new Set((siteModules.data ?? []).map((m) => m.moduleId));
    const onSite = catalogue.options.filter((o) => bound.has(o.value));
    const other = catalogue.options.filter((o) => !bound.has(o.value));
    if (!onSite.length) return catalogue.options;
    return [
      { label: t('form.typesOfSite'), title: 'site', options: onSite },
      { label: t('form.otherTypes'), title: 'other', options: other },
    ];
  }, [siteModules.data, catalogue, t]);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (device) form.setFieldsValue(valuesOf(device));
    else
      form.setFieldsValue({
        platformId: defaultPlatformId,
        protocolType: 'MQTT',
        gnss: { ellipsoid: 'CGCS2000', projection: 'gaussKruger', maskAngle: 10 },
      });
  }, [open, device, defaultPlatformId, form]);

  const save = useMutation({
    mutationFn: (v: DeviceFormValues) => (device ? editDevice(device, v) : addDevice(v)),
    onSuccess: (_d, v) => onSaved(!isEdit, v),
  });

  const quantities = catalogue.quantities(moduleId);
  // A parameter set is all or nothing: an empty field is flagged while another of its set is filled.
  const setRule = (keys: readonly string[], path: 'sevenParameters' | 'fourParameters') => [
    {
      validator: (_r: unknown, v: number | null | undefined) =>
        (v !== null && v !== undefined) ||
        completeSet(form.getFieldValue(['gnss', path]) as Record<string, unknown> | undefined, keys)
          ? Promise.resolve()
          : Promise.reject(new Error(t('validation.setIncomplete'))),
    },
  ];

  return (
    <Drawer
      open={open}
      size={780}
      title={isEdit ? t('form.editTitle', { name: device.deviceName }) : t('form.addTitle')}
      onClose={onClose}
      mask={{ closable: !save.isPending }}
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" data-testid="device-save" loading={save.isPending} onClick={() => form.submit()}>
            {t('common.save')}
          </Button>
        </Flex>
      }
    >
      <Form<DeviceFormValues>
        form={form}
        layout="vertical"
        onFinish={(v) => save.mutate(v)}
        data-testid="device-form"
        scrollToFirstError
      >
        {isEdit && !device.bound ? (
          <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('form.unboundNote')} />
        ) : null}
        <Divider titlePlacement="start" plain style={{ marginTop: 0 }}>
          {t('form.sectionBasics')}
        </Divider>
        <Row gutter={16}>
          <Col span={8}>
            <Form.Item name="platformId" label={t('fields.site')} rules={deviceRules.site(t)}>
              <Select<number>
                id="device-site"
                loading={sites.isLoading}
                placeholder={t('placeholders.site')}
                options={sites.options}
                showSearch={{ optionFilterProp: 'label' }}
                notFoundContent={t('noSites')}
                onChange={() => form.setFieldValue('terminalId', undefined)}
              />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="terminalId" label={t('fields.terminal')} rules={deviceRules.terminal(t)}>
              <Select<number>
                id="device-terminal"
                disabled={platformId === undefined}
                loading={terminals.isLoading}
                placeholder={platformId === undefined ? t('placeholders.siteFirst') : t('placeholders.terminal')}
                options={(terminals.data ?? []).map((x) => ({ value: x.terminalId, label: `${x.name} (${x.serial})` }))}
                showSearch={{ optionFilterProp: 'label' }}
                notFoundContent={t('noTerminals')}
              />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="moduleId" label={t('fields.moduleId')} rules={deviceRules.moduleId(t)}>
              <Select<number>
                id="device-module"
                placeholder={t('placeholders.module')}
                options={moduleOptions}
                showSearch={{ optionFilterProp: 'label' }}
              />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="deviceName" label={t('fields.deviceName')} rules={deviceRules.deviceName(t)}>
              <Input id="device-deviceName" maxLength={100} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="number"
              label={t('fields.number')}
              rules={deviceRules.number(t)}
              extra={t('form.numberHint')}
            >
              <Input id="device-number" maxLength={64} autoComplete="off" />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="type" label={t('fields.type')}>
              <Select
                id="device-type"
                allowClear
                placeholder={t('placeholders.type')}
                options={DEVICE_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
              />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="group" label={t('fields.group')}>
              <Input id="device-group" maxLength={100} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="description" label={t('fields.description')}>
          <Input.TextArea id="device-description" maxLength={2000} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>

        <Divider titlePlacement="start" plain>
          {t('form.sectionCommunication')}
        </Divider>
        <Row gutter={16}>
          <Col span={8}>
            <Form.Item name="protocolType" label={t('fields.protocolType')}>
              <AutoComplete
                id="device-protocol"
                options={DEVICE_PROTOCOL_SUGGESTIONS.map((p) => ({ value: p }))}
                maxLength={50}
              />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="ip" label={t('fields.ip')} rules={deviceRules.ip(t)}>
              <Input id="device-ip" maxLength={64} placeholder="192.168.1.10" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="port" label={t('fields.port')} rules={deviceRules.port(t)}>
              <InputNumber id="device-port" style={{ width: '100%' }} precision={0} placeholder="1883" />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col span={8}>
            <Form.Item name="communicationType" label={t('fields.communicationType')}>
              <AutoComplete
                id="device-communicationType"
                options={COMMUNICATION_TYPE_SUGGESTIONS.map((p) => ({ value: p }))}
                maxLength={50}
              />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="serialPort" label={t('fields.serialPort')}>
              <Input id="device-serialPort" maxLength={50} placeholder="COM1" />
            </Form.Item>
          </Col>
          <NumberField
            name="baudRate"
            id="device-baudRate"
            label={t('fields.baudRate')}
            precision={0}
            rules={deviceRules.range(t, 1, 4_000_000, true)}
          />
        </Row>

        <Divider titlePlacement="start" plain>
          {t('form.sectionInstallation')}
        </Divider>
        <Row gutter={16}>
          <NumberField name="installedDepth" id="device-installedDepth" label={t('fields.installedDepth')} unit="m" />
          <NumberField name="offset" id="device-offset" label={t('fields.offset')} />
          <NumberField
            name="filterThreshold"
            id="device-filterThreshold"
            label={t('fields.filterThreshold')}
            rules={deviceRules.nonNegative(t)}
          />
        </Row>
        <Row gutter={16}>
          <NumberField name="initialX" id="device-initialX" label={t('fields.initialX')} />
          <NumberField name="initialY" id="device-initialY" label={t('fields.initialY')} />
          <NumberField name="initialZ" id="device-initialZ" label={t('fields.initialZ')} />
        </Row>
        <Typography.Text strong>{t('fields.initialValues')}</Typography.Text>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {moduleId === undefined ? t('form.initialValuesPickType') : t('form.initialValuesHint')}
        </Typography.Paragraph>
        <Row gutter={16} data-testid="device-initial-values">
          {quantities.map((q) => (
            <NumberField
              key={`${moduleId}-${q.key}`}
              name={['initialValues', q.key]}
              id={`device-initial-${q.key}`}
              label={q.text}
              unit={q.unit}
            />
          ))}
        </Row>
        <Row gutter={16}>
          <NumberField name="initialLevel" id="device-initialLevel" label={t('fields.initialLevel')} />
          <NumberField
            name="sensitivityCoefficient"
            id="device-sensitivityCoefficient"
            label={t('fields.sensitivityCoefficient')}
          />
          <NumberField
            name="temperatureCoefficient"
            id="device-temperatureCoefficient"
            label={t('fields.temperatureCoefficient')}
          />
        </Row>
        <Row gutter={16}>
          <NumberField
            name="initialFrequency"
            id="device-initialFrequency"
            label={t('fields.initialFrequency')}
            unit="Hz"
            rules={deviceRules.nonNegative(t)}
          />
          <NumberField
            name="initialTemperature"
            id="device-initialTemperature"
            label={t('fields.initialTemperature')}
            unit="°C"
          />
        </Row>

        <Divider titlePlacement="start" plain>
          {t('form.sectionAlerts')}
        </Divider>
        <Row gutter={16}>
          <NumberField
            name="offlineHours"
            id="device-offlineHours"
            label={t('fields.offlineHours')}
            unit={t('units.hours')}
            span={12}
            rules={deviceRules.offlineHours(t)}
            extra={t('form.offlineHoursHint')}
          />
        </Row>

        {isGnss ? (
          <>
            <Divider titlePlacement="start" plain>
              {t('form.sectionGnss')}
            </Divider>
            <Row gutter={16}>
              <Col span={12}>
                <Form.Item name="stationType" label={t('fields.stationType')} rules={deviceRules.stationType(t)}>
                  <Radio.Group
                    id="device-stationType"
                    optionType="button"
                    options={STATION_TYPES.map((s) => ({ value: s, label: t(`station.${s}`) }))}
                  />
                </Form.Item>
              </Col>
              <NumberField
                name={['gnss', 'maskAngle']}
                id="device-gnss-maskAngle"
                label={t('gnss.maskAngle')}
                unit="°"
                span={12}
                rules={deviceRules.range(t, 0, 90)}
              />
            </Row>
            <Row gutter={16}>
              <Col span={8}>
                <Form.Item name={['gnss', 'ellipsoid']} label={t('gnss.ellipsoid')}>
                  <Select
                    id="device-gnss-ellipsoid"
                    options={GNSS_ELLIPSOIDS.map((e) => ({ value: e, label: t(`gnss.ellipsoids.${e}`) }))}
                  />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item name={['gnss', 'projection']} label={t('gnss.projection')}>
                  <Select
                    id="device-gnss-projection"
                    options={GNSS_PROJECTIONS.map((p) => ({ value: p, label: t(`gnss.projections.${p}`) }))}
                  />
                </Form.Item>
              </Col>
              <NumberField
                name={['gnss', 'centralMeridian']}
                id="device-gnss-centralMeridian"
                label={t('gnss.centralMeridian')}
                unit="°"
                rules={deviceRules.range(t, -180, 180)}
              />
            </Row>
            {projection !== 'none' ? (
              <Row gutter={16}>
                {projection === 'gaussKruger' ? (
                  <Col span={6}>
                    <Form.Item
                      name={['gnss', 'zoneWidth']}
                      label={t('gnss.zoneWidth')}
                      rules={deviceRules.zoneWidth(t)}
                    >
                      <Select
                        id="device-gnss-zoneWidth"
                        allowClear
                        options={[
                          { value: 3, label: '3°' },
                          { value: 6, label: '6°' },
                        ]}
                      />
                    </Form.Item>
                  </Col>
                ) : null}
                <NumberField
                  name={['gnss', 'falseEasting']}
                  id="device-gnss-falseEasting"
                  label={t('gnss.falseEasting')}
                  unit="m"
                  span={6}
                />
                <NumberField
                  name={['gnss', 'falseNorthing']}
                  id="device-gnss-falseNorthing"
                  label={t('gnss.falseNorthing')}
                  unit="m"
                  span={6}
                />
                <NumberField
                  name={['gnss', 'projectionHeight']}
                  id="device-gnss-projectionHeight"
                  label={t('gnss.projectionHeight')}
                  unit="m"
                  span={6}
                />
              </Row>
            ) : null}
            <Typography.Text strong>{t('gnss.sevenParameters')}</Typography.Text>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
              {t('gnss.sevenHint')}
            </Typography.Paragraph>
            <Row gutter={12}>
              {SEVEN_KEYS.map((k) => (
                <NumberField
                  key={k}
                  span={6}
                  name={['gnss', 'sevenParameters', k]}
                  id={`device-gnss-seven-${k}`}
                  label={t(`gnss.params.${k}`)}
                  unit={k.startsWith('d') ? 'm' : k === 'scale' ? 'ppm' : '″'}
                  rules={setRule(SEVEN_KEYS, 'sevenParameters')}
                  dependencies={SEVEN_KEYS.filter((x) => x !== k).map((x) => ['gnss', 'sevenParameters', x])}
                />
              ))}
            </Row>
            <Typography.Text strong>{t('gnss.fourParameters')}</Typography.Text>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
              {t('gnss.fourHint')}
            </Typography.Paragraph>
            <Row gutter={12}>
              {FOUR_KEYS.map((k) => (
                <NumberField
                  key={k}
                  span={6}
                  name={['gnss', 'fourParameters', k]}
                  id={`device-gnss-four-${k}`}
                  label={t(`gnss.params.${k}`)}
                  unit={k.startsWith('d') ? 'm' : k === 'scale' ? 'ppm' : '″'}
                  rules={setRule(FOUR_KEYS, 'fourParameters')}
                  dependencies={FOUR_KEYS.filter((x) => x !== k).map((x) => ['gnss', 'fourParameters', x])}
                />
              ))}
            </Row>
            <Typography.Text strong>{t('gnss.baseline')}</Typography.Text>
            <Row gutter={16} style={{ marginTop: 8 }}>
              {stationType === 'rover' ? (
                <Col span={12}>
                  <Form.Item name={['gnss', 'baseNumber']} label={t('gnss.baseNumber')} extra={t('gnss.baseHint')}>
                    <Select<string>
                      id="device-gnss-baseNumber"
                      allowClear
                      loading={bases.isLoading}
                      placeholder={t('placeholders.base')}
                      notFoundContent={t('noBases')}
                      options={(bases.data ?? [])
                        .filter((b) => b.deviceId !== device?.deviceId)
                        .map((b) => ({ value: b.number, label: `${b.deviceName} (${b.number})` }))}
                    />
                  </Form.Item>
                </Col>
              ) : null}
              <NumberField
                name={['gnss', 'baselineLength']}
                id="device-gnss-baselineLength"
                label={t('gnss.baselineLength')}
                unit="m"
                span={12}
                rules={deviceRules.positive(t)}
              />
            </Row>
          </>
        ) : null}
      </Form>
    </Drawer>
  );
}
