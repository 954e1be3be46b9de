import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Form, Input, InputNumber, Modal, Select, Tooltip, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { TEMPLATE_FIELD_KINDS, TEMPLATE_MAX_FIELDS, type TemplateRow } from '@geosentry/contract';
import {
  addTemplate,
  deleteField,
  editTemplate,
  renameField,
  type FieldDraft,
  type TemplateDraft,
} from './templatesApi.ts';

export interface TemplateFormModalProps {
  open: boolean;
  /** The template edited, or null to add one. */
  template: TemplateRow | null;
  onClose: () => void;
  onSaved: (added: boolean) => void;
}

/**
 * Add or edit an information template: name, code, description, directory name and its fields (name, kind,
 * sort). On edit, a changed field name renames the field (its values follow) and a removed field is deleted
 * with its values, after a confirmation.
 */
export function TemplateFormModal({ open, template, onClose, onSaved }: TemplateFormModalProps) {
  const { t } = useTranslation('templates');
  const [form] = Form.useForm<TemplateDraft>();
  const [modal, modalHolder] = Modal.useModal();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      template
        ? {
            menuName: template.menuName,
            menuCode: template.menuCode ?? undefined,
            menuContext: template.menuContext ?? undefined,
            directoryName: template.directoryName,
            fields: template.fields.map((f) => ({ name: f.name, kind: f.kind, sort: f.sort, orig: f.name })),
          }
        : { fields: [{ name: '', kind: 'text', sort: 10 }] },
    );
  }, [open, template, form]);

  const persist = async (v: TemplateDraft) => {
    const fields: FieldDraft[] = (v.fields ?? []).map((f) => ({ ...f, name: f.name.trim() }));
    setSaving(true);
    try {
      if (!template) {
        await addTemplate({ ...v, fields });
      } else {
        const kept = new Set(fields.map((f) => f.orig).filter(Boolean));
        for (const f of template.fields) if (!kept.has(f.name)) await deleteField(template.menuId, f.name);
        for (const f of fields) if (f.orig && f.orig !== f.name) await renameField(template.menuId, f.orig, f.name);
        await editTemplate(template.menuId, { ...v, fields });
      }
      onSaved(!template);
    } catch {
      // The API layer has shown the message.
    } finally {
      setSaving(false);
    }
  };

  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const names = (v.fields ?? []).map((f) => f.name.trim());
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup) {
      void modal.error({ title: t('validation.fieldDuplicate', { name: dup }) });
      return;
    }
    const removed = template
      ? template.fields.filter((f) => !(v.fields ?? []).some((d) => d.orig === f.name)).map((f) => f.name)
      : [];
    if (removed.length > 0) {
      void modal.confirm({
        title: t('confirm.removeFieldsTitle'),
        content: t('confirm.removeFieldsContent', { names: removed.join(', ') }),
        okText: t('actions.save'),
        okButtonProps: { danger: true },
        cancelText: t('actions.cancel'),
        onOk: () => persist(v),
      });
      return;
    }
    await persist(v);
  };

  const required = (key: string) => [{ required: true, whitespace: true, message: t(key) }];

  return (
    <Modal
      open={open}
      width={760}
      title={template ? t('form.editTitle', { name: template.menuName }) : t('form.addTitle')}
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'template-save' }}
      destroyOnHidden
    >
      {modalHolder}
      <Form form={form} layout="vertical" requiredMark autoComplete="off" data-testid="template-form">
        <Flex gap={16} wrap>
          <Form.Item
            name="menuName"
            label={t('fields.menuName')}
            rules={required('validation.nameRequired')}
            style={{ flex: 1, minWidth: 220 }}
          >
            <Input maxLength={100} data-testid="template-name" placeholder={t('form.menuNamePlaceholder')} />
          </Form.Item>
          <Form.Item
            name="directoryName"
            label={t('fields.directoryName')}
            rules={required('validation.directoryRequired')}
            style={{ flex: 1, minWidth: 220 }}
          >
            <Input maxLength={200} data-testid="template-directory" placeholder={t('form.directoryPlaceholder')} />
          </Form.Item>
        </Flex>
        <Flex gap={16} wrap>
          <Form.Item
            name="menuCode"
            label={t('fields.menuCode')}
            tooltip={t('form.codeHint')}
            rules={[{ pattern: /^[A-Za-z0-9_.:-]*$/, message: t('validation.code') }]}
            style={{ flex: 1, minWidth: 220 }}
          >
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item name="menuContext" label={t('fields.menuContext')} style={{ flex: 2, minWidth: 220 }}>
            <Input maxLength={2000} />
          </Form.Item>
        </Flex>
        <Typography.Text strong>{t('fields.fields')}</Typography.Text>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {t('form.fieldsHint')}
        </Typography.Paragraph>
        <Form.List name="fields">
          {(items, { add, remove }) => (
            <Flex vertical gap={0}>
              {items.map((item) => (
                <Flex key={item.key} gap={8} align="flex-start" data-testid="template-field-row">
                  <Form.Item name={[item.name, 'orig']} hidden>
                    <Input />
                  </Form.Item>
                  <Form.Item
                    name={[item.name, 'name']}
                    rules={required('validation.fieldRequired')}
                    style={{ flex: 1, marginBottom: 8 }}
                  >
                    <Input maxLength={64} placeholder={t('fields.fieldName')} data-testid="template-field-name" />
                  </Form.Item>
                  <Form.Item name={[item.name, 'kind']} style={{ width: 140, marginBottom: 8 }} initialValue="text">
                    <Select
                      options={TEMPLATE_FIELD_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
                      aria-label={t('fields.fieldKind')}
                    />
                  </Form.Item>
                  <Form.Item name={[item.name, 'sort']} style={{ width: 110, marginBottom: 8 }}>
                    <InputNumber
                      min={-100000}
                      max={100000}
                      precision={0}
                      placeholder={t('fields.sort')}
                      style={{ width: '100%' }}
                    />
                  </Form.Item>
                  <Tooltip title={t('actions.removeField')}>
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('actions.removeField')}
                      onClick={() => remove(item.name)}
                    />
                  </Tooltip>
                </Flex>
              ))}
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                disabled={items.length >= TEMPLATE_MAX_FIELDS}
                data-testid="template-field-add"
                onClick={() => add({ name: '', kind: 'text', sort: (items.length + 1) * 10 })}
              >
                {t('actions.addField')}
              </Button>
            </Flex>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
