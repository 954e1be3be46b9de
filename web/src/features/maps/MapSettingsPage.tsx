import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Flex,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Space,
  Tag,
  Typography,
  message,
} from 'antd';
import { AimOutlined, GlobalOutlined, SaveOutlined } from '@ant-design/icons';
import {
  MAP_TYPES,
  PROVIDER_SCHEME,
  type MapConfig,
  type MapLayerRow,
  type MapMode,
  type MapType,
  type TileSet,
} from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { SimpleTable } from '../../shared/ui/SimpleTable.tsx';
import { MapPicker } from '../../shared/map/MapPicker.tsx';
import { setMapConfig } from '../../shared/map/config.ts';
import { formatTime } from '../../shared/time.ts';
import { MapPreview } from './MapPreview.tsx';
import { FileButton } from './FileButton.tsx';
import {
  deleteLayer,
  deleteTileSet,
  fetchLayers,
  fetchSettings,
  fetchTileSets,
  importLayer,
  mapsKeys,
  saveSettings,
  uploadTileSet,
} from './mapsApi.ts';

interface Values {
  type: MapType;
  mode: MapMode;
  centerLat: number;
  centerLon: number;
  zoom: number;
  tileSetId?: number | undefined;
  tiandituKey?: string;
  amapKey?: string;
  baiduKey?: string;
  googleKey?: string;
}

/** Whether a tile set fits a map type (the same tile scheme and provider; a KML map takes any Web Mercator set). */
const fits = (set: TileSet, type: MapType) =>
  PROVIDER_SCHEME[set.provider] === PROVIDER_SCHEME[type] &&
  (type === 'kml' || set.provider === type || set.provider === 'kml');

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(b < 1024 * 1024 ? 2 : 1)} MB`;

/**
 * System > Map (issue 21; spec §3 Map config): the map every screen uses — type (Tianditu, Baidu, Amap, Google, KML),
 * online or offline, default centre and zoom, provider keys — with a live preview; the offline tile sets imported
 * into the server; the system map's KML layers. Test hooks: map-type, map-mode, map-tileset, map-save,
 * tileset-upload(-input), layer-import(-input), map-preview.
 */
export default function MapSettingsPage() {
  const { t } = useTranslation('maps');
  const qc = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [form] = Form.useForm<Values>();
  const settings = useQuery({ queryKey: mapsKeys.settings, queryFn: fetchSettings });
  const tileSets = useQuery({ queryKey: mapsKeys.tileSets, queryFn: fetchTileSets });
  const layers = useQuery({ queryKey: mapsKeys.layers(null), queryFn: () => fetchLayers(null) });
  const [picking, setPicking] = useState(false);
  const [setName, setSetName] = useState('');
  const [setProvider, setSetProvider] = useState<MapType>('tianditu');
  const [error, setError] = useState<string | null>(null);
  const values = Form.useWatch([], form) as Partial<Values> | undefined;

  useEffect(() => {
    const s = settings.data;
    if (!s) return;
    form.setFieldsValue({
      type: s.type,
      mode: s.mode,
      centerLat: s.center.lat,
      centerLon: s.center.lon,
      zoom: s.zoom,
      tileSetId: s.tileSet?.id,
      tiandituKey: s.keys.tianditu,
      amapKey: s.keys.amap,
      baiduKey: s.keys.baidu,
      googleKey: s.keys.google,
    });
  }, [settings.data, form]);

  const type = values?.type ?? settings.data?.type ?? 'tianditu';
  const mode = values?.mode ?? settings.data?.mode ?? 'online';
  const sets = useMemo(() => tileSets.data ?? [], [tileSets.data]);
  const draft: MapConfig | null = settings.data
    ? {
        type,
        mode,
        center: {
          lat: values?.centerLat ?? settings.data.center.lat,
          lon: values?.centerLon ?? settings.data.center.lon,
        },
        zoom: values?.zoom ?? settings.data.zoom,
        tileSet: sets.find((s) => s.id === values?.tileSetId) ?? null,
        tiandituReady: !!values?.tiandituKey,
        updatedAt: null,
      }
    : null;

  const save = useMutation({
    mutationFn: (v: Values) =>
      saveSettings({
        type: v.type,
        mode: v.mode,
        centerLat: v.centerLat,
        centerLon: v.centerLon,
        zoom: v.zoom,
        ...(v.tileSetId !== undefined ? { tileSetId: v.tileSetId } : {}),
        tiandituKey: v.tiandituKey ?? '',
        amapKey: v.amapKey ?? '',
        baiduKey: v.baiduKey ?? '',
        googleKey: v.googleKey ?? '',
      }),
    onSuccess: (s) => {
      setError(null);
      void msg.success(t('saved'));
      qc.setQueryData(mapsKeys.settings, s);
      const { keys: _k, ...config } = s;
      void _k;
      setMapConfig(config);
    },
    onError: (e) => setError(e instanceof Error ? e.message : String(e)),
  });
  const uploadSet = useMutation({
    mutationFn: (f: File) => uploadTileSet(f, setName.trim() || f.name.replace(/\.[^.]+$/, ''), setProvider),
    onSuccess: (s) => {
      setError(null);
      void msg.success(t('tileSets.imported', { name: s.name, count: s.tiles }));
      setSetName('');
      void qc.invalidateQueries({ queryKey: mapsKeys.tileSets });
    },
    onError: (e) => setError(e instanceof Error ? e.message : String(e)),
  });
  const importSystemLayer = useMutation({
    mutationFn: (f: File) => importLayer(f, null),
    onSuccess: (l) => {
      setError(null);
      void msg.success(t('layers.imported', { name: l.name }));
      void qc.invalidateQueries({ queryKey: mapsKeys.layers(null) });
    },
    onError: (e) => setError(e instanceof Error ? e.message : String(e)),
  });

  const typeOptions = MAP_TYPES.map((v) => ({ value: v, label: t(`type.${v}`) }));
  return (
    <ListPage icon={<GlobalOutlined />} title={t('title')} description={t('description')}>
      {msgHolder}
      {error ? (
        <Alert
          type="error"
          showIcon
          closable
          onClose={() => setError(null)}
          title={error}
          data-testid="map-error"
          style={{ marginBottom: 12 }}
        />
      ) : null}
      <Row gutter={[16, 16]}>
        <Col flex="420px">
          <Card size="small" title={t('config')} loading={settings.isLoading}>
            <Form<Values> form={form} layout="vertical" requiredMark={false} onFinish={(v) => save.mutate(v)}>
              <Form.Item name="type" label={t('field.type')} htmlFor="map-type">
                <Select id="map-type" data-testid="map-type" options={typeOptions} />
              </Form.Item>
              <Form.Item name="mode" label={t('field.mode')}>
                <Radio.Group data-testid="map-mode" optionType="button" buttonStyle="solid">
                  <Radio.Button value="online">{t('mode.online')}</Radio.Button>
                  <Radio.Button value="offline">{t('mode.offline')}</Radio.Button>
                </Radio.Group>
              </Form.Item>
              {mode === 'offline' ? (
                <Form.Item name="tileSetId" label={t('field.tileSet')} htmlFor="map-tileset" extra={t('hint.tileSet')}>
                  <Select<number>
                    id="map-tileset"
                    data-testid="map-tileset"
                    allowClear
                    placeholder={t('placeholder.tileSet')}
                    options={sets
                      .filter((s) => fits(s, type))
                      .map((s) => ({ value: s.id, label: `${s.name} (${t(`type.${s.provider}`)})` }))}
                  />
                </Form.Item>
              ) : null}
              <Form.Item label={t('field.center')} required>
                <Space.Compact style={{ width: '100%' }}>
                  <Form.Item name="centerLat" noStyle rules={[{ required: true }]}>
                    <InputNumber<number>
                      id="map-center-lat"
                      prefix={t('field.lat')}
                      min={-90}
                      max={90}
                      step={0.000001}
                      style={{ width: '42%' }}
                    />
                  </Form.Item>
                  <Form.Item name="centerLon" noStyle rules={[{ required: true }]}>
                    <InputNumber<number>
                      id="map-center-lon"
                      prefix={t('field.lon')}
                      min={-180}
                      max={180}
                      step={0.000001}
                      style={{ width: '42%' }}
                    />
                  </Form.Item>
                  <Button
                    icon={<AimOutlined />}
                    onClick={() => setPicking(true)}
                    aria-label={t('pick')}
                    title={t('pick')}
                  />
                </Space.Compact>
              </Form.Item>
              <Form.Item name="zoom" label={t('field.zoom')} rules={[{ required: true }]} htmlFor="map-zoom">
                <InputNumber<number> id="map-zoom" min={1} max={18} style={{ width: 120 }} />
              </Form.Item>
              <Typography.Text strong>{t('keys')}</Typography.Text>
              <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 8 }}>
                {t('hint.keys')}
              </Typography.Paragraph>
              {(['tianditu', 'amap', 'baidu', 'google'] as const).map((k) => (
                <Form.Item
                  key={k}
                  name={`${k}Key`}
                  label={t(`type.${k}`)}
                  htmlFor={`map-key-${k}`}
                  style={{ marginBottom: 8 }}
                >
                  <Input.Password id={`map-key-${k}`} autoComplete="off" maxLength={200} />
                </Form.Item>
              ))}
              <Button
                type="primary"
                htmlType="submit"
                icon={<SaveOutlined />}
                loading={save.isPending}
                data-testid="map-save"
                style={{ marginTop: 8 }}
              >
                {t('save')}
              </Button>
            </Form>
          </Card>
        </Col>
        <Col flex="1" style={{ minWidth: 0 }}>
          <Flex vertical gap={16}>
            <Card
              size="small"
              title={
                <Space>
                  {t('preview')}
                  {draft ? (
                    <Tag>
                      {t(`type.${draft.type}`)} · {t(`mode.${draft.mode}`)}
                    </Tag>
                  ) : null}
                </Space>
              }
            >
              {draft ? <MapPreview config={draft} /> : null}
            </Card>
            <Card
              size="small"
              title={t('tileSets.title')}
              extra={
                <Space wrap>
                  <Input
                    style={{ width: 160 }}
                    placeholder={t('tileSets.name')}
                    value={setName}
                    maxLength={100}
                    onChange={(e) => setSetName(e.target.value)}
                    data-testid="tileset-name"
                  />
                  <Select<MapType>
                    style={{ width: 130 }}
                    value={setProvider}
                    onChange={setSetProvider}
                    options={typeOptions}
                    data-testid="tileset-provider"
                  />
                  <FileButton
                    accept=".pmtiles,.mbtiles,.zip"
                    onFile={(f) => uploadSet.mutate(f)}
                    testId="tileset-upload"
                    loading={uploadSet.isPending}
                  >
                    {t('tileSets.upload')}
                  </FileButton>
                </Space>
              }
            >
              <SimpleTable<TileSet>
                data-testid="tileset-table"
                rows={sets}
                rowKey={(r) => r.id}
                empty={<Typography.Text type="secondary">{t('tileSets.none')}</Typography.Text>}
                columns={[
                  { key: 'name', title: t('tileSets.name'), render: (r) => r.name },
                  { key: 'provider', title: t('field.type'), render: (r) => t(`type.${r.provider}`) },
                  { key: 'format', title: t('tileSets.format'), render: (r) => r.format.toUpperCase() },
                  { key: 'zoom', title: t('field.zoom'), render: (r) => `${r.minZoom}–${r.maxZoom}` },
                  {
                    key: 'tiles',
                    title: t('tileSets.tiles'),
                    align: 'right',
                    render: (r) => `${r.tiles} · ${mb(r.bytes)}`,
                  },
                  { key: 'at', title: t('tileSets.createdAt'), render: (r) => formatTime(r.createdAt) },
                  {
                    key: 'del',
                    title: '',
                    render: (r) => (
                      <DeleteAction
                        title={t('tileSets.confirmDelete')}
                        label={t('delete')}
                        onDelete={() => deleteTileSet(r.id)}
                        success={t('deleted')}
                        onDone={() => void qc.invalidateQueries({ queryKey: mapsKeys.tileSets })}
                      />
                    ),
                  },
                ]}
              />
            </Card>
            <Card
              size="small"
              title={t('layers.title')}
              extra={
                <FileButton
                  accept=".kml,.kmz,.geojson,.json"
                  onFile={(f) => importSystemLayer.mutate(f)}
                  testId="layer-import"
                  loading={importSystemLayer.isPending}
                >
                  {t('layers.import')}
                </FileButton>
              }
            >
              <SimpleTable<MapLayerRow>
                data-testid="layer-table"
                rows={layers.data ?? []}
                rowKey={(r) => r.id}
                empty={<Typography.Text type="secondary">{t('layers.none')}</Typography.Text>}
                columns={[
                  { key: 'name', title: t('layers.name'), render: (r) => r.name },
                  { key: 'format', title: t('tileSets.format'), render: (r) => r.format.toUpperCase() },
                  {
                    key: 'count',
                    title: t('layers.features'),
                    render: (r) => t('layers.counts', { points: r.points, lines: r.lines, polygons: r.polygons }),
                  },
                  {
                    key: 'del',
                    title: '',
                    render: (r) => (
                      <DeleteAction
                        title={t('layers.confirmDelete')}
                        label={t('delete')}
                        onDelete={() => deleteLayer(r.id)}
                        success={t('deleted')}
                        onDone={() => void qc.invalidateQueries({ queryKey: mapsKeys.layers(null) })}
                      />
                    ),
                  },
                ]}
              />
            </Card>
          </Flex>
        </Col>
      </Row>
      <MapPicker
        open={picking}
        value={draft ? { lat: draft.center.lat, lon: draft.center.lon } : null}
        onCancel={() => setPicking(false)}
        onOk={(p) => {
          form.setFieldsValue({ centerLat: p.lat, centerLon: p.lon });
          setPicking(false);
        }}
      />
    </ListPage>
  );
}
