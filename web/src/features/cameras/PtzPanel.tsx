import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Flex, Segmented, Select } from 'antd';
import {
  ArrowDownOutlined,
  ArrowLeftOutlined,
  ArrowRightOutlined,
  ArrowUpOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import { PTZ_SPEEDS, type Camera, type PtzDirection, type PtzSpeed } from '@geosentry/contract';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { cameraKeys, fetchPresets, gotoPreset, ptzMove, ptzStop } from './camerasApi.ts';

/** Pan, tilt, zoom and presets of the selected PTZ camera (ONVIF); not shown for cameras without PTZ. */
export function PtzPanel({ camera }: { camera: Camera }) {
  const { t } = useTranslation('cameras');
  const [speed, setSpeed] = useState<PtzSpeed>('middle');
  const presets = useQuery({
    queryKey: cameraKeys.presets(camera.id),
    queryFn: () => fetchPresets(camera.id),
    retry: retryUnlessCancelled,
  });
  const hold = (dir: PtzDirection, icon: React.ReactNode) => (
    <Button
      aria-label={t(`ptz.${dir}`)}
      data-testid={`ptz-${dir}`}
      icon={icon}
      onPointerDown={() => void ptzMove(camera.id, dir, speed).catch(() => undefined)}
      onPointerUp={() => void ptzStop(camera.id).catch(() => undefined)}
      onPointerLeave={(e) => {
        if (e.buttons) void ptzStop(camera.id).catch(() => undefined);
      }}
    />
  );
  return (
    <Card size="small" title={t('ptz.title', { name: camera.name })} data-testid="ptz-panel">
      <Flex vertical gap={8} align="center">
        {hold('up', <ArrowUpOutlined />)}
        <Flex gap={8}>
          {hold('left', <ArrowLeftOutlined />)}
          {hold('down', <ArrowDownOutlined />)}
          {hold('right', <ArrowRightOutlined />)}
        </Flex>
        <Flex gap={8}>
          {hold('zoomIn', <ZoomInOutlined />)}
          {hold('zoomOut', <ZoomOutOutlined />)}
        </Flex>
        <Segmented<PtzSpeed>
          size="small"
          value={speed}
          onChange={setSpeed}
          options={PTZ_SPEEDS.map((s) => ({ value: s, label: t(`ptz.speeds.${s}`) }))}
        />
        <Select
          size="small"
          style={{ width: '100%' }}
          placeholder={t('ptz.preset')}
          loading={presets.isFetching}
          options={(presets.data ?? []).map((p) => ({ value: p.token, label: p.name }))}
          onChange={(token: string) => void gotoPreset(camera.id, token, speed).catch(() => undefined)}
        />
      </Flex>
    </Card>
  );
}
