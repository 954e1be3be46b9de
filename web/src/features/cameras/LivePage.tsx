import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Flex, Segmented, Tooltip, Typography } from 'antd';
import { AppstoreOutlined, ClearOutlined } from '@ant-design/icons';
import { LIVE_LAYOUTS } from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { SiteFilter } from '../../shared/table/SiteFilter.tsx';
import { useSiteOptions } from '../../shared/sites.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { cameraKeys, fetchCameras } from './camerasApi.ts';
import { GroupTree, byCameraName, cameraKey } from './GroupTree.tsx';
import { LiveTile } from './LiveTile.tsx';
import { PtzPanel } from './PtzPanel.tsx';
import './cameras.css';

type Layout = (typeof LIVE_LAYOUTS)[number];
const STORE = 'geosentry.liveGrid';

function load(): { layout: Layout; tiles: (number | null)[] } {
  try {
    const v = JSON.parse(sessionStorage.getItem(STORE) ?? '') as { layout: Layout; tiles: (number | null)[] };
    if (LIVE_LAYOUTS.includes(v.layout) && Array.isArray(v.tiles)) return v;
  } catch {
    /* none kept */
  }
  return { layout: 4, tiles: [] };
}

/**
 * Camera > real-time video (spec §2 realtimecamera): a 1, 4, 9 or 16 tile grid; cameras are picked from the
 * group tree (click a camera: the selected or next free tile) or all of a site's at once (?platformId= opens a
 * site's cameras, the alert's "live view" link). PTZ controls for the selected tile's camera when it has PTZ.
 */
export default function LivePage() {
  const { t } = useTranslation('cameras');
  const [{ layout, tiles }, setGrid] = useState(load);
  const [selectedTile, setSelectedTile] = useState(0);
  const [site, setSite] = useState<number | undefined>(() => {
    const q = new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('platformId');
    return q ? Number(q) : undefined;
  });
  const { sites } = useSiteOptions();
  const cameras = useQuery({
    queryKey: cameraKeys.list({ pageNum: 1, pageSize: 1000 } as never),
    queryFn: () => fetchCameras({ pageNum: 1, pageSize: 1000 }),
    retry: retryUnlessCancelled,
  });
  const byId = useMemo(() => new Map((cameras.data?.list ?? []).map((c) => [c.id, c])), [cameras.data]);
  const n = layout;
  const shown = Array.from({ length: n }, (_, i) => tiles[i] ?? null);

  useEffect(() => sessionStorage.setItem(STORE, JSON.stringify({ layout, tiles })), [layout, tiles]);

  const put = (cameraId: number) =>
    setGrid((g) => {
      const next = Array.from({ length: 16 }, (_, i) => g.tiles[i] ?? null);
      if (next.slice(0, g.layout).includes(cameraId)) return g;
      const free = next.findIndex((x, i) => i < g.layout && x === null);
      const at = shown[selectedTile] === null || free < 0 ? selectedTile : free;
      next[at] = cameraId;
      setSelectedTile(Math.min(g.layout - 1, at + 1));
      return { ...g, tiles: next };
    });
  const openSite = (platformId: number | undefined) => {
    setSite(platformId);
    if (platformId === undefined) return;
    const ids = (cameras.data?.list ?? [])
      .filter((c) => c.platformId === platformId)
      .sort(byCameraName)
      .map((c) => c.id);
    const fit = LIVE_LAYOUTS.find((l) => l >= ids.length) ?? 16;
    setGrid({ layout: fit, tiles: ids.slice(0, 16) });
  };
  useEffect(() => {
    if (site !== undefined && cameras.data && tiles.length === 0) openSite(site);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cameras.data]);

  const selectedCamera = byId.get(shown[selectedTile] ?? -1);
  const cols = Math.sqrt(n);

  return (
    <Flex vertical gap={16}>
      <PageHeaderCard
        icon={<AppstoreOutlined />}
        title={t('live.title')}
        description={t('live.description')}
        extra={
          <Flex gap={8} align="center">
            <Segmented<Layout>
              data-testid="live-layout"
              value={layout}
              onChange={(l) => {
                setGrid((g) => ({ ...g, layout: l }));
                setSelectedTile((s) => Math.min(s, l - 1));
              }}
              options={LIVE_LAYOUTS.map((l) => ({ value: l, label: t('live.tiles', { count: l }) }))}
            />
            <Tooltip title={t('live.clear')}>
              <Button icon={<ClearOutlined />} onClick={() => setGrid((g) => ({ ...g, tiles: [] }))} />
            </Tooltip>
          </Flex>
        }
      />
      <Flex gap={16} align="flex-start">
        <Flex vertical gap={12} style={{ width: 280, flex: 'none' }}>
          <Card size="small" title={t('live.pick')}>
            <Flex vertical gap={8}>
              <SiteFilter
                data-testid="live-site"
                placeholder={t('live.siteAll')}
                sites={sites}
                value={site}
                onChange={openSite}
              />
              <GroupTree
                cameras={cameras.data?.list}
                height={420}
                selected={shown[selectedTile] ? cameraKey(shown[selectedTile] ?? 0) : undefined}
                onSelect={(key) => {
                  if (key?.startsWith('c')) put(Number(key.slice(1)));
                }}
              />
            </Flex>
          </Card>
          {selectedCamera?.ptz ? <PtzPanel camera={selectedCamera} /> : null}
        </Flex>
        <div
          className="camera-grid"
          data-testid="live-grid"
          style={{ gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))` }}
        >
          {shown.map((id, i) => {
            const cam = id === null ? undefined : byId.get(id);
            return cam ? (
              <LiveTile
                key={`${i}-${cam.id}`}
                cameraId={cam.id}
                // Nine or sixteen small tiles play the cameras' sub streams (smaller pictures), as recorders do.
                quality={n >= 9 ? 'sub' : 'main'}
                name={`${cam.name} · ${cam.platformName}`}
                selected={i === selectedTile}
                onSelect={() => setSelectedTile(i)}
                onClose={() => setGrid((g) => ({ ...g, tiles: g.tiles.map((x, j) => (j === i ? null : x)) }))}
              />
            ) : (
              <div
                key={`${i}-empty`}
                className={`camera-tile camera-tile-empty${i === selectedTile ? ' camera-tile-selected' : ''}`}
                onClick={() => setSelectedTile(i)}
              >
                <Typography.Text type="secondary">{t('live.emptyTile')}</Typography.Text>
              </div>
            );
          })}
        </div>
      </Flex>
    </Flex>
  );
}
