import { useEffect } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Form, Input, Modal, Select } from 'antd';
import { roleAddBody, type RoleRow } from '@geosentry/contract';
import { isCancel } from '../../shared/api.ts';
import { addRole, editRole, fetchEveryRole, roleKeys, type RoleFormValues } from './rolesApi.ts';

export interface RoleFormModalProps {
  open: boolean;
  /** The role to edit, or null to add one. */
  role: RoleRow | null;
  onClose: () => void;
  onSaved: (added: boolean) => void;
}

const codeSchema = roleAddBody.shape.code;

/** Adds or edits a role: name, unique code, description, parent role and role file. */
export function RoleFormModal({ open, role, onClose, onSaved }: RoleFormModalProps) {
  const { t } = useTranslation('roles');
  const [form] = Form.useForm<RoleFormValues>();
  const isEdit = role !== null;

  const roles = useQuery({
    queryKey: roleKeys.everyRole,
    queryFn: fetchEveryRole,
    enabled: open,
    retry: (count, error) => !isCancel(error) && count < 1,
  });

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (role) {
      form.setFieldsValue({
        name: role.name,
        code: role.code,
        description: role.description ?? undefined,
        parentId: role.parentId ?? undefined,
        roleFileId: role.roleFileId ?? undefined,
      });
    }
  }, [open, role, form]);

  const save = useMutation({
    mutationFn: (v: RoleFormValues) => (role ? editRole(role.id, v) : addRole(v)),
    onSuccess: () => onSaved(!isEdit),
  });

  const parentOptions = (roles.data ?? [])
    .filter((r) => r.id !== role?.id)
    .map((r) => ({ value: r.id, label: `${r.name} (${r.code})` }));

  return (
    <Modal
      open={open}
      width={560}
      title={isEdit ? t('form.editTitle', { name: role.name }) : t('form.addTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'role-save' }}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form<RoleFormValues>
        form={form}
        layout="vertical"
        onFinish={(v) => save.mutate(v)}
        data-testid="role-form"
        style={{ marginTop: 16 }}
      >
        <Form.Item
          name="name"
          label={t('fields.name')}
          rules={[{ required: true, whitespace: true, message: t('validation.nameRequired') }]}
        >
          <Input id="role-name" maxLength={100} />
        </Form.Item>
        <Form.Item
          name="code"
          label={t('fields.code')}
          extra={role?.builtin ? t('form.builtinCode') : t('form.codeHint')}
          rules={[
            { required: true, whitespace: true, message: t('validation.codeRequired') },
            {
              validator: (_r, v: string | undefined) =>
                !v || codeSchema.safeParse(v).success
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('validation.codePattern'))),
            },
          ]}
        >
          <Input id="role-code" maxLength={64} disabled={role?.builtin ?? false} />
        </Form.Item>
        <Form.Item name="description" label={t('fields.description')}>
          <Input.TextArea id="role-description" maxLength={500} showCount autoSize={{ minRows: 2, maxRows: 5 }} />
        </Form.Item>
        <Form.Item name="parentId" label={t('fields.parent')} extra={t('form.parentHint')}>
          <Select<number>
            id="role-parent"
            allowClear
            loading={roles.isLoading}
            placeholder={t('form.parentPlaceholder')}
            showSearch={{ optionFilterProp: 'label' }}
            options={parentOptions}
          />
        </Form.Item>
        <Form.Item name="roleFileId" label={t('fields.roleFileId')} extra={t('form.roleFileHint')}>
          <Input id="role-file" maxLength={100} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
