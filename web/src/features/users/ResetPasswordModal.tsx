import { useEffect } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Form, Input, Modal } from 'antd';
import type { UserRow } from '@geosentry/contract';
import { resetUserPassword } from './usersApi.ts';
import { passwordRules } from './userValidation.ts';

export interface ResetPasswordModalProps {
  /** The user whose password is set; null hides the modal. */
  user: UserRow | null;
  onClose: () => void;
  onDone: () => void;
}

interface Values {
  password: string;
  confirm: string;
}

/** Sets a new password for another user; their sessions end on the server. */
export function ResetPasswordModal({ user, onClose, onDone }: ResetPasswordModalProps) {
  const { t } = useTranslation('users');
  const [form] = Form.useForm<Values>();
  const open = user !== null;

  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);

  const save = useMutation({
    mutationFn: (v: Values) => resetUserPassword(user?.id ?? 0, v.password),
    onSuccess: onDone,
  });

  return (
    <Modal
      open={open}
      title={t('reset.title', { account: user?.account ?? '' })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'user-reset-save' }}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t('reset.note')} />
      <Form<Values> form={form} layout="vertical" onFinish={(v) => save.mutate(v)}>
        <Form.Item
          name="password"
          label={t('reset.newPassword')}
          rules={passwordRules(t, () => user?.account)}
          extra={t('form.passwordHint')}
        >
          <Input.Password id="reset-password" autoComplete="new-password" maxLength={256} />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('reset.confirmPassword')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('validation.confirmRequired') },
            ({ getFieldValue }) => ({
              validator: (_r, v: string | undefined) =>
                !v || v === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('validation.confirmMismatch'))),
            }),
          ]}
        >
          <Input.Password id="reset-confirm" autoComplete="new-password" maxLength={256} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
