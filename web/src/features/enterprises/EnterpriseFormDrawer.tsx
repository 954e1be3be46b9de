import { useEffect } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Col, Drawer, Flex, Form, Input, Row, Select } from 'antd';
import type { EnterpriseRow, EnterpriseVariant } from '@geosentry/contract';
import {
  addEnterprise,
  editEnterprise,
  enterpriseKeys,
  fetchEnterpriseOptions,
  type EnterpriseFormValues,
} from './enterprisesApi.ts';

export interface EnterpriseFormDrawerProps {
  variant: EnterpriseVariant;
  /** 'enterprise' or 'management organisation', lower case, in the current language. */
  org: string;
  open: boolean;
  enterprise: EnterpriseRow | null;
  onClose: () => void;
  onSaved: (added: boolean) => void;
}

/** Adds or edits an enterprise: name, code, higher group, address, description. Inputs: #enterprise-<field>. */
export function EnterpriseFormDrawer({ variant, org, open, enterprise, onClose, onSaved }: EnterpriseFormDrawerProps) {
  const { t } = useTranslation('enterprises');
  const [form] = Form.useForm<EnterpriseFormValues>();
  const isEdit = enterprise !== null;
  const options = useQuery({
    queryKey: enterpriseKeys.options(variant),
    queryFn: () => fetchEnterpriseOptions(variant),
    enabled: open,
  });

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (enterprise)
      form.setFieldsValue({
        name: enterprise.name,
        code: enterprise.code ?? undefined,
        description: enterprise.description ?? undefined,
        parentId: enterprise.parentId,
        address: enterprise.address ?? undefined,
      });
  }, [open, enterprise, form]);

  const save = useMutation({
    mutationFn: (v: EnterpriseFormValues) =>
      enterprise ? editEnterprise(variant, enterprise.enterpriseId, v) : addEnterprise(variant, v),
    onSuccess: () => onSaved(!isEdit),
  });

  // A higher group is another enterprise that is not this one (the server also refuses loops).
  const parents = (options.data ?? []).filter((e) => e.enterpriseId !== enterprise?.enterpriseId);

  return (
    <Drawer
      open={open}
      size={560}
      title={isEdit ? t('form.editTitle', { name: enterprise.name }) : t('form.addTitle', { org })}
      onClose={onClose}
      mask={{ closable: !save.isPending }}
      destroyOnHidden
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={onClose}>{t('form.cancel')}</Button>
          <Button type="primary" data-testid="enterprise-save" loading={save.isPending} onClick={() => form.submit()}>
            {t('form.save')}
          </Button>
        </Flex>
      }
    >
      <Form<EnterpriseFormValues>
        form={form}
        name="enterprise"
        layout="vertical"
        onFinish={(v) => save.mutate(v)}
        data-testid="enterprise-form"
      >
        <Row gutter={16}>
          <Col span={14}>
            <Form.Item
              name="name"
              htmlFor="enterprise-name"
              label={t('fields.name')}
              rules={[{ required: true, whitespace: true, message: t('validation.nameRequired') }]}
            >
              <Input id="enterprise-name" maxLength={100} />
            </Form.Item>
          </Col>
          <Col span={10}>
            <Form.Item name="code" htmlFor="enterprise-code" label={t('fields.code')}>
              <Input id="enterprise-code" maxLength={100} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="parentId"
          htmlFor="enterprise-parentId"
          label={t('fields.parent')}
          extra={t('form.parentHint')}
        >
          <Select<number>
            id="enterprise-parentId"
            allowClear
            loading={options.isLoading}
            placeholder={t('form.parentPlaceholder')}
            showSearch={{ optionFilterProp: 'label' }}
            options={parents.map((e) => ({ value: e.enterpriseId, label: e.code ? `${e.name} (${e.code})` : e.name }))}
          />
        </Form.Item>
        <Form.Item name="address" htmlFor="enterprise-address" label={t('fields.address')}>
          <Input id="enterprise-address" maxLength={300} />
        </Form.Item>
        <Form.Item name="description" htmlFor="enterprise-description" label={t('fields.description')}>
          <Input.TextArea id="enterprise-description" maxLength={2000} autoSize={{ minRows: 3, maxRows: 8 }} />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
