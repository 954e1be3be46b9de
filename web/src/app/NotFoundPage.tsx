import { useEffect, type ReactElement } from 'react';
import { Button, Result } from 'antd';
import { HomeOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useBranding } from '../shared/public-config.ts';
import { ConsoleProviders } from './ConsoleProviders.tsx';

/** /404: unknown paths and screens the user may not open land here. */
export function NotFoundPage(): ReactElement {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  const { systemTitle } = useBranding();
  useEffect(() => {
    document.title = `${systemTitle} - ${t('notFound.title')}`;
  }, [systemTitle, t]);
  return (
    <ConsoleProviders>
      <div className="gs-not-found" data-testid="not-found">
        <Result
          status="404"
          title="404"
          subTitle={t('notFound.subtitle')}
          extra={
            <Button
              type="primary"
              icon={<HomeOutlined />}
              onClick={() => void navigate('/', { replace: true })}
              data-testid="not-found-home"
            >
              {t('notFound.backHome')}
            </Button>
          }
        />
      </div>
    </ConsoleProviders>
  );
}
