import { useEffect } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Col, Form, Input, Modal, Row, Select } from 'antd';
import { personFields, type PersonRow } from '@geosentry/contract';
import { useSiteOptions } from '../../shared/sites.ts';
import { nn, retryUnlessCancelled } from '../../shared/query.ts';
import { addPerson, editPerson, fetchRoles, personKeys, type PersonFormValues } from './personsApi.ts';

export interface PersonFormModalProps {
  open: boolean;
  /** The person to edit, or null to add one. */
  person: PersonRow | null;
  /** Whether the caller may list roles (system:user); otherwise the server files the person under their role. */
  canPickRole: boolean;
  onClose: () => void;
  onSaved: (added: boolean) => void;
}

/** Adds or edits a responsible person: name, phone, position, unit, address, email, role and sites. */
export function PersonFormModal({ open, person, canPickRole, onClose, onSaved }: PersonFormModalProps) {
  const { t } = useTranslation('persons');
  const [form] = Form.useForm<PersonFormValues>();
  const isEdit = person !== null;
  const sites = useSiteOptions(open);
  const roles = useQuery({
    queryKey: personKeys.roles,
    queryFn: fetchRoles,
    enabled: open && canPickRole,
    retry: retryUnlessCancelled,
  });

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (person)
      form.setFieldsValue({
        name: person.name,
        phone: person.phone,
        title: nn(person.title),
        company: nn(person.company),
        companyAddress: nn(person.companyAddress),
        email: nn(person.email),
        roleId: person.roleId,
        platformIds: person.platformIds,
      });
  }, [open, person, form]);

  const save = useMutation({
    // Without the role picker, an edited person stays under their role (not the editor's).
    mutationFn: (v: PersonFormValues) =>
      person ? editPerson(person.id, canPickRole ? v : { ...v, roleId: person.roleId }) : addPerson(v),
    onSuccess: () => onSaved(!isEdit),
  });

  return (
    <Modal
      open={open}
      width={640}
      title={isEdit ? t('form.editTitle', { name: person.name }) : t('form.addTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'person-save' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      mask={{ closable: !save.isPending }}
    >
      <Form<PersonFormValues>
        form={form}
        layout="vertical"
        onFinish={(v) => save.mutate(v)}
        data-testid="person-form"
        style={{ marginTop: 16 }}
      >
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item
              name="name"
              label={t('fields.name')}
              rules={[{ required: true, whitespace: true, message: t('validation.nameRequired') }]}
            >
              <Input id="person-name" maxLength={100} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="phone"
              label={t('fields.phone')}
              rules={[
                { required: true, whitespace: true, message: t('validation.phoneRequired') },
                {
                  validator: (_r, v: string | undefined) =>
                    !v || personFields.phone.safeParse(v).success
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('validation.phoneInvalid'))),
                },
              ]}
            >
              <Input id="person-phone" maxLength={20} placeholder="+86 138 0000 0000" />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="title" label={t('fields.title')}>
              <Input id="person-title" maxLength={100} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="email"
              label={t('fields.email')}
              rules={[
                {
                  validator: (_r, v: string | undefined) =>
                    !v || personFields.email.safeParse(v).success
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('validation.emailInvalid'))),
                },
              ]}
            >
              <Input id="person-email" maxLength={200} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="company" label={t('fields.company')}>
          <Input id="person-company" maxLength={200} />
        </Form.Item>
        <Form.Item name="companyAddress" label={t('fields.companyAddress')}>
          <Input id="person-companyAddress" maxLength={300} />
        </Form.Item>
        {canPickRole ? (
          <Form.Item name="roleId" label={t('fields.role')} extra={t('form.roleHint')}>
            <Select<number>
              id="person-role"
              allowClear
              loading={roles.isLoading}
              placeholder={t('form.rolePlaceholder')}
              options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
              showSearch={{ optionFilterProp: 'label' }}
            />
          </Form.Item>
        ) : null}
        <Form.Item name="platformIds" label={t('fields.sites')} extra={t('form.sitesHint')}>
          <Select<number[]>
            id="person-sites"
            mode="multiple"
            allowClear
            loading={sites.isLoading}
            placeholder={t('form.sitesPlaceholder')}
            options={sites.options}
            showSearch={{ optionFilterProp: 'label' }}
            maxTagCount="responsive"
            notFoundContent={t('noSites')}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
