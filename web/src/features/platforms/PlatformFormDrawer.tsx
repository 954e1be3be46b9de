import { useEffect, useMemo, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Badge, Button, Col, Drawer, Flex, Form, Input, InputNumber, Row, Select, Tabs, Tooltip } from 'antd';
import type { FormRule } from 'antd';
import { EnvironmentOutlined } from '@ant-design/icons';
import type { PlatformRow, PlatformType } from '@geosentry/contract';
import { orgWord } from '../../shared/wording.ts';
import { MapPicker } from '../../shared/map/MapPicker.tsx';
import { LAT_MAX, LAT_MIN, LON_MAX, LON_MIN, isLat, isLon } from '../../shared/map/coords.ts';
import { RegionCascader } from '../regions/index.ts';
import { isFullySelected, useRegionTree } from '../regions/index.ts';
import { fieldsFor, groupsFor, type DetailField } from './fields.ts';
import { DetailFieldItem, fieldId } from './DetailFieldItem.tsx';
import { SUB_TYPES, capitalize } from './kinds.ts';
import { UploadField } from '../files/index.ts';
import { addPlatform, editPlatform, fetchEnterpriseOptions, platformKeys, type PlatformInput } from './platformsApi.ts';

export interface PlatformFormDrawerProps {
  kind: PlatformType;
  open: boolean;
  /** The site to edit, or null to add one. */
  site: PlatformRow | null;
  onClose: () => void;
  onSaved: (added: boolean) => void;
}

interface FormValues {
  name: string;
  subType?: string;
  description?: string;
  manager?: string;
  regionPath?: string[];
  lon?: number | null;
  lat?: number | null;
  alt?: number | null;
  enterpriseId?: number | null;
  organization?: string;
  details?: Record<string, unknown>;
  pictures?: string[];
  files?: string[];
}

const COMMON_TAB = 'common';
const text = (v: string | undefined): string | undefined => (v && v.trim() ? v.trim() : undefined);
const num = (v: number | null | undefined): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

/** The details as the server takes them: blanks left out, fields that do not apply dropped. */
function cleanDetails(fields: DetailField[], raw: Record<string, unknown> | undefined): Record<string, unknown> {
  const all = raw ?? {};
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = all[f.key];
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) continue;
    if (f.showIf && !f.showIf(all)) continue;
    out[f.key] = typeof v === 'string' ? v.trim() : v;
  }
  return out;
}

/**
 * Adds or edits a site of one kind: the common fields (spec §3 Platform) on the first tab, then the kind's
 * own fields, tab by tab, rendered from fieldsFor(kind). Inputs: #platform-<field>; save: [data-testid=platform-save].
 */
export function PlatformFormDrawer({ kind, open, site, onClose, onSaved }: PlatformFormDrawerProps) {
  const { t } = useTranslation('platforms');
  const [form] = Form.useForm<FormValues>();
  const [tab, setTab] = useState(COMMON_TAB);
  const [picking, setPicking] = useState(false);
  const [errorTabs, setErrorTabs] = useState<Record<string, number>>({});
  const isEdit = site !== null;
  const fields = useMemo(() => fieldsFor(kind), [kind]);
  const groups = useMemo(() => groupsFor(kind), [kind]);
  const details = Form.useWatch('details', form) as Record<string, unknown> | undefined;
  const regionTree = useRegionTree(open);
  const enterprises = useQuery({
    queryKey: platformKeys.enterprises(kind === 'tailings' ? 'tailings' : 'general'),
    queryFn: () => fetchEnterpriseOptions(kind),
    enabled: open,
  });
  const org = capitalize(t(orgWord(kind)));

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setTab(COMMON_TAB);
    setErrorTabs({});
    if (site)
      form.setFieldsValue({
        name: site.name,
        subType: site.subType ?? undefined,
        description: site.description ?? undefined,
        manager: site.manager ?? undefined,
        regionPath: site.regionPath.length ? site.regionPath : undefined,
        lon: site.lon,
        lat: site.lat,
        alt: site.alt,
        enterpriseId: site.enterpriseId,
        organization: site.organization ?? undefined,
        details: { ...site.details },
        pictures: site.pictures ?? [],
        files: site.files ?? [],
      });
    else form.setFieldsValue({ details: {} });
  }, [open, site, form]);

  const save = useMutation({
    mutationFn: (v: PlatformInput) => (site ? editPlatform(kind, site.platformId, v) : addPlatform(kind, v)),
    onSuccess: () => onSaved(!isEdit),
  });

  const groupOf = (name: (string | number)[]): string => {
    if (name[0] !== 'details') return COMMON_TAB;
    return fields.find((f) => f.key === name[1])?.group ?? COMMON_TAB;
  };

  const onFinish = (v: FormValues) => {
    setErrorTabs({});
    save.mutate({
      name: v.name.trim(),
      subType: text(v.subType),
      description: text(v.description),
      manager: text(v.manager),
      regionCode: v.regionPath?.length ? v.regionPath[v.regionPath.length - 1] : undefined,
      lon: num(v.lon),
      lat: num(v.lat),
      alt: num(v.alt),
      enterpriseId: num(v.enterpriseId),
      organization: text(v.organization),
      details: cleanDetails(fields, form.getFieldValue('details') as Record<string, unknown> | undefined),
      pictures: JSON.stringify(v.pictures ?? []),
      files: JSON.stringify(v.files ?? []),
    });
  };

  const onFinishFailed = ({ errorFields }: { errorFields: { name: (string | number)[] }[] }) => {
    const counts: Record<string, number> = {};
    for (const e of errorFields) {
      const g = groupOf(e.name);
      counts[g] = (counts[g] ?? 0) + 1;
    }
    setErrorTabs(counts);
    const first = errorFields[0];
    if (first) setTab(groupOf(first.name));
  };

  const regionRules: FormRule[] = [
    {
      validator: (_r, v: string[] | undefined) =>
        isFullySelected(regionTree.data ?? [], v)
          ? Promise.resolve()
          : Promise.reject(new Error(t('validation.regionIncomplete'))),
    },
  ];
  const pairRule = (other: 'lat' | 'lon'): FormRule => ({
    validator: (_r, v: number | null | undefined) => {
      const o = form.getFieldValue(other) as number | null | undefined;
      const has = (x: unknown) => typeof x === 'number';
      return has(v) !== has(o) ? Promise.reject(new Error(t('validation.coordsPair'))) : Promise.resolve();
    },
  });

  const subTypeOptions = useMemo(() => {
    const values = [...SUB_TYPES[kind]];
    if (site?.subType && !values.includes(site.subType)) values.push(site.subType);
    return values.map((v) => ({ value: v, label: t(`subTypes.${v}`, { defaultValue: v }) }));
  }, [kind, site, t]);

  const tabLabel = (key: string, label: string) => (
    <Badge count={errorTabs[key] ?? 0} size="small" offset={[8, -2]}>
      <span data-testid={`platform-tab-${key}`}>{label}</span>
    </Badge>
  );

  const commonTab = (
    <>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item
            name="name"
            htmlFor={fieldId('name')}
            label={t(kind === 'bridge' ? 'fields.bridgeName' : 'fields.name')}
            rules={[
              {
                required: true,
                whitespace: true,
                message: t(kind === 'bridge' ? 'validation.bridgeNameRequired' : 'validation.nameRequired'),
              },
            ]}
          >
            <Input id={fieldId('name')} maxLength={100} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="subType"
            htmlFor={fieldId('subType')}
            label={t(kind === 'bridge' ? 'fields.platformType' : 'fields.subType')}
          >
            <Select<string>
              id={fieldId('subType')}
              allowClear
              placeholder={t('form.choose')}
              options={subTypeOptions}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="manager" htmlFor={fieldId('manager')} label={t('fields.manager')}>
            <Input id={fieldId('manager')} maxLength={100} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="organization" htmlFor={fieldId('organization')} label={t('fields.organization')}>
            <Input id={fieldId('organization')} maxLength={200} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="enterpriseId" htmlFor={fieldId('enterpriseId')} label={org}>
            <Select<number>
              id={fieldId('enterpriseId')}
              allowClear
              loading={enterprises.isLoading}
              placeholder={t('form.chooseOrg', { org: t(orgWord(kind)) })}
              showSearch={{ optionFilterProp: 'label' }}
              options={(enterprises.data ?? []).map((e) => ({
                value: e.enterpriseId,
                label: e.code ? `${e.name} (${e.code})` : e.name,
              }))}
              notFoundContent={t('form.noEnterprises', { org: t(orgWord(kind)) })}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="regionPath"
            htmlFor={fieldId('regionCode')}
            label={t('fields.region')}
            rules={regionRules}
            extra={t('form.regionHint')}
          >
            <RegionCascader id={fieldId('regionCode')} changeOnSelect placeholder={t('form.regionPlaceholder')} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16} align="top">
        <Col span={7}>
          <Form.Item
            name="lon"
            htmlFor={fieldId('lon')}
            label={t('fields.lon')}
            dependencies={['lat']}
            rules={[
              {
                validator: (_r, v: unknown) =>
                  v === undefined || v === null || isLon(v)
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('validation.lonRange'))),
              },
              pairRule('lat'),
            ]}
          >
            <InputNumber<number>
              id={fieldId('lon')}
              style={{ width: '100%' }}
              min={LON_MIN}
              max={LON_MAX}
              precision={6}
              suffix="°"
            />
          </Form.Item>
        </Col>
        <Col span={7}>
          <Form.Item
            name="lat"
            htmlFor={fieldId('lat')}
            label={t('fields.lat')}
            dependencies={['lon']}
            rules={[
              {
                validator: (_r, v: unknown) =>
                  v === undefined || v === null || isLat(v)
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('validation.latRange'))),
              },
              pairRule('lon'),
            ]}
          >
            <InputNumber<number>
              id={fieldId('lat')}
              style={{ width: '100%' }}
              min={LAT_MIN}
              max={LAT_MAX}
              precision={6}
              suffix="°"
            />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name="alt" htmlFor={fieldId('alt')} label={t('fields.alt')}>
            <InputNumber<number>
              id={fieldId('alt')}
              style={{ width: '100%' }}
              min={-12000}
              max={12000}
              suffix={t('units.m')}
            />
          </Form.Item>
        </Col>
        <Col span={4}>
          <Form.Item label=" " colon={false}>
            <Tooltip title={t('map.openHint')}>
              <Button
                block
                icon={<EnvironmentOutlined />}
                data-testid="map-picker-open"
                onClick={() => setPicking(true)}
              >
                {t('map.open')}
              </Button>
            </Tooltip>
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="description" htmlFor={fieldId('description')} label={t('fields.description')}>
        <Input.TextArea id={fieldId('description')} maxLength={2000} autoSize={{ minRows: 3, maxRows: 8 }} />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="pictures" label={t('fields.pictures')}>
            <UploadField kind="picture" max={3} platformId={site?.platformId} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="files" label={t('fields.files')}>
            <UploadField kind="document" max={3} platformId={site?.platformId} />
          </Form.Item>
        </Col>
      </Row>
    </>
  );

  const detailTab = (group: string) => (
    <Row gutter={16}>
      {fields
        .filter((f) => f.group === group && (!f.showIf || f.showIf(details ?? {})))
        .map((f) => (
          <Col key={f.key} span={f.wide ? 24 : 8}>
            <DetailFieldItem t={t} kind={kind} field={f} />
          </Col>
        ))}
    </Row>
  );

  return (
    <Drawer
      open={open}
      size={980}
      title={isEdit ? t('form.editTitle', { name: site.name }) : t('form.addTitle', { kind: t(`kinds.${kind}.noun`) })}
      onClose={onClose}
      mask={{ closable: !save.isPending }}
      destroyOnHidden
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={onClose}>{t('form.cancel')}</Button>
          <Button type="primary" data-testid="platform-save" loading={save.isPending} onClick={() => form.submit()}>
            {t('form.save')}
          </Button>
        </Flex>
      }
    >
      <Form<FormValues>
        form={form}
        name="platform"
        layout="vertical"
        onFinish={onFinish}
        onFinishFailed={onFinishFailed}
        onFieldsChange={() => {
          // Keep the tabs' error counts in step while the user fixes the fields.
          if (Object.keys(errorTabs).length === 0) return;
          const counts: Record<string, number> = {};
          for (const e of form.getFieldsError())
            if (e.errors.length) counts[groupOf(e.name)] = (counts[groupOf(e.name)] ?? 0) + 1;
          setErrorTabs(counts);
        }}
        onValuesChange={(changed: Partial<FormValues>) => {
          // An arch kind only applies to arch bridges (the server refuses it otherwise).
          const d = changed.details;
          if (d && 'bridgeType' in d) {
            const archField = fields.find((f) => f.key === 'archType');
            if (archField?.showIf && !archField.showIf(form.getFieldValue('details') ?? {}))
              form.setFieldValue(['details', 'archType'], undefined);
          }
        }}
        data-testid="platform-form"
      >
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            {
              key: COMMON_TAB,
              label: tabLabel(COMMON_TAB, t('groups.common')),
              forceRender: true,
              children: commonTab,
            },
            ...groups.map((g) => ({
              key: g,
              label: tabLabel(g, t(`groups.${g}`)),
              forceRender: true,
              children: detailTab(g),
            })),
          ]}
        />
      </Form>
      <MapPicker
        open={picking}
        value={
          picking
            ? {
                lat: form.getFieldValue('lat') as number | undefined,
                lon: form.getFieldValue('lon') as number | undefined,
              }
            : null
        }
        onCancel={() => setPicking(false)}
        onOk={(p) => {
          form.setFieldsValue({ lat: p.lat, lon: p.lon });
          void form.validateFields(['lat', 'lon']);
          setPicking(false);
        }}
      />
    </Drawer>
  );
}
