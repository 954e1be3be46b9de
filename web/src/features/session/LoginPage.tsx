import { useCallback, useEffect, useRef, useState, type ReactElement } from 'react';
import { App as AntdApp, Alert, Button, Form, Input, Modal, Skeleton, Tooltip } from 'antd';
import {
  AlertOutlined,
  ApartmentOutlined,
  LineChartOutlined,
  LockOutlined,
  SafetyOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Status, type CaptchaImage, type LoginElsewhere, type LoginResult } from '@geosentry/contract';
import { saveSession } from '../../shared/storage.ts';
import { endSessionLocally, getSession, storeUserInfo } from '../../shared/session.ts';
import { useBranding, usePublicConfig } from '../../shared/public-config.ts';
import { LanguageSwitch } from '../../shared/ui/LanguageSwitch.tsx';
import { PageFooter } from '../../shared/ui/PageFooter.tsx';
import { fetchCaptcha, fetchUserInfo, login, USER_INFO_KEY, type LoginInput } from './api.ts';
import { LoginIllustration } from './LoginIllustration.tsx';
import './login.css';

interface FormValues {
  account?: string;
  password?: string;
  captcha?: string;
}

interface Notice {
  type: 'error' | 'warning';
  text: string;
}

/**
 * Where to go after login: the page the user came from when they may open it, otherwise '/'. The route tree (every
 * feature's menu entries and icons) is loaded here, after login, not with the login page.
 */
async function landing(redirect: string | null): Promise<string> {
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/login')) return '/';
  const pathname = redirect.split('?')[0] ?? '/';
  const [{ appRoutes }, { buildNodes, filterRoutes, findNode, isScreen }] = await Promise.all([
    import('../../app/routes.tsx'),
    import('../../app/route-tree.ts'),
  ]);
  const node = findNode(buildNodes(filterRoutes(appRoutes, getSession())), pathname);
  return node && isScreen(node) ? redirect : '/';
}

/**
 * The login page (spec: 'user login'): account, password and identifying code; remaining attempts
 * and locks from the server shown inline; "logged in elsewhere" asks whether to end the other session.
 * Test hooks: #account, #password, #captcha, button[type=submit], [data-testid="captcha-image"],
 * [data-testid="login-notice"], [data-testid="login-elsewhere-confirm"], [data-testid="login-elsewhere-cancel"].
 */
export function LoginPage(): ReactElement {
  const { t } = useTranslation('session');
  const { message } = AntdApp.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const config = usePublicConfig();
  const branding = useBranding();
  const [form] = Form.useForm<FormValues>();
  const [captcha, setCaptcha] = useState<CaptchaImage | null>(null);
  const [captchaFailed, setCaptchaFailed] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const [elsewhere, setElsewhere] = useState<{ ticket: string; info: string; input: LoginInput } | null>(null);
  const captchaOn = config?.captcha === true;
  const expiry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    document.title = `${branding.systemTitle} - ${t('login.title')}`;
  }, [branding.systemTitle, t]);

  const refreshCaptcha = useCallback(async (): Promise<void> => {
    clearTimeout(expiry.current);
    form.setFieldValue('captcha', '');
    try {
      const c = await fetchCaptcha();
      setCaptcha(c);
      setCaptchaFailed(false);
      // Fetch a new one shortly before this one expires, so the code on screen always works.
      expiry.current = setTimeout(() => void refreshCaptcha(), Math.max(5, c.expiresInSeconds - 5) * 1000);
    } catch {
      setCaptchaFailed(true);
    }
  }, [form]);

  useEffect(() => {
    if (captchaOn) void refreshCaptcha();
    return () => clearTimeout(expiry.current);
  }, [captchaOn, refreshCaptcha]);

  const finish = async (result: LoginResult, account: string): Promise<void> => {
    saveSession(result.token, result.account || account, result.platformType);
    try {
      const info = await fetchUserInfo();
      storeUserInfo(info);
      queryClient.setQueryData(USER_INFO_KEY, info);
      void message.success(t('login.welcome', { name: info.user.name || info.user.account }));
      void navigate(await landing(params.get('redirect')), { replace: true });
    } catch (e) {
      endSessionLocally();
      setNotice({ type: 'error', text: e instanceof Error ? e.message : t('login.failed') });
      if (captchaOn) void refreshCaptcha();
    }
  };

  const attempt = async (input: LoginInput): Promise<void> => {
    setBusy(true);
    setNotice(null);
    try {
      const env = await login(input);
      if (env.status === Status.ok || env.status === Status.okAlt) {
        await finish(env.data as LoginResult, input.account);
        return;
      }
      const data = env.data as Partial<LoginElsewhere> | null;
      if (env.status === Status.warnOther && data?.elsewhere && data.ticket) {
        setElsewhere({ ticket: data.ticket, info: env.info, input });
        return;
      }
      setNotice({
        type: env.status === Status.unauthorized ? 'warning' : 'error',
        text: env.info || t('login.failed'),
      });
      if (env.status === Status.unauthorized) form.setFieldValue('password', '');
      if (captchaOn) void refreshCaptcha();
    } catch (e) {
      setNotice({ type: 'error', text: t('login.network', { detail: e instanceof Error ? e.message : String(e) }) });
      if (captchaOn) void refreshCaptcha();
    } finally {
      setBusy(false);
    }
  };

  const onFinish = (v: FormValues): void => {
    const account = (v.account ?? '').trim();
    const password = v.password ?? '';
    if (!account || !password) {
      setNotice({ type: 'error', text: t('login.required') });
      form.setFields([
        { name: 'account', errors: account ? [] : [''] },
        { name: 'password', errors: password ? [] : [''] },
      ]);
      return;
    }
    const code = (v.captcha ?? '').trim();
    if (captchaOn && !code) {
      setNotice({ type: 'error', text: t('login.captchaRequired') });
      form.setFields([{ name: 'captcha', errors: [''] }]);
      return;
    }
    void attempt({ account, password, ...(captchaOn ? { captchaId: captcha?.captchaId ?? '', captcha: code } : {}) });
  };

  const loginHere = (): void => {
    if (!elsewhere) return;
    const { input, ticket } = elsewhere;
    setElsewhere(null);
    // A new signature: signatures are single use. The ticket stands in for the captcha.
    void attempt({ account: input.account, password: input.password, flag: 1, ticket });
  };

  const goBack = (): void => {
    setElsewhere(null);
    if (captchaOn) void refreshCaptcha();
  };

  return (
    <div className="gs-login" data-testid="login-page">
      <aside className="gs-login-hero">
        <div className="gs-login-brand">
          <img src={branding.logo} alt="" />
          <span>{branding.systemTitle}</span>
        </div>
        <div className="gs-login-pitch">
          <h2>{t('login.heroTitle')}</h2>
          <p>{t('login.heroText')}</p>
        </div>
        <LoginIllustration />
        <ul className="gs-login-points">
          <li>
            <LineChartOutlined /> {t('login.pointData')}
          </li>
          <li>
            <AlertOutlined /> {t('login.pointAlerts')}
          </li>
          <li>
            <ApartmentOutlined /> {t('login.pointKinds')}
          </li>
        </ul>
      </aside>

      <main className="gs-login-side">
        <div className="gs-login-top">
          <LanguageSwitch />
        </div>
        <div className="gs-login-center">
          <div className="gs-login-card">
            <div className="gs-login-mobile-brand">
              <img src={branding.logo} alt="" />
              <span>{branding.systemTitle}</span>
            </div>
            <h1 className="gs-login-title">{t('login.title')}</h1>
            <p className="gs-login-subtitle">{branding.projectTitle || t('login.subtitle')}</p>
            {notice ? (
              <Alert
                className="gs-login-notice"
                type={notice.type}
                showIcon
                title={notice.text}
                data-testid="login-notice"
              />
            ) : null}
            <Form
              form={form}
              layout="vertical"
              size="large"
              requiredMark={false}
              onFinish={onFinish}
              onValuesChange={(changed: FormValues) =>
                form.setFields((Object.keys(changed) as (keyof FormValues)[]).map((name) => ({ name, errors: [] })))
              }
            >
              <Form.Item name="account" label={t('login.account')}>
                <Input
                  prefix={<UserOutlined />}
                  placeholder={t('login.accountPlaceholder')}
                  autoComplete="username"
                  autoFocus
                  name="account"
                  maxLength={64}
                />
              </Form.Item>
              <Form.Item name="password" label={t('login.password')}>
                <Input.Password
                  prefix={<LockOutlined />}
                  placeholder={t('login.passwordPlaceholder')}
                  autoComplete="current-password"
                  name="password"
                  maxLength={256}
                />
              </Form.Item>
              {captchaOn ? (
                <Form.Item label={t('login.captcha')} required={false}>
                  <div className="gs-captcha-row">
                    <Form.Item name="captcha" noStyle>
                      <Input
                        prefix={<SafetyOutlined />}
                        placeholder={t('login.captchaPlaceholder')}
                        autoComplete="off"
                        name="captcha"
                        maxLength={16}
                      />
                    </Form.Item>
                    <Tooltip title={t('login.captchaRefresh')}>
                      <button
                        type="button"
                        className="gs-captcha-image"
                        onClick={() => void refreshCaptcha()}
                        data-testid="captcha-image"
                        aria-label={t('login.captchaRefresh')}
                      >
                        {captcha ? (
                          <img src={captcha.image} alt={t('login.captchaAlt')} />
                        ) : captchaFailed ? (
                          <span>{t('login.captchaRetry')}</span>
                        ) : (
                          <Skeleton.Button active size="large" />
                        )}
                      </button>
                    </Tooltip>
                  </div>
                </Form.Item>
              ) : null}
              <Button
                type="primary"
                htmlType="submit"
                block
                loading={busy}
                className="gs-login-submit"
                data-testid="login-submit"
              >
                {t('login.submit')}
              </Button>
            </Form>
          </div>
        </div>
        <PageFooter className="gs-login-footer" />
      </main>

      <Modal
        open={elsewhere !== null}
        title={t('login.elsewhereTitle')}
        onCancel={goBack}
        mask={{ closable: false }}
        footer={[
          <Button key="back" onClick={goBack} data-testid="login-elsewhere-cancel">
            {t('login.elsewhereBack')}
          </Button>,
          <Button key="here" type="primary" danger onClick={loginHere} data-testid="login-elsewhere-confirm">
            {t('login.elsewhereConfirm')}
          </Button>,
        ]}
      >
        <p data-testid="login-elsewhere-info">{elsewhere?.info}</p>
        <p className="gs-muted">{t('login.elsewhereText')}</p>
      </Modal>
    </div>
  );
}
