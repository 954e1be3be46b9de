import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Badge, Button, Flex, Tooltip, notification } from 'antd';
import { BellOutlined, MutedOutlined, SoundOutlined } from '@ant-design/icons';
import { MONITOR_TYPES, type AlertSocketMessage, type Language } from '@geosentry/contract';
import { onSocketMessage, useSocketConnected } from '../../shared/socket.ts';
import { hasPermission, useSession } from '../../shared/session.ts';
import { alertKeys, fetchAlertCounts } from './alertsApi.ts';
import { fmtNum, fmtTime, levelHex, levelInk } from './alertUi.tsx';
import { useValueTypeText } from './valueTypes.ts';

const SOUND_KEY = 'alertSound';
const soundKey = (): string => `${SOUND_KEY}:${localStorage.getItem('userName') ?? ''}`;
const readSound = (): boolean => localStorage.getItem(soundKey()) === '1';

/** A quantity's label in a language (the message carries only its key): the first monitor type that has it. */
function quantityLabel(key: string, lang: Language): string {
  for (const m of MONITOR_TYPES) {
    const q = m.quantities.find((x) => x.key === key);
    if (q) return q.unit ? `${q.label[lang]} (${q.unit})` : q.label[lang];
  }
  return key;
}

const isAlertMessage = (m: unknown): m is AlertSocketMessage =>
  typeof m === 'object' &&
  m !== null &&
  (m as { type?: unknown }).type === 'alert' &&
  typeof (m as { alertId?: unknown }).alertId === 'number';
const isStatusMessage = (m: unknown): boolean =>
  typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'alertStatus';

/**
 * A short tone per level (higher and more beeps for higher levels). The AudioContext is only created after a user
 * gesture (the toggle, or the first click anywhere once the toggle is on), so browsers never block or complain.
 */
function useAlertSound(enabled: boolean) {
  const ctx = useRef<AudioContext | null>(null);
  const ensure = useCallback((): AudioContext | null => {
    try {
      if (!ctx.current) {
        const AC =
          window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
        if (!AC) return null;
        ctx.current = new AC();
      }
      if (ctx.current.state === 'suspended') void ctx.current.resume().catch(() => undefined);
      return ctx.current;
    } catch {
      return null;
    }
  }, []);
  useEffect(() => {
    if (!enabled || ctx.current) return;
    const unlock = () => ensure();
    window.addEventListener('pointerdown', unlock, { once: true });
    window.addEventListener('keydown', unlock, { once: true });
    return () => {
      window.removeEventListener('pointerdown', unlock);
      window.removeEventListener('keydown', unlock);
    };
  }, [enabled, ensure]);
  const play = useCallback(
    (level: number) => {
      const ac = ctx.current;
      if (!enabled || !ac || ac.state !== 'running') return;
      try {
        const beeps = Math.max(1, Math.min(4, level));
        const freq = 520 + level * 120;
        for (let i = 0; i < beeps; i++) {
          const start = ac.currentTime + i * 0.22;
          const osc = ac.createOscillator();
          const gain = ac.createGain();
          osc.frequency.value = freq;
          gain.gain.setValueAtTime(0.0001, start);
          gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
          gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.18);
          osc.connect(gain).connect(ac.destination);
          osc.start(start);
          osc.stop(start + 0.2);
        }
      } catch {
        /* no sound: the pop-up is enough */
      }
    },
    [enabled],
  );
  return { ensure, play };
}

/**
 * The console-wide alert pop-up (mounted in the header): listens to every site the user may see (the server sends
 * only those), shows each new or escalated alert as a notification in the level's colour with site, device, value
 * and a link to the alert, refreshes open alert lists and counts, and optionally beeps (a per-user toggle).
 */
export function AlertPopup() {
  const { t, i18n } = useTranslation('alerts');
  const lang: Language = i18n.language === 'zh' || i18n.language === 'ko' ? i18n.language : 'en';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const canOpen = hasPermission('alert-predict:alert', session);
  const [api, holder] = notification.useNotification({ stack: { threshold: 4 }, maxCount: 6 });
  const [sound, setSound] = useState(readSound);
  const { ensure, play } = useAlertSound(sound);
  const typeText = useValueTypeText();
  const counts = useQuery({
    queryKey: alertKeys.counts,
    queryFn: fetchAlertCounts,
    retry: false,
    staleTime: 30_000,
    refetchInterval: 120_000,
  });

  // The server sends alerts to every console whose user may see the site, without a site subscription.
  const connected = useSocketConnected();

  const show = useCallback(
    (m: AlertSocketMessage) => {
      const level = m.level;
      const colour = levelHex(level);
      const key = `alert-${m.alertId}`;
      const headline =
        m.kind === 'escalated'
          ? t('popup.escalated', { level: t(`levels.${level}`) })
          : m.kind === 'offline'
            ? t('popup.offline')
            : t('popup.raised', { level: t(`levels.${level}`) });
      api.open({
        key,
        duration: level >= 3 ? 0 : 15,
        style: { borderLeft: `8px solid ${colour}`, padding: '14px 18px' },
        title: (
          <Flex gap={8} align="center" data-testid="alert-popup-title">
            <span
              style={{
                background: colour,
                color: levelInk(level),
                borderRadius: 4,
                padding: '0 8px',
                fontWeight: 700,
                fontSize: 13,
              }}
            >
              {t('levels.short', { level })} · {t(`levels.${level}`)}
            </span>
            <span>{headline}</span>
          </Flex>
        ),
        description: (
          <Flex vertical gap={2} data-testid="alert-popup" data-alert-id={m.alertId} data-level={level}>
            <strong>{m.platformName}</strong>
            <span>
              {m.deviceName}
              {m.quantity ? ` · ${quantityLabel(m.quantity, lang)}` : ''}
            </span>
            {m.valueType === 'offline' ? null : (
              <span>
                {typeText(m.valueType)}: <strong style={{ color: colour }}>{fmtNum(m.value)}</strong>
                {m.threshold !== null ? ` (${t('list.threshold', { value: fmtNum(m.threshold) })})` : ''}
              </span>
            )}
            <span className="gs-muted" style={{ fontSize: 12 }}>
              {fmtTime(m.at)}
            </span>
          </Flex>
        ),
        actions: canOpen ? (
          <Button
            type="primary"
            size="small"
            data-testid="alert-popup-open"
            onClick={() => {
              api.destroy(key);
              void navigate(`/alert/alert?id=${m.alertId}`);
            }}
          >
            {t('popup.open')}
          </Button>
        ) : undefined,
      });
      play(level);
    },
    [api, canOpen, navigate, play, t, typeText, lang],
  );

  useEffect(
    () =>
      onSocketMessage((m) => {
        if (isAlertMessage(m)) {
          show(m);
          void queryClient.invalidateQueries({ queryKey: alertKeys.all });
        } else if (isStatusMessage(m)) void queryClient.invalidateQueries({ queryKey: alertKeys.all });
      }),
    [show, queryClient],
  );

  const toggleSound = () => {
    const next = !sound;
    localStorage.setItem(soundKey(), next ? '1' : '0');
    if (next) ensure();
    setSound(next);
  };

  const open = counts.data?.openTotal ?? 0;
  const top = counts.data
    ? ([4, 3, 2, 1] as const).find((l) => (counts.data.open[String(l) as '1'] ?? 0) > 0)
    : undefined;
  return (
    <>
      {holder}
      <Tooltip title={t('popup.openCount', { count: open })}>
        <Badge count={open} overflowCount={99} size="small" offset={[-6, 6]} color={top ? levelHex(top) : undefined}>
          <Button
            type="text"
            className="gs-header-action"
            data-testid="alert-bell"
            data-live={connected ? '1' : '0'}
            aria-label={t('popup.openCount', { count: open })}
            icon={<BellOutlined />}
            onClick={() => canOpen && void navigate('/alert/alert')}
          />
        </Badge>
      </Tooltip>
      <Tooltip title={sound ? t('popup.soundOn') : t('popup.soundOff')}>
        <Button
          type="text"
          className="gs-header-action"
          data-testid="alert-sound"
          data-on={sound ? '1' : '0'}
          aria-label={sound ? t('popup.soundOn') : t('popup.soundOff')}
          icon={sound ? <SoundOutlined /> : <MutedOutlined />}
          onClick={toggleSound}
        />
      </Tooltip>
    </>
  );
}
