import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Empty, Flex, Row, Switch, Tag, Tooltip, Typography, message } from 'antd';
import { CloseOutlined, DragOutlined } from '@ant-design/icons';
import type { ViewDevice } from '@geosentry/contract';
import { usePermission } from '../../shared/session.ts';
import { useMonitorTypes } from '../../shared/catalogue.ts';
import {
  LiveStatus,
  NoSite,
  StateCountsBar,
  StateDot,
  ViewSitePicker,
  ViewToolbar,
  fmtTime,
  useMainValue,
} from './common.tsx';
import { STATE_COLORS, useSiteOverview, useViewSite } from './live.ts';
import { pictureUrl, savePlacement, viewKeys } from './viewsApi.ts';
import { placeLabels, type Placed, type Rect } from '../../shared/map/labels.ts';

let measureCtx: CanvasRenderingContext2D | null = null;
/** A label's width in pixels: its text at 12 px (plus the bold value's extra) and its padding and border. */
function labelWidth(text: string): number {
  measureCtx ??= document.createElement('canvas').getContext('2d');
  if (!measureCtx) return text.length * 7 + 20;
  measureCtx.font = '600 12px -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';
  return Math.ceil(measureCtx.measureText(text).width) + 20;
}

interface Drag {
  deviceId: number;
  x: number;
  y: number;
  inside: boolean;
  moved: boolean;
}

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
const round4 = (v: number) => Math.round(v * 10000) / 10000;

/**
 * Monitor > sketch map: the site's schematic picture with its devices at their stored places, each showing its
 * state colour and newest value. In edit mode markers are dragged (and devices dragged in from the side list);
 * each drop is saved at once. Test hooks: sketch-stage, sketch-marker-<id>, sketch-unplaced-<id>, sketch-edit.
 */
export default function SketchMapPage() {
  const { t } = useTranslation('monitorViews');
  const types = useMonitorTypes();
  const mainValue = useMainValue();
  const mayEdit = usePermission('monitor:sketchMap');
  const qc = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const { sites, platformId, setPlatformId, loading } = useViewSite();
  const live = useSiteOverview(platformId);
  const o = live.overview;
  const [edit, setEdit] = useState(false);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [local, setLocal] = useState<Map<number, { x: number; y: number } | null>>(new Map());
  const stageRef = useRef<HTMLDivElement | null>(null);
  const picture = o?.pictures[0];

  useEffect(() => setLocal(new Map()), [live.query.dataUpdatedAt, platformId]);

  const save = useMutation({
    mutationFn: (p: { deviceId: number; at: { x: number; y: number } | null }) =>
      savePlacement(
        p.at ? { deviceId: p.deviceId, sketchX: p.at.x, sketchY: p.at.y } : { deviceId: p.deviceId, clear: 'sketch' },
      ),
    onMutate: (p) => setLocal((m) => new Map(m).set(p.deviceId, p.at)),
    onSuccess: (_, p) => {
      void msg.success(p.at ? t('sketch.saved') : t('sketch.removed'));
      void qc.invalidateQueries({ queryKey: viewKeys.overview(platformId) });
    },
    onError: (_, p) =>
      setLocal((m) => {
        const n = new Map(m);
        n.delete(p.deviceId);
        return n;
      }),
  });

  const placeOf = (d: ViewDevice): { x: number; y: number } | null => {
    if (local.has(d.deviceId)) return local.get(d.deviceId) ?? null;
    return d.sketchX !== null && d.sketchY !== null ? { x: d.sketchX, y: d.sketchY } : null;
  };
  const placed = live.devices.filter((d) => placeOf(d) !== null);
  const unplaced = live.devices.filter((d) => placeOf(d) === null);

  const rel = (clientX: number, clientY: number) => {
    const r = stageRef.current?.getBoundingClientRect();
    if (!r || r.width === 0 || r.height === 0) return { x: 0, y: 0, inside: false };
    const x = (clientX - r.left) / r.width;
    const y = (clientY - r.top) / r.height;
    return { x: clamp01(x), y: clamp01(y), inside: x >= 0 && x <= 1 && y >= 0 && y <= 1 };
  };

  // While dragging, the window follows the pointer; the drop saves the place (outside the picture: nothing).
  const dragging = drag?.deviceId;
  useEffect(() => {
    if (dragging === undefined) return;
    const move = (e: PointerEvent) => setDrag((d) => (d ? { ...d, ...rel(e.clientX, e.clientY), moved: true } : d));
    const up = (e: PointerEvent) => {
      const at = rel(e.clientX, e.clientY);
      setDrag((d) => {
        if (d && d.moved && at.inside) save.mutate({ deviceId: d.deviceId, at: { x: round4(at.x), y: round4(at.y) } });
        return null;
      });
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    // rel reads the stage element at event time; save is stable for this purpose.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dragging]);

  const startDrag = (deviceId: number, e: React.PointerEvent) => {
    if (!edit || e.button !== 0) return;
    e.preventDefault();
    setDrag({ deviceId, ...rel(e.clientX, e.clientY), moved: false });
  };

  const markers = useMemo(
    () =>
      live.devices
        .map((d) => {
          const at = drag?.deviceId === d.deviceId && drag.inside ? drag : placeOf(d);
          return at ? { d, at } : null;
        })
        .filter((m): m is { d: ViewDevice; at: { x: number; y: number } } => m !== null),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [live.devices, drag, local],
  );

  // Labels are laid out in pixels of the stage so that none overlaps another, a pin, the site label or the
  // "no schematic picture" text (shared/map/labels.ts).
  const siteRef = useRef<HTMLDivElement | null>(null);
  const blankRef = useRef<HTMLSpanElement | null>(null);
  const [size, setSize] = useState<{ w: number; h: number } | null>(null);
  useEffect(() => {
    const el = stageRef.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setSize({ w: el.clientWidth, h: el.clientHeight }));
    ro.observe(el);
    return () => ro.disconnect();
  }, [o, picture]);
  const labelAt = useMemo(() => {
    const out = new Map<number, Placed>();
    if (!size || !stageRef.current) return out;
    const stageBox = stageRef.current.getBoundingClientRect();
    const rectOf = (el: Element | null): Rect | null => {
      if (!el) return null;
      const b = el.getBoundingClientRect();
      return { x: b.left - stageBox.left - 6, y: b.top - stageBox.top - 4, w: b.width + 12, h: b.height + 8 };
    };
    const obstacles = [rectOf(siteRef.current), rectOf(blankRef.current)].filter((r): r is Rect => r !== null);
    const items = markers.map(({ d, at }) => ({
      id: d.deviceId,
      x: at.x * size.w,
      y: at.y * size.h,
      w: labelWidth(`${d.deviceName} ${mainValue(d)}`),
      h: 21,
    }));
    for (const p of placeLabels(items, size, obstacles)) out.set(p.id as number, p);
    return out;
    // mainValue reads the newest values with the markers.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [markers, size]);

  return (
    <div className="gs-view-page" data-testid="view-sketch">
      {msgHolder}
      <ViewToolbar
        extra={
          <>
            <LiveStatus connected={live.connected} supported={live.supported} />
            {mayEdit ? (
              <Flex gap={6} align="center">
                <DragOutlined />
                <Typography.Text>{t('sketch.edit')}</Typography.Text>
                <Switch checked={edit} onChange={setEdit} data-testid="sketch-edit" disabled={!o} />
              </Flex>
            ) : null}
          </>
        }
      >
        <ViewSitePicker sites={sites} value={platformId} onChange={setPlatformId} loading={loading} />
        {o ? <StateCountsBar counts={live.stateCounts} /> : null}
      </ViewToolbar>
      {platformId === undefined ? (
        <NoSite loading={loading} />
      ) : !o ? (
        <Card loading />
      ) : (
        <Row gutter={[12, 12]} wrap={false}>
          <Col flex="auto" style={{ minWidth: 0 }}>
            <Card size="small" styles={{ body: { padding: 8 } }}>
              {edit ? <Alert type="info" showIcon style={{ marginBottom: 8 }} title={t('sketch.editHelp')} /> : null}
              <div className="gs-sketch-wrap">
                <div ref={stageRef} className={`gs-sketch-stage${picture ? '' : ' blank'}`} data-testid="sketch-stage">
                  {picture ? (
                    <img src={pictureUrl(picture)} alt={o.name} draggable={false} data-testid="sketch-picture" />
                  ) : (
                    <div className="gs-sketch-blank">
                      <span ref={blankRef} className="gs-sketch-blank-text">
                        {t('empty.noPictureSketch')}
                      </span>
                    </div>
                  )}
                  <div className="gs-sketch-site" ref={siteRef} data-testid="sketch-site-label">
                    {o.name}
                  </div>
                  {markers.map(({ d, at }) => (
                    <Tooltip
                      key={d.deviceId}
                      title={
                        drag ? null : (
                          <div>
                            <div>
                              {d.deviceName} · {types.label(d.moduleId)}
                            </div>
                            <div>{fmtTime(d.lastReadingAt)}</div>
                          </div>
                        )
                      }
                    >
                      <div
                        className={`gs-sketch-marker${edit ? ' editable' : ''}${drag?.deviceId === d.deviceId ? ' dragging' : ''}`}
                        style={{ left: `${at.x * 100}%`, top: `${at.y * 100}%` }}
                        onPointerDown={(e) => startDrag(d.deviceId, e)}
                        data-testid={`sketch-marker-${d.deviceId}`}
                        data-state={d.state}
                      >
                        <span className="gs-sketch-pin" style={{ background: STATE_COLORS[d.state] }} />
                      </div>
                    </Tooltip>
                  ))}
                  {size
                    ? markers.map(({ d, at }) => {
                        const l = labelAt.get(d.deviceId);
                        if (!l) return null;
                        const px = at.x * size.w;
                        const py = at.y * size.h;
                        const lx = Math.min(Math.max(px, l.x), l.x + l.w);
                        const ly = Math.min(Math.max(py, l.y), l.y + l.h);
                        return (
                          <div key={`l${d.deviceId}`}>
                            {l.displaced ? (
                              <svg className="gs-sketch-leader" width={size.w} height={size.h}>
                                <line
                                  x1={px}
                                  y1={py}
                                  x2={lx}
                                  y2={ly}
                                  stroke={STATE_COLORS[d.state]}
                                  strokeWidth={1.5}
                                />
                              </svg>
                            ) : null}
                            <span
                              className="gs-sketch-label"
                              data-testid={`sketch-label-${d.deviceId}`}
                              style={{ left: l.x, top: l.y, borderLeftColor: STATE_COLORS[d.state] }}
                            >
                              {d.deviceName} <b data-testid={`sketch-value-${d.deviceId}`}>{mainValue(d)}</b>
                            </span>
                          </div>
                        );
                      })
                    : null}
                </div>
              </div>
            </Card>
          </Col>
          <Col flex="280px">
            <Flex vertical gap={12}>
              <Card
                size="small"
                title={
                  <Flex gap={8} align="center">
                    {t('sketch.unplaced')}
                    <Tag>{unplaced.length}</Tag>
                  </Flex>
                }
                data-testid="sketch-unplaced"
              >
                {unplaced.length === 0 ? (
                  <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sketch.allPlaced')} />
                ) : (
                  <Flex vertical gap={6} style={{ maxHeight: 'calc(100vh - 520px)', minHeight: 80, overflowY: 'auto' }}>
                    {unplaced.map((d) => (
                      <div
                        key={d.deviceId}
                        className={`gs-sketch-side-item${edit ? ' editable' : ''}`}
                        onPointerDown={(e) => startDrag(d.deviceId, e)}
                        data-testid={`sketch-unplaced-${d.deviceId}`}
                      >
                        <StateDot state={d.state} />
                        <Flex vertical style={{ minWidth: 0, flex: 1 }}>
                          <Typography.Text ellipsis strong>
                            {d.deviceName}
                          </Typography.Text>
                          <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis>
                            {types.label(d.moduleId)} · {mainValue(d)}
                          </Typography.Text>
                        </Flex>
                      </div>
                    ))}
                  </Flex>
                )}
                {edit && unplaced.length > 0 ? (
                  <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0', fontSize: 12 }}>
                    {t('sketch.dragIn')}
                  </Typography.Paragraph>
                ) : null}
              </Card>
              <Card
                size="small"
                title={
                  <Flex gap={8} align="center">
                    {t('sketch.placed')}
                    <Tag>{placed.length}</Tag>
                  </Flex>
                }
              >
                <Flex vertical gap={4} style={{ maxHeight: 260, overflowY: 'auto' }}>
                  {placed.map((d) => (
                    <Flex key={d.deviceId} align="center" gap={8} justify="space-between">
                      <Flex align="center" gap={6} style={{ minWidth: 0 }}>
                        <StateDot state={d.state} />
                        <Typography.Text ellipsis>{d.deviceName}</Typography.Text>
                      </Flex>
                      {edit ? (
                        <Button
                          size="small"
                          type="text"
                          icon={<CloseOutlined />}
                          aria-label={t('sketch.remove')}
                          title={t('sketch.remove')}
                          onClick={() => save.mutate({ deviceId: d.deviceId, at: null })}
                          data-testid={`sketch-remove-${d.deviceId}`}
                        />
                      ) : (
                        <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
                          {mainValue(d)}
                        </Typography.Text>
                      )}
                    </Flex>
                  ))}
                  {placed.length === 0 ? <Typography.Text type="secondary">-</Typography.Text> : null}
                </Flex>
              </Card>
            </Flex>
          </Col>
        </Row>
      )}
    </div>
  );
}
