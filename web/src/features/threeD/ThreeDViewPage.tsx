import { useMemo, useState, type ReactElement } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Badge, Button, Card, Empty, Flex, Select, Space, Tag, Typography } from 'antd';
import { BoxPlotOutlined, EyeOutlined } from '@ant-design/icons';
import { ALERT_LEVEL_COLOURS, SITE_STATE_COLOURS, type DeviceState } from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { SceneView } from './SceneView.tsx';
import { DevicePanel } from './DevicePanel.tsx';
import { deviceColour, mainValueText } from './deviceLook.ts';
import { useLiveScene } from './useLiveScene.ts';
import { useSitePick } from './useSitePick.ts';

const STATES: DeviceState[] = ['normal', 'alert', 'alarm', 'abnormal', 'offline'];

/** /dimensional/3D: a site's model with its devices coloured by state, live; a click shows the device. */
export default function ThreeDViewPage(): ReactElement {
  const { t } = useTranslation('threeD');
  const navigate = useNavigate();
  const { sites, platformId, pick } = useSitePick();
  const { query, scene, devices, live, socket } = useLiveScene(platformId);
  const [selected, setSelected] = useState<number | null>(null);
  const markers = useMemo(
    () => devices.map((d) => ({ id: d.deviceId, color: deviceColour(d.state, d.alertLevel), position: d.placement })),
    [devices],
  );
  const picked = devices.find((d) => d.deviceId === selected) ?? null;
  const counts = useMemo(() => {
    const c = new Map<DeviceState, number>();
    for (const d of devices) if (d.placement) c.set(d.state, (c.get(d.state) ?? 0) + 1);
    return c;
  }, [devices]);
  const unplaced = devices.filter((d) => !d.placement).length;

  return (
    <Flex vertical gap={16}>
      <PageHeaderCard
        icon={<BoxPlotOutlined />}
        title={t('view.title')}
        description={t('view.description')}
        extra={
          <Space wrap>
            <Select
              data-testid="three-d-site"
              style={{ width: 240 }}
              loading={sites.isLoading}
              placeholder={t('fields.site')}
              value={platformId}
              onChange={(v: number) => {
                setSelected(null);
                pick(v);
              }}
              options={(sites.data ?? []).map((s) => ({ value: s.platformId, label: s.name }))}
              showSearch={{ optionFilterProp: 'label' }}
            />
            <Button
              icon={<EyeOutlined />}
              data-testid="three-d-panoramas"
              disabled={platformId === undefined}
              onClick={() => navigate(`/vr?platformId=${platformId}`)}
            >
              {t('view.panoramas')}
            </Button>
          </Space>
        }
      />
      <Flex gap={16} align="stretch">
        <Card variant="borderless" style={{ flex: 1, minWidth: 0 }} styles={{ body: { padding: 8 } }}>
          {sites.data && sites.data.length === 0 ? (
            <Empty description={t('view.noSites')} />
          ) : (
            <>
              <SceneView
                modelUrl={scene?.model?.url ?? null}
                previewUrl={scene?.model?.previewUrl ?? null}
                tilesetUrl={scene?.tileset?.url ?? null}
                markers={markers}
                selected={selected}
                selectedLabel={
                  picked ? `${picked.deviceName} · ${mainValueText(picked.moduleId, picked.values)}` : undefined
                }
                onPick={setSelected}
              />
              {query.data && !query.data.model ? (
                <Typography.Text type="secondary" data-testid="three-d-no-model">
                  {t('view.noModel')}
                </Typography.Text>
              ) : null}
            </>
          )}
        </Card>
        <Card variant="borderless" style={{ width: 320, flex: 'none' }} data-testid="three-d-side">
          <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
            <Typography.Text strong>{t('legend.title')}</Typography.Text>
            <Badge
              status={socket.connected ? 'success' : 'default'}
              text={socket.connected ? t('live.on') : t('live.off')}
              data-testid="three-d-live"
            />
          </Flex>
          <Flex wrap gap={4} style={{ marginBottom: 8 }} data-testid="three-d-legend">
            {STATES.map((s) => (
              <Tag key={s} color={SITE_STATE_COLOURS[s]}>
                {t(`state.${s}`)} {counts.get(s) ?? 0}
              </Tag>
            ))}
          </Flex>
          <Flex wrap gap={4} style={{ marginBottom: 12 }}>
            {([1, 2, 3, 4] as const).map((l) => (
              <Tag key={l} color={ALERT_LEVEL_COLOURS[l].hex}>
                {t(`level.${l}`)}
              </Tag>
            ))}
          </Flex>
          {unplaced > 0 ? (
            <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
              {t('view.unplaced', { count: unplaced })}
            </Typography.Paragraph>
          ) : null}
          {picked ? (
            <DevicePanel device={picked} live={live.get(picked.deviceId) ?? []} />
          ) : (
            <Typography.Paragraph type="secondary">{t('view.pickHint')}</Typography.Paragraph>
          )}
        </Card>
      </Flex>
    </Flex>
  );
}
