import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Card, Empty, Form, Input, Popconfirm, Tag, Typography } from 'antd';
import { FileImageOutlined, FileTextOutlined, PaperClipOutlined } from '@ant-design/icons';
import { TEMPLATE_TEXT_MAX, type TemplateFileRef, type TemplateOwnerData } from '@geosentry/contract';
import { UploadField } from '../files/index.ts';
import { saveValues, siteOfOwner } from './templatesApi.ts';

export interface OwnerValuesCardProps {
  template: TemplateOwnerData;
  onSaved: () => void;
  onUnbind: () => Promise<unknown>;
}

const KIND_ICON = { text: <FileTextOutlined />, file: <PaperClipOutlined />, image: <FileImageOutlined /> };

/** One template bound to an owner: its fields as a form (text inputs, uploads for file and image fields). */
export function OwnerValuesCard({ template, onSaved, onUnbind }: OwnerValuesCardProps) {
  const { t } = useTranslation('templates');
  const [form] = Form.useForm<Record<string, unknown>>();
  const [saving, setSaving] = useState(false);
  const fields = useMemo(() => [...template.fields].sort((a, b) => a.sort - b.sort), [template.fields]);
  const platformId = siteOfOwner(template.owner);

  const initial = useMemo(() => {
    const v: Record<string, unknown> = {};
    for (const f of fields) {
      const d = template.data[f.name];
      v[f.name] =
        f.kind === 'text' ? (typeof d === 'string' ? d : '') : Array.isArray(d) ? d.map((r) => r.file_id) : [];
    }
    return v;
  }, [fields, template.data]);

  const save = async () => {
    const v = form.getFieldsValue(true) as Record<string, unknown>;
    const data: Record<string, unknown> = {};
    for (const f of fields) {
      const x = v[f.name];
      if (f.kind === 'text') data[f.name] = typeof x === 'string' && x.trim() ? x : null;
      else data[f.name] = Array.isArray(x) && x.length > 0 ? x : null;
    }
    setSaving(true);
    try {
      await saveValues(template.menuId, template.owner, data);
      onSaved();
    } catch {
      // shown by the API layer
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card
      size="small"
      data-testid="owner-template"
      title={
        <span>
          {template.menuName} <Typography.Text type="secondary">/ {template.directoryName}</Typography.Text>
        </span>
      }
      extra={
        <Popconfirm
          title={t('confirm.unbindTitle', { name: template.menuName })}
          description={t('confirm.unbindContent')}
          okText={t('actions.unbind')}
          cancelText={t('actions.cancel')}
          okButtonProps={{ danger: true, 'data-testid': 'template-unbind-confirm' }}
          onConfirm={() => onUnbind().catch(() => undefined)}
        >
          <Button type="link" danger size="small" data-testid="template-unbind">
            {t('actions.unbind')}
          </Button>
        </Popconfirm>
      }
    >
      {fields.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('owner.noFields')} />
      ) : (
        <Form form={form} layout="vertical" initialValues={initial} onFinish={() => void save()}>
          {fields.map((f) => {
            const refs = template.data[f.name];
            const known = Array.isArray(refs) ? (refs as TemplateFileRef[]) : undefined;
            return (
              <Form.Item
                key={f.name}
                name={f.name}
                label={
                  <span>
                    {f.name}{' '}
                    <Tag icon={KIND_ICON[f.kind]} bordered={false} style={{ marginLeft: 4 }}>
                      {t(`kinds.${f.kind}`)}
                    </Tag>
                  </span>
                }
                style={{ marginBottom: 12 }}
              >
                {f.kind === 'text' ? (
                  <Input.TextArea
                    autoSize={{ minRows: 1, maxRows: 6 }}
                    maxLength={TEMPLATE_TEXT_MAX}
                    data-testid="owner-text"
                  />
                ) : (
                  <UploadField
                    kind={f.kind === 'image' ? 'picture' : 'document'}
                    max={3}
                    platformId={platformId}
                    known={known}
                  />
                )}
              </Form.Item>
            );
          })}
          <Button type="primary" htmlType="submit" loading={saving} data-testid="owner-save">
            {t('actions.saveValues')}
          </Button>
        </Form>
      )}
    </Card>
  );
}
