import { useState, type ReactElement } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Badge, Button, Card, Empty, Flex, List, Select, Space, Tag, Typography } from 'antd';
import { EyeOutlined, SettingOutlined } from '@ant-design/icons';
import { hasPermission, useSession } from '../../shared/session.ts';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useSiteOptions } from '../../shared/sites.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { deviceColour, mainValueText } from '../threeD/index.ts';
import { fetchSitePanoramas, imageHref, panoKeys } from './panoramasApi.ts';
import { PanoramaView } from './PanoramaView.tsx';
import { useLivePanorama } from './useLivePanorama.ts';

/** /vr (hidden): a site's panoramas with live device hotspots; link hotspots walk to the next panorama. */
export default function PanoramaViewerPage(): ReactElement {
  const { t } = useTranslation('panoramas');
  const navigate = useNavigate();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const sites = useSiteOptions();
  const platformId = Number(params.get('platformId')) || sites.sites[0]?.platformId;
  const list = useQuery({
    queryKey: panoKeys.ofSite(platformId ?? 0),
    queryFn: () => fetchSitePanoramas(platformId!),
    enabled: platformId !== undefined,
    retry: retryUnlessCancelled,
  });
  const rows = list.data?.list ?? [];
  const asked = Number(params.get('id'));
  const id = rows.find((r) => r.id === asked)?.id ?? rows[0]?.id;
  const { query, spots, socket } = useLivePanorama(id);
  const [focus, setFocus] = useState<number | null>(null);
  const go = (next: Record<string, string>): void => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) p.set(k, v);
    if (next.platformId) p.delete('id');
    setParams(p, { replace: !next.id });
    setFocus(null);
  };
  const devices = spots.filter((s) => s.device);
  const highlight = focus === null ? null : spots.findIndex((s) => s.device?.deviceId === focus);

  return (
    <Flex vertical gap={16}>
      <PageHeaderCard
        icon={<EyeOutlined />}
        title={t('view.title')}
        description={t('view.description')}
        extra={
          <Space wrap>
            <Select
              data-testid="pano-site"
              style={{ width: 220 }}
              loading={sites.isLoading}
              placeholder={t('fields.site')}
              value={platformId}
              options={sites.options}
              showSearch={{ optionFilterProp: 'label' }}
              onChange={(v: number) => go({ platformId: String(v) })}
            />
            <Select
              data-testid="pano-pick"
              style={{ width: 220 }}
              placeholder={t('fields.panorama')}
              value={id}
              options={rows.map((r) => ({ value: r.id, label: r.name }))}
              onChange={(v: number) => go({ id: String(v) })}
            />
            {hasPermission('threeDimensional:manage', session) ? (
              <Button icon={<SettingOutlined />} data-testid="pano-manage" onClick={() => navigate('/vrManage')}>
                {t('view.manage')}
              </Button>
            ) : null}
          </Space>
        }
      />
      <Flex gap={16} align="stretch">
        <Card variant="borderless" style={{ flex: 1, minWidth: 0 }} styles={{ body: { padding: 8 } }}>
          {query.data ? (
            <PanoramaView
              imageUrl={imageHref(query.data)}
              spots={spots}
              highlight={highlight !== null && highlight >= 0 ? highlight : null}
              onLink={(target) => go({ id: String(target) })}
              onDevice={setFocus}
            />
          ) : (
            <Empty description={list.isLoading ? t('view.loading') : t('view.none')} data-testid="pano-empty" />
          )}
        </Card>
        <Card variant="borderless" style={{ width: 300, flex: 'none' }}>
          <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
            <Typography.Text strong>{t('view.devices')}</Typography.Text>
            <Badge
              status={socket.connected ? 'success' : 'default'}
              text={socket.connected ? t('live.on') : t('live.off')}
            />
          </Flex>
          <List
            size="small"
            dataSource={devices}
            locale={{ emptyText: t('view.noDevices') }}
            renderItem={(s) => {
              const d = s.device!;
              return (
                <List.Item
                  onClick={() => setFocus(d.deviceId)}
                  style={{ cursor: 'pointer', background: focus === d.deviceId ? '#e6f4ff' : undefined }}
                  data-testid="pano-device-row"
                >
                  <Flex vertical gap={2} style={{ width: '100%' }}>
                    <Space size={6}>
                      <span
                        style={{
                          width: 10,
                          height: 10,
                          borderRadius: 5,
                          background: deviceColour(d.state, d.alertLevel),
                          display: 'inline-block',
                        }}
                      />
                      {s.label || d.deviceName}
                    </Space>
                    <Flex justify="space-between" align="center" style={{ paddingLeft: 16 }}>
                      <Typography.Text strong>{mainValueText(d.moduleId, d.values)}</Typography.Text>
                      <Tag color={deviceColour(d.state, d.alertLevel)} style={{ marginInlineEnd: 0 }}>
                        {t(`state.${d.state}`)}
                      </Tag>
                    </Flex>
                  </Flex>
                </List.Item>
              );
            }}
          />
        </Card>
      </Flex>
    </Flex>
  );
}
