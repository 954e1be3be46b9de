import { useEffect, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  Alert,
  Button,
  Checkbox,
  Descriptions,
  Divider,
  Drawer,
  Flex,
  Form,
  Input,
  InputNumber,
  Select,
  Switch,
  Table,
  Typography,
} from 'antd';
import { ExperimentOutlined } from '@ant-design/icons';
import {
  ALERT_CHANNELS,
  ALERT_DIRECTIONS,
  ALERT_LEVELS,
  ALERT_VALUE_TYPES,
  RULE_TEST_DEFAULT_DAYS,
  WINDOWED_VALUE_TYPES,
  WINDOW_UNITS,
  checkAlertRule,
  type AlertRuleRow,
  type AlertRuleTestResult,
  type AlertValueType,
} from '@geosentry/contract';
import { useMonitorSites, useSiteDevices } from '../../shared/monitorSites.ts';
import { useMonitorTypes } from '../../shared/catalogue.ts';
import { nn } from '../../shared/query.ts';
import {
  addRule,
  alertKeys,
  editRule,
  fetchCriteria,
  fetchGroupOptions,
  testRule,
  type RuleFormValues,
} from './alertsApi.ts';
import { LevelTag, fmtNum, fmtTime, levelHex } from './alertUi.tsx';
import { useValueTypeText } from './valueTypes.ts';

type Values = RuleFormValues & { platformId?: number | undefined };

/** Select options of the four levels with their colour swatch. */
export function useLevelOptions() {
  const { t } = useTranslation('alerts');
  return ALERT_LEVELS.map((l) => ({
    value: l,
    label: (
      <Flex gap={6} align="center">
        <span style={{ width: 12, height: 12, borderRadius: 2, background: levelHex(l), flex: 'none' }} />
        {t('levels.short', { level: l })} · {t(`levels.${l}`)}
      </Flex>
    ),
  }));
}

/** The spec §5 checks in the form (the server answers the same messages). */
function problemsOf(v: Values) {
  return checkAlertRule({
    level: v.level,
    valueType: v.valueType,
    value: v.value,
    rateValue: v.rateValue,
    direction: v.direction,
    windowN: v.windowN ?? undefined,
    windowUnit: v.windowUnit,
    ratio: v.ratio,
    groupId: v.groupId,
    channels: v.channels,
  }).problems;
}

function TestResult({ result }: { result: AlertRuleTestResult }) {
  const { t } = useTranslation('alerts');
  return (
    <Flex vertical gap={8} data-testid="rule-test-result">
      <Alert
        type={result.firings > 0 ? 'warning' : 'success'}
        showIcon
        title={
          result.firings > 0
            ? t('rules.test.wouldFire', { alerts: result.alerts, firings: result.firings, readings: result.readings })
            : t('rules.test.quiet', { readings: result.readings })
        }
        description={
          <>
            {t('rules.test.period', { from: fmtTime(result.from), to: fmtTime(result.to) })}
            {result.firstAt ? ` · ${t('rules.test.first', { time: fmtTime(result.firstAt) })}` : ''}
            {result.lastAt ? ` · ${t('rules.test.last', { time: fmtTime(result.lastAt) })}` : ''}
          </>
        }
      />
      {result.hits.length > 0 ? (
        <Table
          size="small"
          rowKey="ts"
          dataSource={result.hits}
          pagination={{ pageSize: 8, size: 'small' }}
          columns={[
            { title: t('evidence.readingAt'), dataIndex: 'ts', render: fmtTime },
            { title: t('evidence.value'), dataIndex: 'value', align: 'right', render: fmtNum },
            { title: t('evidence.metric'), dataIndex: 'metric', align: 'right', render: fmtNum },
            { title: t('fields.level'), dataIndex: 'level', render: (l: number) => <LevelTag level={l} compact /> },
          ]}
        />
      ) : null}
    </Flex>
  );
}

/** Add or edit an alert value on one device quantity, and test it against stored readings before saving. */
export function AlertValueDrawer({
  open,
  rule,
  onClose,
  onSaved,
}: {
  open: boolean;
  rule: AlertRuleRow | null;
  onClose: () => void;
  onSaved: (added: boolean) => void;
}) {
  const { t } = useTranslation('alerts');
  const [form] = Form.useForm<Values>();
  const [days, setDays] = useState(RULE_TEST_DEFAULT_DAYS);
  const [result, setResult] = useState<AlertRuleTestResult | null>(null);
  const { sites } = useMonitorSites();
  const platformId = Form.useWatch('platformId', form);
  const deviceId = Form.useWatch('deviceId', form);
  const valueType = Form.useWatch('valueType', form) as AlertValueType | undefined;
  const devices = useSiteDevices(platformId);
  const catalogue = useMonitorTypes();
  const typeText = useValueTypeText();
  const levelOptions = useLevelOptions();
  const groups = useQuery({ queryKey: alertKeys.groups, queryFn: fetchGroupOptions, enabled: open, retry: false });
  const criteria = useQuery({ queryKey: alertKeys.criteria, queryFn: () => fetchCriteria(), enabled: open });
  const device = devices.data?.find((d) => d.deviceId === deviceId);
  const quantities = catalogue.quantities(device?.moduleId ?? rule?.moduleId);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setResult(null);
    form.setFieldsValue(
      rule
        ? {
            platformId: rule.platformId,
            deviceId: rule.deviceId,
            quantity: rule.quantity,
            level: rule.level,
            valueType: rule.valueType,
            value: String(rule.value),
            rateValue: rule.rateValue === null ? undefined : String(rule.rateValue),
            direction: rule.direction,
            windowN: rule.windowN,
            windowUnit: nn(rule.windowUnit),
            ratio: rule.ratio === null ? undefined : String(rule.ratio),
            groupId: nn(rule.groupId),
            channels: rule.channels,
            pushIntervalMinutes: rule.pushIntervalMinutes,
            enabled: rule.enabled,
            criterionId: nn(rule.criterionId),
            description: rule.description ?? undefined,
          }
        : {
            level: 2,
            valueType: 'threshold',
            enabled: true,
            channels: ['sms'],
            pushIntervalMinutes: 30,
            windowUnit: 'hour',
          },
    );
  }, [open, rule, form]);

  const save = useMutation({
    mutationFn: (v: Values) => (rule ? editRule(rule.id, v) : addRule(v)),
    onSuccess: () => onSaved(!rule),
  });
  const test = useMutation({
    mutationFn: (v: Values) => testRule({ ...v, id: undefined }, days),
    onSuccess: setResult,
  });

  const showProblems = (v: Values, notify: boolean) => {
    const problems = problemsOf(v).filter((p) => notify || (p.field !== 'channels' && p.field !== 'groupId'));
    form.setFields(
      ['level', 'valueType', 'value', 'rateValue', 'windowN', 'ratio', 'channels', 'groupId'].map((name) => ({
        name: name as keyof Values,
        errors: problems.filter((p) => p.field === name).map((p) => t(`validation.${p.key}`)),
      })),
    );
    return problems.length === 0;
  };

  const onSave = async () => {
    try {
      await form.validateFields(['platformId', 'deviceId', 'quantity']);
    } catch {
      return;
    }
    const v = form.getFieldsValue(true) as Values;
    if (showProblems(v, true)) save.mutate(v);
  };
  const onTest = async () => {
    try {
      await form.validateFields(['platformId', 'deviceId', 'quantity']);
    } catch {
      return;
    }
    const v = form.getFieldsValue(true) as Values;
    if (showProblems(v, false)) test.mutate(v);
  };

  const windowed = valueType ? WINDOWED_VALUE_TYPES.includes(valueType) : false;
  const twoValues = valueType === 'thresholdRate' || valueType === 'rainfallIntensity';
  const noGroups = groups.isSuccess && groups.data.length === 0;

  return (
    <Drawer
      open={open}
      size={760}
      title={rule ? t('rules.editTitle', { device: rule.deviceName, quantity: rule.showName }) : t('rules.addTitle')}
      onClose={onClose}
      destroyOnHidden
      extra={
        <Flex gap={8}>
          <Button onClick={onClose}>{t('actions.cancel')}</Button>
          <Button type="primary" loading={save.isPending} data-testid="rule-save" onClick={() => void onSave()}>
            {t('actions.save')}
          </Button>
        </Flex>
      }
    >
      <Form<Values> form={form} layout="vertical" requiredMark>
        <Flex gap={12} wrap>
          <Form.Item
            name="platformId"
            label={t('fields.site')}
            style={{ flex: '1 1 200px' }}
            rules={[{ required: true, message: t('validation.siteRequired') }]}
          >
            <Select
              id="rule-site"
              showSearch={{ optionFilterProp: 'label' }}
              disabled={Boolean(rule)}
              options={sites.map((s) => ({ value: s.platformId, label: s.name }))}
              onChange={() => form.setFieldsValue({ deviceId: undefined as unknown as number, quantity: '' })}
            />
          </Form.Item>
          <Form.Item
            name="deviceId"
            label={t('fields.device')}
            style={{ flex: '1 1 220px' }}
            rules={[{ required: true, message: t('validation.deviceRequired') }]}
          >
            <Select
              id="rule-device"
              showSearch={{ optionFilterProp: 'label' }}
              disabled={Boolean(rule) || !platformId}
              loading={devices.isFetching}
              options={(devices.data ?? []).map((d) => ({ value: d.deviceId, label: `${d.deviceName} (${d.number})` }))}
              onChange={() => form.setFieldsValue({ quantity: '' })}
            />
          </Form.Item>
          <Form.Item
            name="quantity"
            label={t('fields.quantity')}
            style={{ flex: '1 1 180px' }}
            rules={[{ required: true, message: t('validation.quantityRequired') }]}
          >
            <Select
              id="rule-quantity"
              disabled={Boolean(rule) || !deviceId}
              options={quantities.map((q) => ({ value: q.key, label: q.unit ? `${q.text} (${q.unit})` : q.text }))}
            />
          </Form.Item>
        </Flex>
        <Divider style={{ margin: '4px 0 16px' }} />
        <Flex gap={12} wrap>
          <Form.Item name="level" label={t('fields.level')} required style={{ flex: '1 1 160px' }}>
            <Select id="rule-level" options={levelOptions} />
          </Form.Item>
          <Form.Item name="valueType" label={t('rules.fields.valueType')} required style={{ flex: '1 1 220px' }}>
            <Select
              id="rule-type"
              options={ALERT_VALUE_TYPES.map((v) => ({ value: v, label: typeText(v) }))}
              onChange={() => setResult(null)}
            />
          </Form.Item>
          <Form.Item name="direction" label={t('evidence.direction')} style={{ flex: '1 1 200px' }}>
            <Select
              id="rule-direction"
              allowClear
              placeholder={t('rules.directionDefault')}
              options={ALERT_DIRECTIONS.map((d) => ({ value: d, label: t(`directions.${d}`) }))}
            />
          </Form.Item>
        </Flex>
        <Flex gap={12} wrap>
          <Form.Item
            name="value"
            label={valueType === 'rainfallIntensity' ? t('rules.fields.coefA') : t('evidence.threshold')}
            required
            style={{ flex: '1 1 160px' }}
          >
            <Input id="rule-value" inputMode="decimal" />
          </Form.Item>
          {twoValues ? (
            <Form.Item
              name="rateValue"
              label={valueType === 'rainfallIntensity' ? t('rules.fields.coefB') : t('rules.fields.rateValue')}
              required
              style={{ flex: '1 1 160px' }}
            >
              <Input id="rule-rate-value" inputMode="decimal" />
            </Form.Item>
          ) : null}
          <Form.Item label={t('evidence.window')} required={windowed} style={{ flex: '1 1 220px', marginBottom: 0 }}>
            <Flex gap={8}>
              <Form.Item name="windowN" noStyle>
                <InputNumber id="rule-window" min={1} max={1000} precision={0} style={{ width: 100 }} />
              </Form.Item>
              <Form.Item name="windowUnit" noStyle>
                <Select
                  style={{ width: 110 }}
                  options={WINDOW_UNITS.map((u) => ({ value: u, label: t(`unitNames.${u}`) }))}
                />
              </Form.Item>
            </Flex>
          </Form.Item>
          <Form.Item
            name="ratio"
            label={t('evidence.ratio')}
            extra={t('rules.ratioHint')}
            style={{ flex: '1 1 140px' }}
          >
            <Input id="rule-ratio" inputMode="decimal" placeholder="0 - 1" />
          </Form.Item>
        </Flex>
        <Typography.Paragraph type="secondary" style={{ marginTop: -8 }}>
          {valueType ? t(`rules.typeHelp.${valueType}`) : null}
        </Typography.Paragraph>
        <Divider style={{ margin: '4px 0 16px' }} />
        {noGroups ? <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('rules.noGroups')} /> : null}
        <Flex gap={12} wrap>
          <Form.Item name="groupId" label={t('rules.fields.group')} required style={{ flex: '1 1 220px' }}>
            <Select
              id="rule-group"
              showSearch={{ optionFilterProp: 'label' }}
              loading={groups.isFetching}
              options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
            />
          </Form.Item>
          <Form.Item
            name="pushIntervalMinutes"
            label={t('rules.fields.pushInterval')}
            extra={t('rules.pushIntervalHint')}
            style={{ flex: '1 1 180px' }}
          >
            <InputNumber id="rule-push" min={0} max={10080} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="enabled" label={t('rules.fields.enabled')} valuePropName="checked">
            <Switch id="rule-enabled" />
          </Form.Item>
        </Flex>
        <Form.Item name="channels" label={t('rules.fields.channels')} required>
          <Checkbox.Group options={ALERT_CHANNELS.map((c) => ({ value: c, label: t(`channels.${c}`) }))} />
        </Form.Item>
        <Flex gap={12} wrap>
          <Form.Item name="criterionId" label={t('rules.fields.criterion')} style={{ flex: '1 1 220px' }}>
            <Select
              id="rule-criterion"
              allowClear
              options={(criteria.data ?? []).map((c) => ({ value: c.id, label: `${c.name} (${c.type})` }))}
            />
          </Form.Item>
          <Form.Item name="description" label={t('rules.fields.description')} style={{ flex: '2 1 300px' }}>
            <Input id="rule-description" maxLength={500} />
          </Form.Item>
        </Flex>
      </Form>
      <Divider titlePlacement="start" style={{ marginTop: 0 }}>
        {t('rules.test.title')}
      </Divider>
      <Flex gap={8} align="center" wrap style={{ marginBottom: 12 }}>
        <Typography.Text>{t('rules.test.over')}</Typography.Text>
        <Select<number>
          value={days}
          style={{ width: 140 }}
          onChange={setDays}
          options={[7, 30, 90, 180].map((d) => ({ value: d, label: t('rules.test.days', { count: d }) }))}
        />
        <Button
          icon={<ExperimentOutlined />}
          loading={test.isPending}
          data-testid="rule-test"
          onClick={() => void onTest()}
        >
          {t('rules.test.run')}
        </Button>
      </Flex>
      {result ? (
        <TestResult result={result} />
      ) : (
        <Typography.Text type="secondary">{t('rules.test.hint')}</Typography.Text>
      )}
      {rule ? (
        <Descriptions
          size="small"
          style={{ marginTop: 16 }}
          items={[
            { key: 'c', label: t('rules.created'), children: fmtTime(rule.createdAt) },
            { key: 'u', label: t('rules.updated'), children: fmtTime(rule.updatedAt) },
          ]}
        />
      ) : null}
    </Drawer>
  );
}
