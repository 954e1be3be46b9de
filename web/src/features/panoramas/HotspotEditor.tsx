import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Input, List, Modal, Segmented, Select, Space, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import type { Hotspot, HotspotInput, HotspotKind, PanoramaRow } from '@geosentry/contract';
import { retryUnlessCancelled } from '../../shared/query.ts';
import {
  fetchPanorama,
  fetchSiteDevices,
  fetchSitePanoramas,
  imageHref,
  panoKeys,
  saveHotspots,
} from './panoramasApi.ts';
import { PanoramaView } from './PanoramaView.tsx';

type Draft = HotspotInput & { key: number };

/** Places a panorama's hotspots: click the image to add one, bind it to a device or another panorama, save. */
export function HotspotEditor({
  panorama,
  onClose,
  onSaved,
}: {
  panorama: PanoramaRow;
  onClose: () => void;
  onSaved: () => void;
}): ReactElement {
  const { t } = useTranslation('panoramas');
  const detail = useQuery({
    queryKey: panoKeys.detail(panorama.id),
    queryFn: () => fetchPanorama(panorama.id),
    retry: retryUnlessCancelled,
  });
  const devices = useQuery({
    queryKey: ['panoramas', 'devices', panorama.platformId],
    queryFn: () => fetchSiteDevices(panorama.platformId),
    retry: retryUnlessCancelled,
  });
  const others = useQuery({
    queryKey: panoKeys.ofSite(panorama.platformId),
    queryFn: () => fetchSitePanoramas(panorama.platformId),
    retry: retryUnlessCancelled,
  });
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [kind, setKind] = useState<HotspotKind>('device');
  const [active, setActive] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    setDrafts(
      (detail.data?.spots ?? []).map((s, i) => ({
        key: i,
        kind: s.kind,
        yaw: s.yaw,
        pitch: s.pitch,
        ...(s.device ? { deviceId: s.device.deviceId } : {}),
        ...(s.target ? { targetId: s.target.id } : {}),
        ...(s.label ? { label: s.label } : {}),
      })),
    );
  }, [detail.data]);
  const deviceById = useMemo(() => new Map((devices.data ?? []).map((d) => [d.deviceId, d])), [devices.data]);
  const targets = (others.data?.list ?? []).filter((p) => p.id !== panorama.id);
  // What the view shows: the drafts, their devices in their stored state.
  const shown = useMemo((): Hotspot[] => {
    const stored = new Map(
      (detail.data?.spots ?? []).flatMap((s) => (s.device ? [[s.device.deviceId, s.device]] : [])),
    );
    return drafts.map((d) => {
      const dev = d.deviceId !== undefined ? deviceById.get(d.deviceId) : undefined;
      const target = targets.find((p) => p.id === d.targetId);
      return {
        id: d.key,
        kind: d.kind,
        yaw: d.yaw,
        pitch: d.pitch,
        label: d.label ?? null,
        device:
          d.kind === 'device' && dev
            ? (stored.get(dev.deviceId) ?? {
                ...dev,
                state: 'normal',
                alertLevel: null,
                values: {},
                lastReadingAt: null,
              })
            : null,
        target: d.kind === 'link' && target ? { id: target.id, name: target.name } : null,
      };
    });
  }, [drafts, deviceById, targets, detail.data]);
  const update = (key: number, patch: Partial<HotspotInput>): void =>
    setDrafts((ds) => ds.map((d) => (d.key === key ? ({ ...d, ...patch } as Draft) : d)));
  const complete = drafts.every((d) => (d.kind === 'device' ? d.deviceId !== undefined : d.targetId !== undefined));

  return (
    <Modal
      open
      width={1180}
      title={t('hotspots.title', { name: panorama.name })}
      onCancel={onClose}
      okText={t('hotspots.save')}
      okButtonProps={{ disabled: !complete, loading: saving, id: 'pano-hotspots-save' }}
      onOk={async () => {
        setSaving(true);
        try {
          await saveHotspots(
            panorama.id,
            drafts.map(({ key: _k, ...h }) => h),
          );
          onSaved();
          onClose();
        } finally {
          setSaving(false);
        }
      }}
    >
      <Flex gap={12}>
        <div style={{ flex: 1, minWidth: 0 }}>
          <Flex align="center" gap={8} style={{ marginBottom: 8 }}>
            <Typography.Text type="secondary">{t('hotspots.add')}</Typography.Text>
            <Segmented<HotspotKind>
              value={kind}
              onChange={setKind}
              options={[
                { value: 'device', label: t('kind.device') },
                { value: 'link', label: t('kind.link') },
              ]}
            />
          </Flex>
          <PanoramaView
            imageUrl={imageHref(panorama)}
            spots={shown}
            height={520}
            highlight={active === null ? null : drafts.findIndex((d) => d.key === active)}
            onPlace={(yaw, pitch) => {
              const key = Math.max(0, ...drafts.map((d) => d.key + 1));
              setDrafts((ds) => [...ds, { key, kind, yaw, pitch }]);
              setActive(key);
            }}
          />
        </div>
        <List
          size="small"
          bordered
          style={{ width: 360, flex: 'none', maxHeight: 560, overflow: 'auto' }}
          dataSource={drafts}
          locale={{ emptyText: t('hotspots.none') }}
          renderItem={(d) => (
            <List.Item
              onClick={() => setActive(d.key)}
              style={{ background: d.key === active ? '#e6f4ff' : undefined, display: 'block' }}
              data-testid="pano-hotspot-row"
            >
              <Flex justify="space-between" align="center" style={{ marginBottom: 4 }}>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t(`kind.${d.kind}`)} · {t('hotspots.at', { yaw: d.yaw, pitch: d.pitch })}
                </Typography.Text>
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('actions.delete')}
                  onClick={() => setDrafts((ds) => ds.filter((x) => x.key !== d.key))}
                />
              </Flex>
              <Space.Compact style={{ width: '100%' }}>
                {d.kind === 'device' ? (
                  <Select
                    style={{ width: '60%' }}
                    size="small"
                    placeholder={t('hotspots.device')}
                    data-testid="pano-hotspot-device"
                    value={d.deviceId}
                    options={(devices.data ?? []).map((x) => ({ value: x.deviceId, label: x.deviceName }))}
                    showSearch={{ optionFilterProp: 'label' }}
                    onChange={(v: number) => update(d.key, { deviceId: v })}
                  />
                ) : (
                  <Select
                    style={{ width: '60%' }}
                    size="small"
                    placeholder={t('hotspots.target')}
                    value={d.targetId}
                    options={targets.map((p) => ({ value: p.id, label: p.name }))}
                    onChange={(v: number) => update(d.key, { targetId: v })}
                  />
                )}
                <Input
                  size="small"
                  style={{ width: '40%' }}
                  maxLength={100}
                  placeholder={t('hotspots.label')}
                  value={d.label ?? ''}
                  onChange={(e) => update(d.key, { label: e.target.value || undefined })}
                />
              </Space.Compact>
            </List.Item>
          )}
        />
      </Flex>
    </Modal>
  );
}
