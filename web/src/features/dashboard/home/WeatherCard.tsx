import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { formatValue } from '../../../shared/format.ts';
import { formatInZone } from '../../../shared/time.ts';
import { useTimeZone } from '../../../shared/useTimeZone.ts';
import { useWeather } from './homeApi.ts';

/** Spec §7: the logged-in weather widget is 350×140. */
const PROVIDER_SIZE = { width: 350, height: 140 };

const value = (v: number | null, unit: string): string => (v === null ? '--' : `${formatValue(v, 1)} ${unit}`);

/**
 * The weather of a site (the one picked on the map, else the first of the page's sites): a configured provider's
 * widget in a frame of the spec's size, else the site's own sensors (spec §4: the wind direction is '--' when the
 * wind speed is 0). Test hook: home-weather.
 */
export function WeatherCard({
  platformId,
  enabled,
}: {
  platformId: number | undefined;
  enabled: boolean;
}): ReactElement {
  const { t } = useTranslation();
  const { zone } = useTimeZone();
  const w = useWeather(platformId, enabled).data;
  const compass = w?.windCompass ? t(`home:compass.${w.windCompass}`) : '--';
  const rows: [string, string][] = w
    ? [
        [t('home:weather.temperature'), value(w.temperature, '°C')],
        [t('home:weather.humidity'), value(w.humidity, '%')],
        [t('home:weather.rain1h'), value(w.rain1h, 'mm')],
        [t('home:weather.rain24h'), value(w.rain24h, 'mm')],
        [t('home:weather.wind'), w.windSpeed === null ? '--' : `${value(w.windSpeed, 'm/s')} · ${compass}`],
      ]
    : [];
  const none = w && [w.temperature, w.humidity, w.rain1h, w.rain24h, w.windSpeed].every((v) => v === null);

  return (
    <section className="gs-hc-card gs-hw" data-testid="home-weather">
      <header className="gs-hc-head">
        <h2>{t('home:weather.title')}</h2>
        {w?.platformName ? <span className="gs-hc-note">{w.platformName}</span> : null}
      </header>
      {!w ? (
        <p className="gs-hc-empty">{enabled ? t('home:weather.loading') : t('home:weather.noSite')}</p>
      ) : w.providerUrl ? (
        <iframe
          title={t('home:weather.title')}
          src={w.providerUrl}
          width={PROVIDER_SIZE.width}
          height={PROVIDER_SIZE.height}
          className="gs-hw-frame"
          sandbox="allow-scripts allow-same-origin allow-popups"
          referrerPolicy="no-referrer"
          loading="lazy"
        />
      ) : none ? (
        <p className="gs-hc-empty">{t('home:weather.noSensors')}</p>
      ) : (
        <>
          <dl className="gs-hw-values">
            {rows.map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
          {w.at ? (
            <p className="gs-hc-note">{t('home:weather.at', { time: formatInZone(w.at, zone, 'MM-DD HH:mm') })}</p>
          ) : null}
        </>
      )}
    </section>
  );
}
