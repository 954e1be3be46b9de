import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactElement, type ReactNode } from 'react';
import {
  AlertOutlined,
  ApartmentOutlined,
  CloseCircleFilled,
  ExclamationCircleFilled,
  EyeInvisibleOutlined,
  EyeOutlined,
  LineChartOutlined,
  LoadingOutlined,
  LockOutlined,
  SafetyOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Status, type CaptchaImage, type LoginElsewhere, type LoginResult } from '@geosentry/contract';
import { saveSession } from '../../shared/storage.ts';
import { announceWelcome, endSessionLocally, getSession, storeUserInfo } from '../../shared/session.ts';
import { useBranding, usePublicConfig } from '../../shared/public-config.ts';
import { LanguageSwitch } from '../../shared/ui/LanguageSwitch.tsx';
import { PageFooter } from '../../shared/ui/PageFooter.tsx';
import { fetchCaptcha, fetchUserInfo, login, USER_INFO_KEY, type LoginInput } from './api.ts';
import { LoginIllustration } from './LoginIllustration.tsx';
import './login.css';

type Field = 'account' | 'password' | 'captcha';

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
 * Plain HTML and CSS (login.css), no antd: the first page anyone opens stays light.
 * Test hooks: #account, #password, #captcha, button[type=submit], [data-testid="captcha-image"],
 * [data-testid="login-notice"], [data-testid="login-elsewhere-confirm"], [data-testid="login-elsewhere-cancel"].
 */
export function LoginPage(): ReactElement {
  const { t } = useTranslation('session');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const config = usePublicConfig();
  const branding = useBranding();
  const [values, setValues] = useState<Record<Field, string>>({ account: '', password: '', captcha: '' });
  const [invalid, setInvalid] = useState<ReadonlySet<Field>>(new Set());
  const [showPassword, setShowPassword] = useState(false);
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

  const setValue = (name: Field, value: string): void => {
    setValues((v) => ({ ...v, [name]: value }));
    setInvalid((s) => (s.has(name) ? new Set([...s].filter((f) => f !== name)) : s));
  };

  const refreshCaptcha = useCallback(async (): Promise<void> => {
    clearTimeout(expiry.current);
    setValues((v) => ({ ...v, captcha: '' }));
    try {
      const c = await fetchCaptcha();
      setCaptcha(c);
      setCaptchaFailed(false);
      // Fetch a new one shortly before this one expires, so the code on screen always works.
      expiry.current = setTimeout(() => void refreshCaptcha(), Math.max(5, c.expiresInSeconds - 5) * 1000);
    } catch {
      setCaptchaFailed(true);
    }
  }, []);

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
      announceWelcome(info.user.name || info.user.account);
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
      if (env.status === Status.unauthorized) setValues((v) => ({ ...v, password: '' }));
      if (captchaOn) void refreshCaptcha();
    } catch (e) {
      setNotice({ type: 'error', text: t('login.network', { detail: e instanceof Error ? e.message : String(e) }) });
      if (captchaOn) void refreshCaptcha();
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    if (busy) return;
    const account = values.account.trim();
    const password = values.password;
    if (!account || !password) {
      setNotice({ type: 'error', text: t('login.required') });
      setInvalid(new Set([...(account ? [] : ['account' as const]), ...(password ? [] : ['password' as const])]));
      return;
    }
    const code = values.captcha.trim();
    if (captchaOn && !code) {
      setNotice({ type: 'error', text: t('login.captchaRequired') });
      setInvalid(new Set(['captcha']));
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
              <div className={`gs-login-notice gs-login-notice-${notice.type}`} role="alert" data-testid="login-notice">
                {notice.type === 'error' ? <CloseCircleFilled /> : <ExclamationCircleFilled />}
                <span>{notice.text}</span>
              </div>
            ) : null}
            <form className="gs-login-form" onSubmit={onSubmit} noValidate>
              <LoginField
                id="account"
                label={t('login.account')}
                icon={<UserOutlined />}
                invalid={invalid.has('account')}
              >
                <input
                  id="account"
                  name="account"
                  value={values.account}
                  onChange={(e) => setValue('account', e.target.value)}
                  placeholder={t('login.accountPlaceholder')}
                  autoComplete="username"
                  autoFocus
                  maxLength={64}
                  aria-invalid={invalid.has('account')}
                />
              </LoginField>
              <LoginField
                id="password"
                label={t('login.password')}
                icon={<LockOutlined />}
                invalid={invalid.has('password')}
                suffix={
                  <button
                    type="button"
                    className="gs-login-eye"
                    onClick={() => setShowPassword((v) => !v)}
                    aria-label={showPassword ? t('login.hidePassword') : t('login.showPassword')}
                    title={showPassword ? t('login.hidePassword') : t('login.showPassword')}
                  >
                    {showPassword ? <EyeOutlined /> : <EyeInvisibleOutlined />}
                  </button>
                }
              >
                <input
                  id="password"
                  name="password"
                  type={showPassword ? 'text' : 'password'}
                  value={values.password}
                  onChange={(e) => setValue('password', e.target.value)}
                  placeholder={t('login.passwordPlaceholder')}
                  autoComplete="current-password"
                  maxLength={256}
                  aria-invalid={invalid.has('password')}
                />
              </LoginField>
              {captchaOn ? (
                <div className="gs-captcha-row">
                  <LoginField
                    id="captcha"
                    label={t('login.captcha')}
                    icon={<SafetyOutlined />}
                    invalid={invalid.has('captcha')}
                  >
                    <input
                      id="captcha"
                      name="captcha"
                      value={values.captcha}
                      onChange={(e) => setValue('captcha', e.target.value)}
                      placeholder={t('login.captchaPlaceholder')}
                      autoComplete="off"
                      maxLength={16}
                      aria-invalid={invalid.has('captcha')}
                    />
                  </LoginField>
                  <button
                    type="button"
                    className="gs-captcha-image"
                    onClick={() => void refreshCaptcha()}
                    data-testid="captcha-image"
                    aria-label={t('login.captchaRefresh')}
                    title={t('login.captchaRefresh')}
                  >
                    {captcha ? (
                      <img src={captcha.image} alt={t('login.captchaAlt')} />
                    ) : captchaFailed ? (
                      <span>{t('login.captchaRetry')}</span>
                    ) : (
                      <span className="gs-login-skeleton" />
                    )}
                  </button>
                </div>
              ) : null}
              <button type="submit" className="gs-login-submit" disabled={busy} data-testid="login-submit">
                {busy ? <LoadingOutlined /> : null}
                <span>{t('login.submit')}</span>
              </button>
            </form>
          </div>
        </div>
        <PageFooter className="gs-login-footer" />
      </main>

      {elsewhere ? (
        <ElsewhereDialog
          title={t('login.elsewhereTitle')}
          info={elsewhere.info}
          text={t('login.elsewhereText')}
          back={t('login.elsewhereBack')}
          confirm={t('login.elsewhereConfirm')}
          onBack={goBack}
          onConfirm={loginHere}
        />
      ) : null}
    </div>
  );
}

/** A labelled input with an icon in front and, optionally, a button behind it. */
function LoginField(props: {
  id: Field;
  label: string;
  icon: ReactNode;
  invalid: boolean;
  suffix?: ReactNode;
  children: ReactNode;
}): ReactElement {
  return (
    <div className="gs-login-field">
      <label htmlFor={props.id}>{props.label}</label>
      <div className={`gs-login-input${props.invalid ? ' gs-login-input-invalid' : ''}`}>
        <span className="gs-login-input-icon">{props.icon}</span>
        {props.children}
        {props.suffix}
      </div>
    </div>
  );
}

/** "Logged in elsewhere": a modal dialog (the browser's own), Escape goes back. */
function ElsewhereDialog(props: {
  title: string;
  info: string;
  text: string;
  back: string;
  confirm: string;
  onBack: () => void;
  onConfirm: () => void;
}): ReactElement {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      className="gs-login-dialog"
      aria-labelledby="gs-login-dialog-title"
      onCancel={(e) => {
        e.preventDefault();
        props.onBack();
      }}
    >
      <h2 id="gs-login-dialog-title">{props.title}</h2>
      <p data-testid="login-elsewhere-info">{props.info}</p>
      <p className="gs-muted">{props.text}</p>
      <div className="gs-login-dialog-actions">
        <button type="button" className="gs-login-btn" onClick={props.onBack} data-testid="login-elsewhere-cancel">
          {props.back}
        </button>
        <button
          type="button"
          className="gs-login-btn gs-login-btn-danger"
          onClick={props.onConfirm}
          data-testid="login-elsewhere-confirm"
        >
          {props.confirm}
        </button>
      </div>
    </dialog>
  );
}
