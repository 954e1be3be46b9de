import type { ReactElement } from 'react';
import { Avatar, Card, Col, Descriptions, Row, Tag, Typography } from 'antd';
import { GlobalOutlined, KeyOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../shared/session.ts';
import { fetchUserInfo, USER_INFO_KEY } from './api.ts';
import { ChangePasswordForm } from './ChangePasswordForm.tsx';

/** The signed-in user's details and the password change form (hidden route /userinfo). */
export function UserInfoPage(): ReactElement {
  const { t } = useTranslation('session');
  const session = useSession();
  const q = useQuery({ queryKey: USER_INFO_KEY, queryFn: fetchUserInfo, staleTime: 30_000 });
  const info = q.data ?? session.userInfo;
  const user = info?.user;
  const empty = <Typography.Text type="secondary">{t('userInfo.notSet')}</Typography.Text>;
  const scope = !user ? (
    empty
  ) : user.scopeAll ? (
    <Tag color="blue" icon={<GlobalOutlined />}>
      {t('userInfo.scopeAll')}
    </Tag>
  ) : (
    <Tag>{t('userInfo.scopeSites', { count: user.platformIds.length })}</Tag>
  );

  return (
    <div className="gs-page" data-testid="userinfo-page">
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Card
            title={
              <span className="gs-card-title">
                <UserOutlined /> {t('userInfo.title')}
              </span>
            }
            loading={!info}
          >
            <div className="gs-profile-head">
              <Avatar size={56} className="gs-profile-avatar">
                {(user?.name || user?.account || '?').slice(0, 1).toUpperCase()}
              </Avatar>
              <div>
                <div className="gs-profile-name">{user?.name}</div>
                <div className="gs-profile-role">
                  <Tag color="geekblue">{info?.role.name}</Tag>
                </div>
              </div>
            </div>
            <Descriptions
              column={{ xs: 1, sm: 1, md: 2 }}
              bordered
              size="small"
              items={[
                {
                  key: 'account',
                  label: t('userInfo.account'),
                  children: <span data-testid="userinfo-account">{user?.account}</span>,
                },
                { key: 'name', label: t('userInfo.name'), children: user?.name || empty },
                { key: 'role', label: t('userInfo.role'), children: info?.role.name ?? empty },
                { key: 'phone', label: t('userInfo.phone'), children: user?.phone || empty },
                { key: 'email', label: t('userInfo.email'), children: user?.email || empty },
                { key: 'area', label: t('userInfo.area'), children: user?.area || empty },
                { key: 'scope', label: t('userInfo.scope'), children: scope, span: 'filled' },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card
            title={
              <span className="gs-card-title">
                <KeyOutlined /> {t('password.title')}
              </span>
            }
          >
            <Typography.Paragraph type="secondary">{t('password.hint')}</Typography.Paragraph>
            <ChangePasswordForm account={user?.account ?? session.userName ?? ''} />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
