import type { ReactElement, ReactNode } from 'react';
import type { Weather } from '@geosentry/contract';
import { useBranding } from '../../../shared/public-config.ts';
import { formatInZone, userTimeZone } from '../../../shared/time.ts';
import { Clock, WeatherBox } from './widgets.tsx';
import type { Words } from './words.ts';

/** The stage's top: the clock (left), the system title and the screen's name (centre), the weather (right). */
export function Header({
  subtitle,
  weather,
  connected,
  updatedAt,
  words,
}: {
  subtitle: ReactNode;
  weather: Weather | undefined;
  connected: boolean;
  updatedAt: number;
  words: Words;
}): ReactElement {
  const branding = useBranding();
  const { t } = words;
  return (
    <header className="bs-header">
      <div className="bs-header-left">
        <Clock words={words} />
      </div>
      <div className="bs-header-centre">
        <h1 data-testid="big-screen-title">{branding.systemTitle}</h1>
        <div className="bs-subtitle">
          {subtitle}
          <span
            className={connected ? 'bs-conn bs-conn-on' : 'bs-conn'}
            data-testid="big-screen-connection"
            data-connected={connected ? 'true' : 'false'}
          >
            <i />
            {connected ? t('live') : t('reconnecting')}
          </span>
          {updatedAt ? (
            <span className="bs-updated" data-testid="big-screen-updated" data-at={updatedAt}>
              {t('updated', { time: formatInZone(updatedAt, userTimeZone(), 'HH:mm:ss') })}
            </span>
          ) : null}
        </div>
      </div>
      <div className="bs-header-right">
        <WeatherBox weather={weather} words={words} />
      </div>
    </header>
  );
}
