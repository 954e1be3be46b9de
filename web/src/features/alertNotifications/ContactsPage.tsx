import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Form, Input, Modal, Popconfirm, Select, message } from 'antd';
import { ContactsOutlined, PlusOutlined } from '@ant-design/icons';
import {
  CONTACT_SORT_FIELDS,
  LANGUAGES,
  PHONE_PATTERN,
  type AlertContactRow,
  type Language,
} from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { fmtTime } from '../alerts/index.ts';
import {
  deleteContact,
  fetchContacts,
  notificationKeys,
  saveContact,
  type ContactParams,
  type ContactValues,
} from './notificationsApi.ts';

/** /alert/alertContract: the people alerts are sent to (phone for SMS and voice, email for mail, language). */
export default function ContactsPage() {
  const { t } = useTranslation('alertNotifications');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const table = useServerTable<ContactParams>({ pageNum: 1, pageSize: 20 }, CONTACT_SORT_FIELDS, {
    filters: { keyword: 'string', language: 'string' },
  });
  const { params, setFilter } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
  const [editing, setEditing] = useState<AlertContactRow | null | undefined>(undefined);
  const [form] = Form.useForm<ContactValues>();
  const list = useQuery({
    queryKey: notificationKeys.contacts(params),
    queryFn: () => fetchContacts(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: notificationKeys.all });
  const save = useMutation({
    mutationFn: (v: ContactValues) => saveContact(editing?.id ?? null, v),
    onSuccess: () => {
      void msg.success(t(editing ? 'common.saved' : 'common.added'));
      setEditing(undefined);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: deleteContact,
    onSuccess: () => {
      void msg.success(t('common.deleted'));
      table.afterDelete(list.data?.list.length ?? 0);
      void refresh();
    },
  });
  const open = (row: AlertContactRow | null) => {
    form.resetFields();
    form.setFieldsValue(
      row
        ? { name: row.name, phone: row.phone ?? '', email: row.email ?? '', language: row.language }
        : { language: 'en' as Language },
    );
    setEditing(row);
  };
  const columns: ServerColumn<AlertContactRow>[] = [
    { title: t('contacts.name'), dataIndex: 'name', key: 'name', width: 180, sortable: true },
    { title: t('contacts.phone'), dataIndex: 'phone', key: 'phone', width: 160, sortable: true },
    { title: t('contacts.email'), dataIndex: 'email', key: 'email', width: 220, sortable: true },
    {
      title: t('contacts.language'),
      dataIndex: 'language',
      key: 'language',
      width: 110,
      sortable: true,
      render: (v: Language) => t(`languages.${v}`),
    },
    {
      title: t('contacts.groups'),
      dataIndex: 'groupIds',
      key: 'groupIds',
      width: 90,
      align: 'right',
      render: (v: number[]) => v.length,
    },
    {
      title: t('common.createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 170,
      sortable: true,
      optional: 1,
      render: fmtTime,
    },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 140,
      render: (_v, row) => (
        <Flex>
          <Button type="link" size="small" onClick={() => open(row)}>
            {t('common.edit')}
          </Button>
          <Popconfirm
            title={t('contacts.deleteConfirm', { name: row.name })}
            okText={t('common.delete')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.cancel')}
            onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
          >
            <Button type="link" size="small" danger>
              {t('common.delete')}
            </Button>
          </Popconfirm>
        </Flex>
      ),
    },
  ];
  return (
    <ListPage icon={<ContactsOutlined />} title={t('contacts.title')} description={t('contacts.description')}>
      {msgHolder}
      <ServerTable<AlertContactRow>
        tableId="alerts.contacts"
        rowKey="id"
        data-testid="contact-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(n) => t('common.total', { count: n })}
        empty={t('contacts.empty')}
        actions={
          <Button type="primary" icon={<PlusOutlined />} data-testid="contact-add" onClick={() => open(null)}>
            {t('contacts.add')}
          </Button>
        }
        filters={
          <>
            <Input.Search
              allowClear
              style={{ width: 240 }}
              placeholder={t('contacts.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
            />
            <Select<Language>
              allowClear
              style={{ width: 150 }}
              placeholder={t('contacts.allLanguages')}
              value={params.language}
              options={LANGUAGES.map((l) => ({ value: l, label: t(`languages.${l}`) }))}
              onChange={(v) => setFilter({ language: v ?? undefined })}
            />
          </>
        }
      />
      <Modal
        open={editing !== undefined}
        title={editing ? t('contacts.editTitle', { name: editing.name }) : t('contacts.add')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        okButtonProps={{ loading: save.isPending }}
        onOk={() => form.submit()}
        onCancel={() => setEditing(undefined)}
        destroyOnHidden
      >
        <Form<ContactValues> form={form} layout="vertical" onFinish={(v) => save.mutate(v)}>
          <Form.Item
            name="name"
            label={t('contacts.name')}
            rules={[{ required: true, whitespace: true, message: t('contacts.nameRequired') }]}
          >
            <Input id="contact-name" maxLength={100} />
          </Form.Item>
          <Form.Item
            name="phone"
            label={t('contacts.phone')}
            extra={t('contacts.phoneHint')}
            rules={[{ pattern: PHONE_PATTERN, message: t('contacts.phoneFormat') }]}
          >
            <Input id="contact-phone" maxLength={20} />
          </Form.Item>
          <Form.Item
            name="email"
            label={t('contacts.email')}
            rules={[
              { type: 'email', message: t('contacts.emailFormat') },
              ({ getFieldValue }) => ({
                validator: (_r, v: string | undefined) =>
                  (v ?? '').trim() || ((getFieldValue('phone') as string | undefined) ?? '').trim()
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('contacts.reachRequired'))),
              }),
            ]}
          >
            <Input id="contact-email" maxLength={200} />
          </Form.Item>
          <Form.Item name="language" label={t('contacts.language')} extra={t('contacts.languageHint')}>
            <Select options={LANGUAGES.map((l) => ({ value: l, label: t(`languages.${l}`) }))} />
          </Form.Item>
        </Form>
      </Modal>
    </ListPage>
  );
}
