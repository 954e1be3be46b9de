import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  Button,
  Checkbox,
  Drawer,
  Flex,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Select,
  Switch,
  Tag,
  Typography,
  message,
} from 'antd';
import { ApartmentOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  ALERT_CHANNELS,
  ALERT_DIRECTIONS,
  ALERT_LEVELS,
  ALERT_VALUE_TYPES,
  RELATION_MODES,
  WINDOW_UNITS,
  alertRelationListQuery,
  type AlertRelationRow,
} from '@geosentry/contract';
import type { z } from 'zod';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { SiteFilter } from '../../shared/table/SiteFilter.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { nn, retryUnlessCancelled } from '../../shared/query.ts';
import { useMonitorTypes } from '../../shared/catalogue.ts';
import { useMonitorSites, useSiteDevices } from '../../shared/monitorSites.ts';
import {
  addRelation,
  alertKeys,
  deleteRelation,
  editRelation,
  fetchGroupOptions,
  fetchRelations,
  type RelationFormValues,
} from './alertsApi.ts';
import { fmtNum, levelHex, levelInk } from './alertUi.tsx';
import { useValueTypeText } from './valueTypes.ts';

type Params = z.output<typeof alertRelationListQuery>;
type Values = Omit<RelationFormValues, 'levels'> & { platformId?: number; levelValues: Record<string, string> };

function RelationDrawer({
  row,
  open,
  onClose,
  onSaved,
}: {
  row: AlertRelationRow | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('alerts');
  const [form] = Form.useForm<Values>();
  const { sites } = useMonitorSites();
  const platformId = Form.useWatch('platformId', form);
  const members = Form.useWatch('members', form);
  const devices = useSiteDevices(platformId);
  const catalogue = useMonitorTypes();
  const typeText = useValueTypeText();
  const groups = useQuery({ queryKey: alertKeys.groups, queryFn: fetchGroupOptions, enabled: open, retry: false });
  const save = useMutation({
    mutationFn: (v: Values) => {
      const body: RelationFormValues = {
        ...v,
        members: (v.members ?? []).filter((m) => m?.deviceId && m.quantity),
        levels: ALERT_LEVELS.map((l) => ({ level: l, value: v.levelValues?.[String(l)] ?? '' })),
      };
      return row ? editRelation(row.id, body) : addRelation(body);
    },
    onSuccess: onSaved,
  });
  const init = () => {
    form.resetFields();
    form.setFieldsValue(
      row
        ? {
            platformId: row.platformId,
            name: row.name,
            members: row.members.map((m) => ({ deviceId: m.deviceId, quantity: m.quantity })),
            valueType: row.valueType,
            direction: row.direction,
            levelValues: Object.fromEntries(row.levels.map((l) => [String(l.level), String(l.value)])),
            windowN: row.windowN,
            windowUnit: nn(row.windowUnit),
            mode: row.mode,
            groupId: nn(row.groupId),
            channels: row.channels,
            pushIntervalMinutes: row.pushIntervalMinutes,
            enabled: row.enabled,
            description: row.description ?? '',
          }
        : {
            members: [{ deviceId: undefined as unknown as number, quantity: '' }],
            valueType: 'threshold',
            mode: 'twoAgree',
            windowN: 1,
            windowUnit: 'hour',
            enabled: true,
            channels: ['sms'],
            pushIntervalMinutes: 30,
            levelValues: {},
          },
    );
  };
  return (
    <Drawer
      open={open}
      size={760}
      title={row ? t('relations.editTitle', { name: row.name }) : t('relations.add')}
      onClose={onClose}
      destroyOnHidden
      afterOpenChange={(o) => o && init()}
      extra={
        <Flex gap={8}>
          <Button onClick={onClose}>{t('actions.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()}>
            {t('actions.save')}
          </Button>
        </Flex>
      }
    >
      <Form<Values> form={form} layout="vertical" onFinish={(v) => save.mutate(v)}>
        <Flex gap={12} wrap>
          <Form.Item
            name="name"
            label={t('relations.name')}
            style={{ flex: '2 1 240px' }}
            rules={[{ required: true, whitespace: true, message: t('relations.nameRequired') }]}
          >
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item
            name="platformId"
            label={t('fields.site')}
            style={{ flex: '1 1 200px' }}
            rules={[{ required: true, message: t('validation.siteRequired') }]}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              options={sites.map((s) => ({ value: s.platformId, label: s.name }))}
            />
          </Form.Item>
        </Flex>
        <Typography.Text strong>{t('relations.members')}</Typography.Text>
        <Form.List
          name="members"
          rules={[
            {
              validator: (_r, v: unknown[] | undefined) =>
                (v ?? []).filter(Boolean).length >= 2
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('relations.membersRequired'))),
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <Flex vertical gap={8} style={{ margin: '8px 0 16px' }}>
              {fields.map((f) => {
                const dev = devices.data?.find((d) => d.deviceId === members?.[f.name]?.deviceId);
                return (
                  <Flex key={f.key} gap={8} align="start">
                    <Form.Item name={[f.name, 'deviceId']} noStyle>
                      <Select
                        style={{ flex: 2 }}
                        placeholder={t('fields.device')}
                        showSearch={{ optionFilterProp: 'label' }}
                        disabled={!platformId}
                        options={(devices.data ?? []).map((d) => ({ value: d.deviceId, label: d.deviceName }))}
                      />
                    </Form.Item>
                    <Form.Item name={[f.name, 'quantity']} noStyle>
                      <Select
                        style={{ flex: 1 }}
                        placeholder={t('fields.quantity')}
                        options={catalogue.quantities(dev?.moduleId).map((q) => ({ value: q.key, label: q.text }))}
                      />
                    </Form.Item>
                    <Button icon={<DeleteOutlined />} aria-label={t('actions.delete')} onClick={() => remove(f.name)} />
                  </Flex>
                );
              })}
              <Button icon={<PlusOutlined />} onClick={() => add({})} style={{ alignSelf: 'flex-start' }}>
                {t('relations.addMember')}
              </Button>
              <Form.ErrorList errors={errors} />
            </Flex>
          )}
        </Form.List>
        <Flex gap={12} wrap>
          <Form.Item name="valueType" label={t('rules.fields.valueType')} required style={{ flex: '1 1 200px' }}>
            <Select options={ALERT_VALUE_TYPES.map((v) => ({ value: v, label: typeText(v) }))} />
          </Form.Item>
          <Form.Item name="direction" label={t('evidence.direction')} style={{ flex: '1 1 180px' }}>
            <Select
              allowClear
              placeholder={t('rules.directionDefault')}
              options={ALERT_DIRECTIONS.map((d) => ({ value: d, label: t(`directions.${d}`) }))}
            />
          </Form.Item>
          <Form.Item name="mode" label={t('relations.mode')} style={{ flex: '1 1 220px' }}>
            <Select options={RELATION_MODES.map((m) => ({ value: m, label: t(`relations.modes.${m}`) }))} />
          </Form.Item>
        </Flex>
        <Typography.Text strong>{t('relations.levelValues')}</Typography.Text>
        <Flex gap={8} wrap style={{ margin: '8px 0 16px' }}>
          {ALERT_LEVELS.map((l) => (
            <Form.Item key={l} name={['levelValues', String(l)]} noStyle>
              <Input
                style={{ width: 150, borderColor: levelHex(l) }}
                inputMode="decimal"
                prefix={
                  <span
                    style={{
                      background: levelHex(l),
                      color: levelInk(l),
                      borderRadius: 3,
                      padding: '0 6px',
                      fontSize: 12,
                    }}
                  >
                    {t(`levels.${l}`)}
                  </span>
                }
              />
            </Form.Item>
          ))}
        </Flex>
        <Flex gap={12} wrap>
          <Form.Item label={t('evidence.window')} style={{ flex: '1 1 220px' }}>
            <Flex gap={8}>
              <Form.Item name="windowN" noStyle>
                <InputNumber min={1} max={1000} precision={0} style={{ width: 100 }} />
              </Form.Item>
              <Form.Item name="windowUnit" noStyle>
                <Select
                  style={{ width: 110 }}
                  options={WINDOW_UNITS.map((u) => ({ value: u, label: t(`unitNames.${u}`) }))}
                />
              </Form.Item>
            </Flex>
          </Form.Item>
          <Form.Item name="groupId" label={t('rules.fields.group')} required style={{ flex: '1 1 200px' }}>
            <Select options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))} />
          </Form.Item>
          <Form.Item name="pushIntervalMinutes" label={t('rules.fields.pushInterval')} style={{ flex: '1 1 140px' }}>
            <InputNumber min={0} max={10080} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="enabled" label={t('rules.fields.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Flex>
        <Form.Item name="channels" label={t('rules.fields.channels')} required>
          <Checkbox.Group options={ALERT_CHANNELS.map((c) => ({ value: c, label: t(`channels.${c}`) }))} />
        </Form.Item>
        <Form.Item name="description" label={t('rules.fields.description')}>
          <Input maxLength={500} />
        </Form.Item>
      </Form>
    </Drawer>
  );
}

/** /alert/alertRelation: multi-device rules ("multi device" alerts; orange and red may need two sensors to agree). */
export default function AlertRelationPage() {
  const { t } = useTranslation('alerts');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const table = useServerTable<Params>({ pageNum: 1, pageSize: 20 }, [], {
    filters: { platformId: 'number', keyword: 'string' },
  });
  const { params, setFilter } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
  const [editing, setEditing] = useState<AlertRelationRow | null | undefined>(undefined);
  const { sites } = useMonitorSites();
  const typeText = useValueTypeText();
  const list = useQuery({
    queryKey: alertKeys.relations(params),
    queryFn: () => fetchRelations(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: alertKeys.relationsAll });
  const remove = useMutation({
    mutationFn: deleteRelation,
    onSuccess: () => {
      void msg.success(t('relations.deleted'));
      table.afterDelete(list.data?.list.length ?? 0);
      void refresh();
    },
  });
  const columns: ServerColumn<AlertRelationRow>[] = [
    { title: t('relations.name'), dataIndex: 'name', key: 'name', width: 180 },
    { title: t('fields.site'), dataIndex: 'platformName', key: 'platformName', width: 160, optional: 2 },
    {
      title: t('relations.members'),
      dataIndex: 'members',
      key: 'members',
      width: 260,
      render: (v: AlertRelationRow['members']) => (
        <Flex gap={4} wrap>
          {v.map((m) => (
            <Tag key={`${m.deviceId}-${m.quantity}`} style={{ marginInlineEnd: 0 }}>
              {m.deviceName} · {m.showName}
            </Tag>
          ))}
        </Flex>
      ),
    },
    {
      title: t('rules.fields.valueType'),
      dataIndex: 'valueType',
      key: 'valueType',
      width: 160,
      optional: 3,
      render: (v: string) => typeText(v),
    },
    {
      title: t('relations.levelValues'),
      dataIndex: 'levels',
      key: 'levels',
      width: 260,
      render: (v: AlertRelationRow['levels']) => (
        <Flex gap={4} wrap>
          {v.map((l) => (
            <Tag
              key={l.level}
              style={{ background: levelHex(l.level), color: levelInk(l.level), border: 0, marginInlineEnd: 0 }}
            >
              {t(`levels.${l.level}`)} {fmtNum(l.value)}
            </Tag>
          ))}
        </Flex>
      ),
    },
    {
      title: t('relations.mode'),
      dataIndex: 'mode',
      key: 'mode',
      width: 180,
      optional: 1,
      render: (v: string) => t(`relations.modes.${v}`),
    },
    {
      title: t('rules.fields.enabled'),
      dataIndex: 'enabled',
      key: 'enabled',
      width: 90,
      render: (v: boolean) => (
        <Tag color={v ? 'green' : 'default'}>{v ? t('rules.filters.on') : t('rules.filters.off')}</Tag>
      ),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 140,
      render: (_v, row) => (
        <Flex>
          <Button type="link" size="small" onClick={() => setEditing(row)}>
            {t('actions.edit')}
          </Button>
          <Popconfirm
            title={t('relations.deleteConfirm', { name: row.name })}
            okText={t('actions.delete')}
            okButtonProps={{ danger: true }}
            cancelText={t('actions.cancel')}
            onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
          >
            <Button type="link" size="small" danger>
              {t('actions.delete')}
            </Button>
          </Popconfirm>
        </Flex>
      ),
    },
  ];
  return (
    <ListPage icon={<ApartmentOutlined />} title={t('relations.title')} description={t('relations.description')}>
      {msgHolder}
      <ServerTable<AlertRelationRow>
        tableId="alerts.relations"
        rowKey="id"
        data-testid="relation-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(n) => t('relations.total', { count: n })}
        empty={t('relations.empty')}
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>
            {t('relations.add')}
          </Button>
        }
        filters={
          <>
            <SiteFilter
              placeholder={t('filters.allSites')}
              value={params.platformId}
              sites={sites}
              onChange={(platformId) => setFilter({ platformId })}
            />
            <Input.Search
              allowClear
              style={{ width: 220 }}
              placeholder={t('relations.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
            />
          </>
        }
      />
      <RelationDrawer
        open={editing !== undefined}
        row={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={() => {
          void msg.success(t(editing ? 'relations.saved' : 'relations.added'));
          setEditing(undefined);
          void refresh();
        }}
      />
    </ListPage>
  );
}
