import { useMemo, useState, type ReactElement } from 'react';
import { App, Avatar, Button, Card, Col, Descriptions, Flex, Row, Select, Tag, Typography } from 'antd';
import { GlobalOutlined, KeyOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { roleLabel } from '../../shared/labels.ts';
import { storeUserInfo, useSession } from '../../shared/session.ts';
import { allTimeZones, browserTimeZone, userTimeZone, zoneLabel } from '../../shared/time.ts';
import { fetchUserInfo, updateUserInfo, USER_INFO_KEY } from './api.ts';
import { ChangePasswordForm } from './ChangePasswordForm.tsx';

/**
 * The user's own time zone: a searchable list of IANA zones labelled with their offset, saved at once; every
 * screen then computes and shows times in it.
 */
function TimeZoneSetting(): ReactElement {
  const { t } = useTranslation('session');
  const { message } = App.useApp();
  const qc = useQueryClient();
  useSession(); // re-render when the saved zone comes back
  const [saving, setSaving] = useState(false);
  const zone = userTimeZone();
  const browser = browserTimeZone();
  const options = useMemo(() => {
    const now = Date.now();
    const all = allTimeZones();
    // A zone saved under another name (a link such as Asia/Calcutta) is listed as it is saved.
    return (all.includes(zone) ? all : [zone, ...all]).map((z) => ({ value: z, label: zoneLabel(z, now) }));
  }, [zone]);
  const save = async (timeZone: string) => {
    setSaving(true);
    try {
      await updateUserInfo({ timeZone }, true);
      const info = await fetchUserInfo();
      qc.setQueryData(USER_INFO_KEY, info);
      storeUserInfo(info);
      void message.success(t('userInfo.timeZoneSaved'));
    } catch (e) {
      void message.error((e as Error).message);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Flex vertical gap={4}>
      <Select
        id="userinfo-timezone"
        data-testid="userinfo-timezone"
        style={{ width: '100%', maxWidth: 340 }}
        showSearch={{
          filterOption: (input, option) =>
            String(option?.label ?? '')
              .toLowerCase()
              .includes(input.trim().toLowerCase()),
        }}
        placeholder={t('userInfo.timeZoneSearch')}
        aria-label={t('userInfo.timeZone')}
        value={zone}
        loading={saving}
        disabled={saving}
        options={options}
        onChange={(z: string) => void save(z)}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('userInfo.timeZoneHint')}
      </Typography.Text>
      {zone !== browser ? (
        <Button
          type="link"
          size="small"
          style={{ padding: 0, alignSelf: 'flex-start' }}
          data-testid="userinfo-timezone-browser"
          onClick={() => void save(browser)}
        >
          {t('userInfo.useBrowserZone', { zone: zoneLabel(browser) })}
        </Button>
      ) : null}
    </Flex>
  );
}

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
                  <Tag color="geekblue">{info ? roleLabel(info.role) : null}</Tag>
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
                { key: 'role', label: t('userInfo.role'), children: info ? roleLabel(info.role) : empty },
                { key: 'phone', label: t('userInfo.phone'), children: user?.phone || empty },
                { key: 'email', label: t('userInfo.email'), children: user?.email || empty },
                { key: 'area', label: t('userInfo.area'), children: user?.area || empty },
                { key: 'scope', label: t('userInfo.scope'), children: scope, span: 'filled' },
                { key: 'timeZone', label: t('userInfo.timeZone'), children: <TimeZoneSetting />, span: 'filled' },
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
