import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  Button,
  Card,
  Empty,
  Flex,
  InputNumber,
  List,
  Popconfirm,
  Progress,
  Select,
  Space,
  Tag,
  Typography,
  Upload,
  message,
} from 'antd';
import {
  DeleteOutlined,
  DragOutlined,
  PictureOutlined,
  SaveOutlined,
  ToolOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import type { ThreeDPlacement } from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { SceneView } from './SceneView.tsx';
import { deleteModel, fetchTilesets, savePlacements, setTileset, threeDKeys, uploadModel } from './threeDApi.ts';
import { deviceColour } from './deviceLook.ts';
import { useLiveScene } from './useLiveScene.ts';
import { useSitePick } from './useSitePick.ts';

type Place = { x: number; y: number; z: number };

/** /dimensional/3DManage: upload a site's model, drag its devices onto it, set their height, save. */
export default function ThreeDManagePage(): ReactElement {
  const { t } = useTranslation('threeD');
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [msg, holder] = message.useMessage();
  const { sites, platformId, pick } = useSitePick();
  const { query, scene, devices } = useLiveScene(platformId);
  const [places, setPlaces] = useState<Map<number, Place>>(new Map());
  const [dirty, setDirty] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const tilesets = useQuery({ queryKey: threeDKeys.tilesets, queryFn: fetchTilesets });

  // The stored placements, again whenever the scene is read (and nothing is being edited).
  useEffect(() => {
    if (dirty) return;
    setPlaces(new Map((query.data?.devices ?? []).flatMap((d) => (d.placement ? [[d.deviceId, d.placement]] : []))));
  }, [query.data, dirty]);
  useEffect(() => {
    setDirty(false);
    setSelected(null);
  }, [platformId]);

  const markers = useMemo(
    () =>
      devices.map((d) => ({
        id: d.deviceId,
        color: d.deviceId === selected ? '#1677ff' : deviceColour(d.state, d.alertLevel),
        position: places.get(d.deviceId) ?? null,
      })),
    [devices, places, selected],
  );
  const move = (id: number, p: Place): void => {
    setPlaces((m) => new Map(m).set(id, p));
    setSelected(id);
    setDirty(true);
  };
  const picked = devices.find((d) => d.deviceId === selected);
  const pickedPlace = selected !== null ? places.get(selected) : undefined;
  const refresh = () => qc.invalidateQueries({ queryKey: threeDKeys.all });

  const save = async (): Promise<void> => {
    if (platformId === undefined) return;
    setSaving(true);
    try {
      const list: ThreeDPlacement[] = [...places].map(([deviceId, p]) => ({ deviceId, ...p }));
      await savePlacements(platformId, list);
      setDirty(false);
      void msg.success(t('manage.saved'));
      void refresh();
    } finally {
      setSaving(false);
    }
  };

  const model = scene?.model ?? null;
  const tilesetName = scene?.tileset?.name ?? '';
  return (
    <Flex vertical gap={16}>
      {holder}
      <PageHeaderCard
        icon={<ToolOutlined />}
        title={t('manage.title')}
        description={t('manage.description')}
        extra={
          <Space wrap>
            <Select
              data-testid="three-d-site"
              style={{ width: 240 }}
              loading={sites.isLoading}
              placeholder={t('fields.site')}
              value={platformId}
              onChange={(v: number) => pick(v)}
              options={(sites.data ?? []).map((s) => ({ value: s.platformId, label: s.name }))}
              showSearch={{ optionFilterProp: 'label' }}
            />
            <Button
              icon={<PictureOutlined />}
              data-testid="three-d-manage-panoramas"
              onClick={() => navigate('/vr/manage')}
            >
              {t('manage.panoramas')}
            </Button>
          </Space>
        }
      />
      <Flex gap={16} align="stretch">
        <Card variant="borderless" style={{ flex: 1, minWidth: 0 }} styles={{ body: { padding: 8 } }}>
          {platformId === undefined ? (
            <Empty description={t('view.noSites')} />
          ) : (
            <SceneView
              modelUrl={model?.url ?? null}
              previewUrl={model?.previewUrl ?? null}
              tilesetUrl={scene?.tileset?.url ?? null}
              markers={markers}
              selected={selected}
              selectedLabel={picked?.deviceName}
              onPick={setSelected}
              onMove={move}
            />
          )}
        </Card>
        <Card variant="borderless" style={{ width: 340, flex: 'none' }}>
          <Typography.Text strong>{t('manage.model')}</Typography.Text>
          <div style={{ margin: '6px 0 12px' }} data-testid="three-d-model-info">
            {model ? (
              <Typography.Text type="secondary">
                {t('manage.modelInfo', {
                  name: model.name,
                  triangles: model.triangles.toLocaleString(),
                  size: (model.size / 1024 / 1024).toFixed(1),
                })}
              </Typography.Text>
            ) : (
              <Typography.Text type="secondary">{t('view.noModel')}</Typography.Text>
            )}
          </div>
          <Space wrap style={{ marginBottom: 8 }}>
            <Upload
              accept=".glb,.tif,.tiff,.asc"
              showUploadList={false}
              disabled={platformId === undefined || progress !== null}
              beforeUpload={(file) => {
                if (platformId === undefined) return false;
                setProgress(0);
                uploadModel(platformId, file, setProgress)
                  .then(() => {
                    void msg.success(t('manage.uploaded'));
                    void refresh();
                  })
                  .catch((e: Error) => void msg.error(e.message))
                  .finally(() => setProgress(null));
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} data-testid="three-d-upload" loading={progress !== null}>
                {model ? t('manage.replace') : t('manage.upload')}
              </Button>
            </Upload>
            <Select<string>
              data-testid="three-d-tileset"
              style={{ minWidth: 220 }}
              placeholder={t('manage.tilesetNone')}
              allowClear
              disabled={platformId === undefined}
              value={tilesetName || undefined}
              loading={tilesets.isLoading}
              notFoundContent={t('manage.tilesetEmpty')}
              options={(tilesets.data ?? []).map((x) => ({
                value: x.name,
                label: `${t('manage.tileset')}: ${x.name}`,
              }))}
              onChange={(v) => {
                if (platformId === undefined) return;
                setTileset(platformId, v ?? '')
                  .then(() => {
                    void msg.success(t(v ? 'manage.tilesetSet' : 'manage.tilesetCleared'));
                    void refresh();
                  })
                  .catch((e: Error) => void msg.error(e.message));
              }}
            />
            {model ? (
              <Popconfirm
                title={t('manage.deleteConfirm')}
                onConfirm={async () => {
                  await deleteModel(platformId!);
                  void msg.success(t('manage.deleted'));
                  void refresh();
                }}
              >
                <Button danger icon={<DeleteOutlined />} data-testid="three-d-delete-model">
                  {t('manage.delete')}
                </Button>
              </Popconfirm>
            ) : null}
          </Space>
          {progress !== null ? <Progress percent={progress} size="small" /> : null}
          <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 8 }}>
            {t('manage.hint')}
          </Typography.Paragraph>
          {picked ? (
            <div data-testid="three-d-placement" style={{ marginBottom: 12 }}>
              <Typography.Text strong>{picked.deviceName}</Typography.Text>
              {pickedPlace ? (
                <Flex gap={6} style={{ marginTop: 6 }} wrap>
                  {(['x', 'z', 'y'] as const).map((k) => (
                    <Space.Compact key={k} style={{ width: 96 }}>
                      <InputNumber
                        size="small"
                        data-testid={`three-d-coord-${k}`}
                        prefix={k === 'y' ? t('manage.height') : k.toUpperCase()}
                        value={pickedPlace[k]}
                        step={k === 'y' ? 0.5 : 1}
                        onChange={(v) => {
                          if (typeof v !== 'number' || selected === null) return;
                          move(selected, { ...pickedPlace, [k]: v });
                        }}
                      />
                    </Space.Compact>
                  ))}
                  <Button
                    size="small"
                    type="link"
                    danger
                    onClick={() => {
                      setPlaces((m) => {
                        const n = new Map(m);
                        n.delete(picked.deviceId);
                        return n;
                      });
                      setDirty(true);
                    }}
                  >
                    {t('manage.unplace')}
                  </Button>
                </Flex>
              ) : (
                <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
                  {t('manage.dragHint')}
                </Typography.Paragraph>
              )}
            </div>
          ) : null}
          <List
            size="small"
            bordered
            data-testid="three-d-devices"
            style={{ maxHeight: 'calc(100vh - 560px)', minHeight: 120, overflow: 'auto', marginBottom: 12 }}
            dataSource={devices}
            locale={{ emptyText: t('manage.noDevices') }}
            renderItem={(d) => (
              <List.Item
                draggable
                data-testid="three-d-device-item"
                data-device-id={d.deviceId}
                onDragStart={(e) => {
                  e.dataTransfer.setData('application/x-device-id', String(d.deviceId));
                  e.dataTransfer.effectAllowed = 'move';
                }}
                onClick={() => setSelected(d.deviceId)}
                style={{ cursor: 'grab', background: d.deviceId === selected ? '#e6f4ff' : undefined }}
              >
                <Space size={6}>
                  <DragOutlined />
                  <span>{d.deviceName}</span>
                </Space>
                <Tag color={places.has(d.deviceId) ? 'green' : 'default'}>
                  {places.has(d.deviceId) ? t('manage.placed') : t('manage.notPlaced')}
                </Tag>
              </List.Item>
            )}
          />
          <Space>
            <Button
              type="primary"
              icon={<SaveOutlined />}
              disabled={!dirty}
              loading={saving}
              data-testid="three-d-save"
              onClick={() => void save()}
            >
              {t('manage.save')}
            </Button>
            <Button disabled={!dirty} onClick={() => setDirty(false)}>
              {t('manage.reset')}
            </Button>
          </Space>
        </Card>
      </Flex>
    </Flex>
  );
}
