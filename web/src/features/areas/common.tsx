import { useTranslation } from 'react-i18next';
import { Tag } from 'antd';
import { ALERT_LEVEL_COLOURS, type AlertLevel } from '@geosentry/contract';

export const NORMAL_COLOUR = '#52c41a';
export const levelColour = (level: number): string =>
  level >= 1 && level <= 4 ? ALERT_LEVEL_COLOURS[level as AlertLevel].hex : NORMAL_COLOUR;

/** An area's or device's level as a coloured tag (normal, blue, yellow, orange, red). */
export function LevelTag({ level }: { level: number }) {
  const { t } = useTranslation('areas');
  return (
    <Tag
      color={levelColour(level)}
      style={{ color: level === 2 ? '#4a3b00' : '#fff', marginInlineEnd: 0 }}
      data-level={level}
    >
      {t(`level.${level}`)}
    </Tag>
  );
}
