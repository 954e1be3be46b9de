import { lazy, Suspense, type ReactElement } from 'react';
import { Button, Popover } from 'antd';
import { MobileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { usePublicConfig } from '../../shared/public-config.ts';

// The QR code (its encoder is the larger part) loads when the popover first opens, not with every console page.
const QRCode = lazy(() => import('antd/es/qr-code'));

/**
 * Shown to holders of permission appDownload. The code carries the deployment's app download link (APP_DOWNLOAD_URL,
 * in the public config); without one it opens this console on a phone, and says so.
 */
export function AppDownload(): ReactElement {
  const { t } = useTranslation('common');
  const configured = usePublicConfig()?.appDownloadUrl ?? '';
  const url = configured || `${window.location.origin}${window.location.pathname}`;
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={t('appDownload.title')}
      content={
        <div className="gs-app-download" data-testid="app-download-popover" data-url={url}>
          <Suspense fallback={<div className="gs-app-download-qr-wait" />}>
            <QRCode value={url} size={132} bordered={false} />
          </Suspense>
          <p className="gs-muted gs-app-download-note">
            {configured ? t('appDownload.noteApp') : t('appDownload.note')}
          </p>
        </div>
      }
    >
      <Button
        type="text"
        icon={<MobileOutlined />}
        aria-label={t('appDownload.title')}
        data-testid="app-download"
        className="gs-header-action"
      />
    </Popover>
  );
}
