import type { ReactElement } from 'react';
import { Button, Tooltip } from 'antd';
import { FundProjectionScreenOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { BIG_SCREEN_COMMON_PERMISSION } from '@geosentry/contract';
import { hasPermission, useSession } from '../../shared/session.ts';

/**
 * The top bar's big-screen icon (spec §2; shown to holders of digitalGallery): opens the variant the user may see
 * (/digitalGallery with digitalGallery:common, else /digitalGallery-xqh) in a new tab, for the wall or a second
 * screen. The new tab shares the session (local storage).
 */
export function BigScreenLink(): ReactElement {
  const { t } = useTranslation('common');
  const session = useSession();
  const path = hasPermission(BIG_SCREEN_COMMON_PERMISSION, session) ? '/digitalGallery' : '/digitalGallery-xqh';
  const href = `${window.location.pathname}${window.location.search}#${path}`;
  return (
    <Tooltip title={t('header.bigScreen')}>
      <Button
        type="text"
        icon={<FundProjectionScreenOutlined />}
        aria-label={t('header.bigScreen')}
        data-testid="big-screen-link"
        data-path={path}
        className="gs-header-action"
        href={href}
        target="_blank"
        rel="noopener"
      />
    </Tooltip>
  );
}
