import type { ReactElement } from 'react';
import { Button, Tooltip } from 'antd';
import { BoxPlotOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { THREE_D_HIDDEN_TYPES } from '@geosentry/contract';
import { hasPermission, useSession } from '../../shared/session.ts';

/**
 * The top bar's 3D icon (spec §2): shown to holders of threeDimensional:show, absent for the bridge and sideslope
 * platform types. Opens /dimensional/3D; carries no three.js (that loads with the screen).
 */
export function ThreeDLink(): ReactElement | null {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  const session = useSession();
  if (!hasPermission('threeDimensional:show', session)) return null;
  if (session.platformType && (THREE_D_HIDDEN_TYPES as readonly string[]).includes(session.platformType)) return null;
  return (
    <Tooltip title={t('header.threeD')}>
      <Button
        type="text"
        icon={<BoxPlotOutlined />}
        aria-label={t('header.threeD')}
        data-testid="three-d-link"
        className="gs-header-action"
        onClick={() => navigate('/dimensional/3D')}
      />
    </Tooltip>
  );
}
