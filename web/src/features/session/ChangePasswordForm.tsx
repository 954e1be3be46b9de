import { useState, type ReactElement } from 'react';
import { App as AntdApp, Button, Form, Input } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { checkPassword, PASSWORD_MAX, PASSWORD_MIN } from '@geosentry/contract';
import { endSessionLocally, markLogout } from '../../shared/session.ts';
import { startSessionSocket, stopSessionSocket } from '../../shared/socket.ts';
import { changePassword } from './api.ts';

interface Values {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * Change one's own password. On success every session of the account ends, so the user logs in again.
 * Test hooks: #oldPassword, #newPassword, #confirmPassword, [data-testid="password-submit"].
 */
export function ChangePasswordForm({ account }: { account: string }): ReactElement {
  const { t } = useTranslation('session');
  const { message } = AntdApp.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);

  const onFinish = async (v: Values): Promise<void> => {
    setBusy(true);
    // The server ends this session too: close the socket first so that is not taken for an eviction.
    stopSessionSocket();
    try {
      await changePassword(v.oldPassword, v.newPassword);
      void message.success(t('password.changed'), 4);
      markLogout();
      endSessionLocally();
      queryClient.clear();
      void navigate('/login', { replace: true });
    } catch {
      startSessionSocket(); // the request layer has shown why
      form.setFieldValue('oldPassword', '');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={(v) => void onFinish(v)}
      className="gs-password-form"
      requiredMark={false}
      autoComplete="off"
    >
      <Form.Item
        name="oldPassword"
        label={t('password.old')}
        rules={[{ required: true, message: t('password.oldRequired') }]}
      >
        <Input.Password prefix={<LockOutlined />} autoComplete="current-password" maxLength={PASSWORD_MAX} />
      </Form.Item>
      <Form.Item
        name="newPassword"
        label={t('password.new')}
        extra={t('password.rules', { min: PASSWORD_MIN })}
        dependencies={['oldPassword']}
        rules={[
          { required: true, message: t('password.newRequired') },
          ({ getFieldValue }) => ({
            validator: (_r, value: string | undefined) => {
              if (!value) return Promise.resolve();
              if (value === getFieldValue('oldPassword')) return Promise.reject(new Error(t('password.sameAsOld')));
              const problem = checkPassword(value, account);
              if (problem === 'tooShort')
                return Promise.reject(new Error(t('password.tooShort', { min: PASSWORD_MIN })));
              if (problem === 'tooLong') return Promise.reject(new Error(t('password.tooLong', { max: PASSWORD_MAX })));
              if (problem === 'common') return Promise.reject(new Error(t('password.common')));
              if (problem === 'sameAsAccount') return Promise.reject(new Error(t('password.sameAsAccount')));
              return Promise.resolve();
            },
          }),
        ]}
      >
        <Input.Password prefix={<LockOutlined />} autoComplete="new-password" maxLength={PASSWORD_MAX} />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t('password.confirm')}
        dependencies={['newPassword']}
        rules={[
          { required: true, message: t('password.confirmRequired') },
          ({ getFieldValue }) => ({
            validator: (_r, value: string | undefined) =>
              !value || value === getFieldValue('newPassword')
                ? Promise.resolve()
                : Promise.reject(new Error(t('password.mismatch'))),
          }),
        ]}
      >
        <Input.Password prefix={<LockOutlined />} autoComplete="new-password" maxLength={PASSWORD_MAX} />
      </Form.Item>
      <Form.Item className="gs-form-actions">
        <Button type="primary" htmlType="submit" loading={busy} data-testid="password-submit">
          {t('password.submit')}
        </Button>
        <Button onClick={() => form.resetFields()}>{t('password.reset')}</Button>
      </Form.Item>
    </Form>
  );
}
