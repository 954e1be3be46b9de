import { useEffect, useMemo } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { roleLabel } from '../../shared/labels.ts';
import { Alert, Button, Col, Divider, Drawer, Flex, Form, Input, Radio, Row, Select, Typography } from 'antd';
import { PLATFORM_TYPES, SUPER_ADMIN_ROLE, type PlatformOption, type UserRow } from '@geosentry/contract';
import {
  addUser,
  editUser,
  fetchAllRoles,
  fetchSiteOptions,
  retryUnlessCancelled,
  userKeys,
  type UserFormValues,
} from './usersApi.ts';
import { accountRules, emailRules, passwordRules, phoneRules } from './userValidation.ts';

export interface UserFormDrawerProps {
  open: boolean;
  /** The user to edit, or null to add one. */
  user: UserRow | null;
  /** The signed-in user's id: they cannot change their own role. */
  selfId: number | null;
  /** Whether the signed-in user is a super administrator: only they see (and may give) that role. */
  superAdmin: boolean;
  /** Whether the signed-in user may list sites (permission system:data) to set the data scope. */
  canEditScope: boolean;
  onClose: () => void;
  onSaved: (added: boolean) => void;
}

/** Groups sites by kind for the data-scope picker, kinds in the product's order. */
function groupSites(sites: PlatformOption[], typeLabel: (type: string) => string) {
  const order = (type: string) => {
    const i = (PLATFORM_TYPES as readonly string[]).indexOf(type);
    return i < 0 ? PLATFORM_TYPES.length : i;
  };
  const byType = new Map<string, PlatformOption[]>();
  for (const s of sites) byType.set(s.type, [...(byType.get(s.type) ?? []), s]);
  return [...byType.entries()]
    .sort(([a], [b]) => order(a) - order(b) || a.localeCompare(b))
    .map(([type, list]) => ({
      label: typeLabel(type),
      title: typeLabel(type),
      options: list.map((s) => ({ value: s.platformId, label: s.name })),
    }));
}

/** Adds or edits a user: account and password (add only), name, role, contact details, area and data scope. */
export function UserFormDrawer({
  open,
  user,
  selfId,
  superAdmin,
  canEditScope,
  onClose,
  onSaved,
}: UserFormDrawerProps) {
  const { t } = useTranslation('users');
  const [form] = Form.useForm<UserFormValues>();
  const isEdit = user !== null;
  const isSelf = isEdit && user.id === selfId;
  const scopeAll = Form.useWatch('scopeAll', form);

  const roles = useQuery({
    queryKey: userKeys.roles,
    queryFn: fetchAllRoles,
    enabled: open,
    retry: retryUnlessCancelled,
  });
  const sites = useQuery({
    queryKey: userKeys.sites,
    queryFn: fetchSiteOptions,
    enabled: open && canEditScope,
    retry: retryUnlessCancelled,
  });
  const siteGroups = useMemo(
    () => groupSites(sites.data ?? [], (type) => t(`siteTypes.${type}`, { defaultValue: type })),
    [sites.data, t],
  );

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (user) {
      form.setFieldsValue({
        name: user.name,
        roleId: user.roleId,
        phone: user.phone ?? undefined,
        email: user.email ?? undefined,
        area: user.area ?? undefined,
        scopeAll: user.scopeAll,
        platformIds: user.platformIds,
      });
    } else {
      form.setFieldsValue({ scopeAll: false, platformIds: [] });
    }
  }, [open, user, form]);

  const save = useMutation({
    mutationFn: (v: UserFormValues) => (user ? editUser(user.id, v) : addUser(v)),
    onSuccess: () => onSaved(!isEdit),
  });

  const onFinish = (v: UserFormValues) => {
    // The data scope is only sent as shown; without the right to list sites the stored scope is kept.
    const values = canEditScope || !user ? v : { ...v, scopeAll: user.scopeAll, platformIds: user.platformIds };
    save.mutate(values);
  };

  return (
    <Drawer
      open={open}
      size={600}
      title={isEdit ? t('form.editTitle', { account: user.account }) : t('form.addTitle')}
      onClose={onClose}
      mask={{ closable: !save.isPending }}
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" data-testid="user-save" loading={save.isPending} onClick={() => form.submit()}>
            {t('common.save')}
          </Button>
        </Flex>
      }
    >
      <Form<UserFormValues> form={form} layout="vertical" onFinish={onFinish} requiredMark data-testid="user-form">
        <Divider titlePlacement="start" plain style={{ marginTop: 0 }}>
          {t('form.sectionAccount')}
        </Divider>
        {isEdit ? (
          <Form.Item label={t('fields.account')}>
            <Typography.Text strong>{user.account}</Typography.Text>
          </Form.Item>
        ) : (
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item
                name="account"
                label={t('fields.account')}
                rules={accountRules(t)}
                extra={t('form.accountHint')}
              >
                <Input id="user-account" autoComplete="off" maxLength={64} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="password"
                label={t('fields.password')}
                rules={passwordRules(t, () => form.getFieldValue('account') as string | undefined)}
                extra={t('form.passwordHint')}
              >
                <Input.Password id="user-password" autoComplete="new-password" maxLength={256} />
              </Form.Item>
            </Col>
          </Row>
        )}
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item
              name="name"
              label={t('fields.name')}
              rules={[{ required: true, whitespace: true, message: t('validation.nameRequired') }]}
            >
              <Input id="user-name" maxLength={100} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="roleId"
              label={t('fields.role')}
              rules={[{ required: true, message: t('validation.roleRequired') }]}
              extra={isSelf ? t('self.cannotChangeRole') : undefined}
            >
              <Select<number>
                id="user-role"
                disabled={isSelf}
                loading={roles.isLoading}
                placeholder={t('form.rolePlaceholder')}
                showSearch={{ optionFilterProp: 'label' }}
                options={(roles.data ?? [])
                  .filter((r) => superAdmin || r.code !== SUPER_ADMIN_ROLE)
                  .map((r) => ({ value: r.id, label: roleLabel(r) }))}
              />
            </Form.Item>
          </Col>
        </Row>
        <Divider titlePlacement="start" plain>
          {t('form.sectionContact')}
        </Divider>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="phone" label={t('fields.phone')} rules={phoneRules(t)}>
              <Input id="user-phone" maxLength={20} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="email" label={t('fields.email')} rules={emailRules(t)}>
              <Input id="user-email" maxLength={200} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="area" label={t('fields.area')}>
          <Input id="user-area" maxLength={200} />
        </Form.Item>
        <Divider titlePlacement="start" plain>
          {t('fields.dataScope')}
        </Divider>
        {!canEditScope ? (
          <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('scope.noPermission')} />
        ) : null}
        <Form.Item name="scopeAll">
          <Radio.Group
            disabled={!canEditScope}
            options={[
              { value: true, label: t('scope.all') },
              { value: false, label: t('scope.selected') },
            ]}
          />
        </Form.Item>
        {scopeAll === false ? (
          <Form.Item name="platformIds" extra={t('scope.hint')}>
            <Select<number[]>
              id="user-sites"
              mode="multiple"
              allowClear
              disabled={!canEditScope}
              loading={sites.isLoading}
              placeholder={t('scope.placeholder')}
              showSearch={{ optionFilterProp: 'label' }}
              maxTagCount="responsive"
              options={siteGroups}
              notFoundContent={t('scope.noSites')}
            />
          </Form.Item>
        ) : (
          <Typography.Paragraph type="secondary">{t('scope.allHint')}</Typography.Paragraph>
        )}
      </Form>
    </Drawer>
  );
}
