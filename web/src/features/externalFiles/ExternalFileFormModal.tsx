import { useEffect } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Form, Input, Modal } from 'antd';
import { externalFileFields, type ExternalFileRow } from '@geosentry/contract';
import { nn } from '../../shared/query.ts';
import { addExternalFile, editExternalFile, type ExternalFileFormValues } from './externalFilesApi.ts';

export interface ExternalFileFormModalProps {
  open: boolean;
  /** The link to edit, or null to add one. */
  link: ExternalFileRow | null;
  onClose: () => void;
  onSaved: (added: boolean) => void;
}

/** Adds or edits an external file link: a name and an http(s) address. */
export function ExternalFileFormModal({ open, link, onClose, onSaved }: ExternalFileFormModalProps) {
  const { t } = useTranslation('externalFiles');
  const [form] = Form.useForm<ExternalFileFormValues>();
  const isEdit = link !== null;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (link) form.setFieldsValue({ name: link.name, url: link.url, description: nn(link.description) });
  }, [open, link, form]);

  const save = useMutation({
    mutationFn: (v: ExternalFileFormValues) => (link ? editExternalFile(link, v) : addExternalFile(v)),
    onSuccess: () => onSaved(!isEdit),
  });

  return (
    <Modal
      open={open}
      width={560}
      title={isEdit ? t('form.editTitle', { name: link.name }) : t('form.addTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'link-save' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      mask={{ closable: !save.isPending }}
    >
      <Form<ExternalFileFormValues>
        form={form}
        layout="vertical"
        onFinish={(v) => save.mutate(v)}
        data-testid="link-form"
        style={{ marginTop: 16 }}
      >
        <Form.Item
          name="name"
          label={t('fields.name')}
          rules={[{ required: true, whitespace: true, message: t('validation.nameRequired') }]}
        >
          <Input id="link-name" maxLength={200} />
        </Form.Item>
        <Form.Item
          name="url"
          label={t('fields.url')}
          extra={t('form.urlHint')}
          rules={[
            { required: true, whitespace: true, message: t('validation.urlRequired') },
            {
              validator: (_r, v: string | undefined) =>
                !v || externalFileFields.url.safeParse(v).success
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('validation.urlInvalid'))),
            },
          ]}
        >
          <Input id="link-url" maxLength={2000} placeholder="https://" />
        </Form.Item>
        <Form.Item name="description" label={t('fields.description')}>
          <Input.TextArea id="link-description" maxLength={1000} autoSize={{ minRows: 2, maxRows: 5 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
