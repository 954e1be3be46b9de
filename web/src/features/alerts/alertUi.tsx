import { Tag } from 'antd';
import { CheckCircleOutlined, ClockCircleOutlined, EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../shared/time.ts';
import { ALERT_LEVEL_COLOURS, type AlertLevel, type AlertStatus } from '@geosentry/contract';

/** The colour of a level (spec §4): blue 0099FF, yellow FFCC33, orange FF6600, red CC0033. */
export const levelHex = (level: number): string =>
  ALERT_LEVEL_COLOURS[(level >= 1 && level <= 4 ? level : 1) as AlertLevel].hex;
/** Text on a level colour: dark on yellow, white elsewhere (readable at a glance). */
export const levelInk = (level: number): string => (level === 2 ? '#3b2e00' : '#ffffff');

/** A level colour for text on white: yellow is darkened so it stays readable. */
export const levelTextHex = (level: number): string => (level === 2 ? '#B07D00' : levelHex(level));

/** A solid chip in the level's colour: "L3 Orange". */
export function LevelTag({ level, compact = false }: { level: number; compact?: boolean }) {
  const { t } = useTranslation('alerts');
  return (
    <Tag
      data-testid="alert-level"
      data-level={level}
      style={{
        background: levelHex(level),
        color: levelInk(level),
        borderColor: levelHex(level),
        fontWeight: 600,
        marginInlineEnd: 0,
      }}
    >
      {compact ? t(`levels.${level}`) : `${t('levels.short', { level })} · ${t(`levels.${level}`)}`}
    </Tag>
  );
}

const STATUS_LOOK: Record<AlertStatus, { color: string; icon: React.ReactNode }> = {
  untreated: { color: 'error', icon: <ClockCircleOutlined /> },
  preProcess: { color: 'processing', icon: <EditOutlined /> },
  processed: { color: 'success', icon: <CheckCircleOutlined /> },
};

export function StatusTag({ status }: { status: AlertStatus }) {
  const { t } = useTranslation('alerts');
  const look = STATUS_LOOK[status];
  return (
    <Tag color={look.color} icon={look.icon} data-testid="alert-status" data-status={status}>
      {t(`status.${status}`)}
    </Tag>
  );
}

/** A time as shown in lists: local 'YYYY-MM-DD HH:mm:ss'. */
/** In the user's time zone (issue 14). */
export const fmtTime = (iso: string | null | undefined): string => formatTime(iso);

/** A number as shown: up to 3 decimals, '-' when missing. */
export const fmtNum = (v: number | null | undefined): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '-' : String(Math.round(v * 1000) / 1000);
