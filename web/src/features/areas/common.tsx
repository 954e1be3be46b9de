import { useTranslation } from 'react-i18next';
import { ALERT_LEVEL_COLOURS, type AlertLevel } from '@geosentry/contract';

export const NORMAL_COLOUR = '#52c41a';
export const levelColour = (level: number): string =>
  level >= 1 && level <= 4 ? ALERT_LEVEL_COLOURS[level as AlertLevel].hex : NORMAL_COLOUR;

/** An area's or device's level as a coloured tag (normal, blue, yellow, orange, red). */
export function LevelTag({ level }: { level: number }) {
  const { t } = useTranslation('areas');
  return (
    <span
      className="gs-level-tag"
      style={{
        display: 'inline-block',
        background: levelColour(level),
        color: level === 2 ? '#4a3b00' : '#fff',
        borderRadius: 4,
        padding: '0 8px',
        fontSize: 12,
        lineHeight: '20px',
        whiteSpace: 'nowrap',
      }}
      data-level={level}
    >
      {t(`level.${level}`)}
    </span>
  );
}
