import { useMemo, type ReactElement } from 'react';
import { Avatar, Tag } from 'antd';
import { CalendarOutlined, DatabaseOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { roleLabel } from '../../shared/labels.ts';
import { hasPermission, useSession } from '../../shared/session.ts';
import { titleNoun } from '../../shared/wording.ts';
import { hourInZone, instantToWall } from '../../shared/time.ts';
import { useTimeZone } from '../../shared/useTimeZone.ts';
import { siteKinds } from './site-kinds.tsx';
import { SiteCounts } from './SiteCounts.tsx';
import { ScreenLinks } from './ScreenLinks.tsx';
import './home.css';

function greetingKey(hour: number): string {
  if (hour < 5) return 'home:welcome.evening';
  if (hour < 12) return 'home:welcome.morning';
  if (hour < 18) return 'home:welcome.afternoon';
  return 'home:welcome.evening';
}

/**
 * Home (role index): who is signed in, how many sites of each kind they can see (only kinds they
 * hold the permission for), and shortcuts to the screens they may open. Real data only.
 */
export function HomePage(): ReactElement {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const info = session.userInfo;
  const user = info?.user;
  const name = user?.name || user?.account || session.userName || '';
  const kinds = useMemo(() => siteKinds().filter((k) => hasPermission(k.permission, session)), [session]);
  // Today's date and the greeting follow the user's zone, not the browser's.
  const { zone } = useTimeZone();
  const now = Date.now();
  const today = instantToWall(now, zone)
    .locale(i18n.language === 'zh' ? 'zh-cn' : i18n.language)
    .format(t('home:welcome.dateFormat'));

  return (
    <div className="gs-page gs-home" data-testid="home-page">
      <section className="gs-home-hero">
        <Avatar size={64} className="gs-home-avatar">
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
        <div className="gs-home-hero-text">
          <div className="gs-home-eyebrow">{t('home:heading', { noun: t(titleNoun()) })}</div>
          <h1 className="gs-home-greeting" data-testid="home-greeting">
            {t(greetingKey(hourInZone(now, zone)), { name })}
          </h1>
          <div className="gs-home-meta">
            {info ? (
              <Tag icon={<SafetyCertificateOutlined />} color="blue" data-testid="home-role">
                {roleLabel(info.role)}
              </Tag>
            ) : null}
            {user ? (
              <span>
                <DatabaseOutlined />{' '}
                {user.scopeAll
                  ? t('home:welcome.scopeAll')
                  : t('home:welcome.scopeSites', { count: user.platformIds.length })}
              </span>
            ) : null}
            <span>
              <CalendarOutlined /> {today}
            </span>
          </div>
        </div>
      </section>
      <SiteCounts kinds={kinds} />
      <ScreenLinks />
    </div>
  );
}
