import type { ReactElement } from 'react';
import { Avatar, Dropdown } from 'antd';
import { DownOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { endSessionLocally, markLogout, useSession } from '../../shared/session.ts';
import { stopSessionSocket } from '../../shared/socket.ts';
import { logout } from '../../features/session/index.ts';

/**
 * The user menu: User info and Logout (logout calls the server, clears storage, goes to /login).
 * Test hooks: [data-testid="user-menu"], then [data-testid="user-menu-info"], [data-testid="user-menu-logout"].
 */
export function UserMenu(): ReactElement {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { userInfo, userName } = useSession();
  const name = userInfo?.user.name || userName || '';

  const doLogout = async (): Promise<void> => {
    stopSessionSocket();
    await logout();
    markLogout();
    endSessionLocally();
    queryClient.clear();
    void navigate('/login', { replace: true });
  };

  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      menu={{
        items: [
          { key: 'info', icon: <UserOutlined />, label: <span data-testid="user-menu-info">{t('user.info')}</span> },
          { type: 'divider' },
          {
            key: 'logout',
            icon: <LogoutOutlined />,
            danger: true,
            label: <span data-testid="user-menu-logout">{t('user.logout')}</span>,
          },
        ],
        onClick: ({ key }) => {
          if (key === 'info') void navigate('/userinfo');
          else void doLogout();
        },
      }}
    >
      <button type="button" className="gs-user" data-testid="user-menu" aria-label={t('user.menu')}>
        <Avatar size={28} className="gs-user-avatar">
          {name.slice(0, 1).toUpperCase() || <UserOutlined />}
        </Avatar>
        <span className="gs-user-name">{name}</span>
        <DownOutlined className="gs-user-caret" />
      </button>
    </Dropdown>
  );
}
