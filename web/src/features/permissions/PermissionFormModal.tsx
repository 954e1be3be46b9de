import { useEffect } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Form, Input, InputNumber, Modal, Select } from 'antd';
import { PERMISSION_TYPES, permissionAddBody, type PermissionNode } from '@geosentry/contract';
import { addPermission, editPermission, type PermissionFormValues } from './permissionsApi.ts';
import { usePermissionLabel } from './usePermissionLabel.ts';

export interface PermissionFormModalProps {
  open: boolean;
  /** The permission to edit, or null to add one. */
  node: PermissionNode | null;
  /** For a new permission: the level 1 parent it goes under, or null for a top-level entry. */
  parentId: number | null;
  /** Level 1 permissions, the possible parents. */
  parents: PermissionNode[];
  onClose: () => void;
  onSaved: (added: boolean) => void;
}

const codeSchema = permissionAddBody.shape.code;

/** Adds or edits a permission: parent (level 1 or none), name, unique code, type, path and sort. */
export function PermissionFormModal({ open, node, parentId, parents, onClose, onSaved }: PermissionFormModalProps) {
  const { t } = useTranslation('permissions');
  const label = usePermissionLabel();
  const [form] = Form.useForm<PermissionFormValues>();
  const isEdit = node !== null;
  /** A parent with children stays at level 1 (two levels only). */
  const parentLocked = isEdit && (node.children?.length ?? 0) > 0;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      node
        ? {
            name: node.name,
            code: node.code,
            type: node.type as PermissionFormValues['type'],
            path: node.path ?? undefined,
            parentId: node.parentId,
            sort: node.sort,
          }
        : { type: 'menu', parentId, sort: 0 },
    );
  }, [open, node, parentId, form]);

  const save = useMutation({
    mutationFn: (v: PermissionFormValues) => (node ? editPermission(node.id, v) : addPermission(v)),
    onSuccess: () => onSaved(!isEdit),
  });

  const parentName = parents.find((p) => p.id === parentId);
  const title = isEdit
    ? t('form.editTitle', { name: label(node) })
    : parentName
      ? t('form.addChildTitle', { parent: label(parentName) })
      : t('form.addTitle');

  return (
    <Modal
      open={open}
      width={560}
      title={title}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'permission-save' }}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form<PermissionFormValues>
        form={form}
        layout="vertical"
        onFinish={(v) => save.mutate(v)}
        data-testid="permission-form"
        style={{ marginTop: 16 }}
      >
        <Form.Item
          name="parentId"
          label={t('fields.parent')}
          extra={parentLocked ? t('form.parentLocked') : t('form.parentHint')}
        >
          <Select<number>
            id="permission-parent"
            allowClear
            disabled={parentLocked}
            placeholder={t('form.topLevel')}
            showSearch={{ optionFilterProp: 'label' }}
            options={parents
              .filter((p) => p.id !== node?.id)
              .map((p) => ({ value: p.id, label: `${label(p)} (${p.code})` }))}
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('fields.name')}
          rules={[{ required: true, whitespace: true, message: t('validation.nameRequired') }]}
        >
          <Input id="permission-name" maxLength={100} />
        </Form.Item>
        <Form.Item
          name="code"
          label={t('fields.code')}
          extra={t('form.codeHint')}
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
          <Input id="permission-code" maxLength={100} />
        </Form.Item>
        <Form.Item
          name="type"
          label={t('fields.type')}
          rules={[{ required: true, message: t('validation.typeRequired') }]}
        >
          <Select id="permission-type" options={PERMISSION_TYPES.map((v) => ({ value: v, label: t(`types.${v}`) }))} />
        </Form.Item>
        <Form.Item name="path" label={t('fields.path')} extra={t('form.pathHint')}>
          <Input id="permission-path" maxLength={200} placeholder="/system/user" />
        </Form.Item>
        <Form.Item name="sort" label={t('fields.sort')} extra={t('form.sortHint')}>
          <InputNumber id="permission-sort" precision={0} min={-100000} max={100000} style={{ width: 160 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
