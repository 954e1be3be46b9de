import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Flex, Input, InputNumber, Modal, Space, Typography, theme } from 'antd';
import { AimOutlined } from '@ant-design/icons';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { POINT_ZOOM } from './tiles.ts';
import { createMap } from './base.ts';
import { useMapConfig } from './config.ts';
import {
  LAT_MAX,
  LAT_MIN,
  LON_MAX,
  LON_MIN,
  formatLatLon,
  isLat,
  isLatLon,
  isLon,
  parseLatLon,
  round6,
  type LatLon,
} from './coords.ts';

export interface MapPickerProps {
  open: boolean;
  /** The point to start from (may be incomplete or missing). */
  value?: Partial<LatLon> | null | undefined;
  title?: ReactNode;
  /** An XYZ tile template overriding the configured one (see tiles.ts). */
  tileUrl?: string;
  onCancel: () => void;
  onOk: (point: LatLon) => void;
}

/**
 * The dialog of MapPicker (MapPicker.tsx loads it, with Leaflet, when it first opens).
 * Picks a point on a Leaflet map in a modal: click the map, type latitude and longitude, or paste a
 * 'lat, lon' pair. Tiles come from a configurable XYZ source; under them a locally drawn coordinate grid
 * keeps the map usable when tiles cannot be loaded (no internet). The marker and the coordinates always show.
 * Texts: namespace 'platforms', keys map.*. Test hooks: [data-testid="map-picker"], "map-picker-canvas",
 * "map-picker-paste", "map-picker-ok"; inputs #map-picker-lat, #map-picker-lon.
 */
export function MapPickerDialog({ open, value, title, tileUrl: tileOverride, onCancel, onOk }: MapPickerProps) {
  const { t } = useTranslation('platforms');
  const { token } = theme.useToken();
  const [point, setPoint] = useState<LatLon | null>(null);
  const [lat, setLat] = useState<number | null>(null);
  const [lon, setLon] = useState<number | null>(null);
  const [paste, setPaste] = useState('');
  const [pasteError, setPasteError] = useState(false);
  const [tilesFailed, setTilesFailed] = useState(false);
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const mapRef = useRef<L.Map | null>(null);
  const markerRef = useRef<L.CircleMarker | null>(null);

  // Each opening starts from the given value.
  useEffect(() => {
    if (!open) return;
    const start = isLatLon(value) ? { lat: round6(value.lat), lon: round6(value.lon) } : null;
    setPoint(start);
    setLat(isLat(value?.lat) ? value.lat : null);
    setLon(isLon(value?.lon) ? value.lon : null);
    setPaste('');
    setPasteError(false);
    setTilesFailed(false);
    // Only when opened: later changes of the value come from this picker itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const place = useCallback((p: LatLon, pan: boolean) => {
    const q = { lat: round6(p.lat), lon: round6(p.lon) };
    setPoint(q);
    setLat(q.lat);
    setLon(q.lon);
    if (pan && mapRef.current) mapRef.current.setView([q.lat, q.lon], Math.max(mapRef.current.getZoom(), POINT_ZOOM));
  }, []);

  // The map lives while its container is shown; it waits for the configured map (its CRS is fixed at creation).
  const mapConfig = useMapConfig();
  useEffect(() => {
    if (!el || !mapConfig) return;
    const start = isLatLon(value) ? value : null;
    const map = createMap(el, mapConfig, {
      ...(start ? { center: [start.lat, start.lon] as L.LatLngExpression, zoom: POINT_ZOOM } : {}),
      attributionControl: true,
      tileUrl: tileOverride,
      onTilesFailed: setTilesFailed,
    });
    L.control.scale({ imperial: false }).addTo(map);
    map.on('click', (e: L.LeafletMouseEvent) => {
      const ll = e.latlng.wrap();
      place({ lat: ll.lat, lon: ll.lng }, false);
    });
    mapRef.current = map;
    // The modal may still be animating: measure again once it has settled.
    const timer = window.setTimeout(() => map.invalidateSize(), 300);
    return () => {
      window.clearTimeout(timer);
      map.remove();
      mapRef.current = null;
      markerRef.current = null;
    };
    // The map is built once per container; the value is read at that moment.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [el, tileOverride, place, mapConfig]);

  // The marker follows the point.
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    if (!point) {
      markerRef.current?.remove();
      markerRef.current = null;
      return;
    }
    const ll: L.LatLngExpression = [point.lat, point.lon];
    if (!markerRef.current) {
      markerRef.current = L.circleMarker(ll, {
        radius: 9,
        color: '#ffffff',
        weight: 3,
        fillColor: token.colorPrimary,
        fillOpacity: 1,
      })
        .bindTooltip('', { permanent: true, direction: 'top', offset: [0, -10] })
        .addTo(map);
    } else markerRef.current.setLatLng(ll);
    markerRef.current.setTooltipContent(formatLatLon(point));
  }, [point, el, token.colorPrimary, mapConfig]);

  const onTyped = (nextLat: number | null, nextLon: number | null) => {
    setLat(nextLat);
    setLon(nextLon);
    if (isLat(nextLat) && isLon(nextLon)) place({ lat: nextLat, lon: nextLon }, true);
  };

  const applyPaste = () => {
    const p = parseLatLon(paste);
    setPasteError(p === null);
    if (p) {
      place(p, true);
      setPaste('');
    }
  };

  return (
    <Modal
      open={open}
      width={860}
      title={title ?? t('map.title')}
      onCancel={onCancel}
      destroyOnHidden
      afterOpenChange={(o) => (o ? mapRef.current?.invalidateSize() : undefined)}
      okText={t('map.ok')}
      cancelText={t('map.cancel')}
      okButtonProps={{ disabled: !point, 'data-testid': 'map-picker-ok' }}
      onOk={() => (point ? onOk(point) : undefined)}
    >
      <Flex vertical gap={12} data-testid="map-picker">
        <Flex gap={12} wrap align="flex-start">
          <Space.Compact style={{ flex: 1, minWidth: 280 }}>
            <Input
              id="map-picker-paste"
              data-testid="map-picker-paste"
              allowClear
              status={pasteError ? 'error' : undefined}
              placeholder={t('map.pastePlaceholder')}
              value={paste}
              onChange={(e) => {
                setPaste(e.target.value);
                setPasteError(false);
              }}
              onPressEnter={applyPaste}
            />
            <Button onClick={applyPaste} disabled={!paste.trim()}>
              {t('map.apply')}
            </Button>
          </Space.Compact>
          <InputNumber<number>
            id="map-picker-lat"
            style={{ width: 170 }}
            prefix={t('map.lat')}
            min={LAT_MIN}
            max={LAT_MAX}
            step={0.000001}
            precision={6}
            value={lat}
            onChange={(v) => onTyped(v, lon)}
          />
          <InputNumber<number>
            id="map-picker-lon"
            style={{ width: 180 }}
            prefix={t('map.lon')}
            min={LON_MIN}
            max={LON_MAX}
            step={0.000001}
            precision={6}
            value={lon}
            onChange={(v) => onTyped(lat, v)}
          />
        </Flex>
        {pasteError ? (
          <Typography.Text type="danger" data-testid="map-picker-paste-error">
            {t('map.formatError')}
          </Typography.Text>
        ) : null}
        {tilesFailed ? (
          <Alert type="info" showIcon title={t('map.tilesFailed')} data-testid="map-picker-offline" />
        ) : null}
        <div
          ref={setEl}
          data-testid="map-picker-canvas"
          style={{
            height: 420,
            borderRadius: token.borderRadiusLG,
            border: `1px solid ${token.colorBorderSecondary}`,
            overflow: 'hidden',
            background: '#eef3f8',
            cursor: 'crosshair',
          }}
        />
        <Flex justify="space-between" align="center" gap={12} wrap>
          <Typography.Text type="secondary">
            <AimOutlined /> {t('map.hint')}
          </Typography.Text>
          <Typography.Text strong data-testid="map-picker-value">
            {point ? t('map.selected', { value: formatLatLon(point) }) : t('map.none')}
          </Typography.Text>
        </Flex>
      </Flex>
    </Modal>
  );
}
