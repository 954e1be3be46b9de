import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Flex, Form, Input, Modal, Popconfirm, Select, Table, Tooltip, message } from 'antd';
import type { TableColumnsType } from 'antd';
import { ContactsOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { CONTACT_SORT_FIELDS, LANGUAGES, type AlertContactRow, type Language } from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { PAGE_SIZES, useServerTable } from '../../shared/table/serverTable.ts';
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

/** The contract's phone format (contract/src/devices/fields.ts). */
const PHONE_PATTERN = /^\+?[0-9][0-9\- ]{5,19}$/;

/** /alert/alertContract: the people alerts are sent to (phone for SMS and voice, email for mail, language). */
export default function ContactsPage() {
  const { t } = useTranslation('alertNotifications');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [tableTop, scrollY] = useTableScrollY();
  const table = useServerTable<ContactParams>({ pageNum: 1, pageSize: 20 }, CONTACT_SORT_FIELDS);
  const { params, setFilter } = table;
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
  const sortable = (key: string) => ({ key, sorter: true, sortOrder: table.sortOrderOf(key) });
  const columns: TableColumnsType<AlertContactRow> = [
    { title: t('contacts.name'), dataIndex: 'name', width: 180, ...sortable('name') },
    { title: t('contacts.phone'), dataIndex: 'phone', width: 160, ...sortable('phone'), render: (v) => v ?? '-' },
    { title: t('contacts.email'), dataIndex: 'email', width: 220, ...sortable('email'), render: (v) => v ?? '-' },
    {
      title: t('contacts.language'),
      dataIndex: 'language',
      width: 110,
      ...sortable('language'),
      render: (v: Language) => t(`languages.${v}`),
    },
    {
      title: t('contacts.groups'),
      dataIndex: 'groupIds',
      width: 90,
      align: 'right',
      render: (v: number[]) => v.length,
    },
    { title: t('common.createdAt'), dataIndex: 'createdAt', width: 170, ...sortable('createdAt'), render: fmtTime },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 140,
      fixed: 'right',
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
    <Flex vertical gap={16}>
      {msgHolder}
      <PageHeaderCard
        icon={<ContactsOutlined />}
        title={t('contacts.title')}
        description={t('contacts.description')}
        extra={
          <Flex gap={8}>
            <Tooltip title={t('common.reload')}>
              <Button icon={<ReloadOutlined />} aria-label={t('common.reload')} onClick={() => void refresh()} />
            </Tooltip>
            <Button type="primary" icon={<PlusOutlined />} data-testid="contact-add" onClick={() => open(null)}>
              {t('contacts.add')}
            </Button>
          </Flex>
        }
      />
      <Card variant="borderless" styles={{ body: { paddingBottom: 8 } }}>
        <Flex gap={12} wrap style={{ marginBottom: 16 }}>
          <Input.Search
            allowClear
            style={{ width: 240 }}
            placeholder={t('contacts.keyword')}
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
        </Flex>
        {list.isError ? (
          <Alert type="error" showIcon title={(list.error as Error).message} style={{ marginBottom: 12 }} />
        ) : null}
        <div ref={tableTop}>
          <Table<AlertContactRow>
            rowKey="id"
            size="middle"
            data-testid="contact-table"
            columns={columns}
            dataSource={list.data?.list ?? []}
            loading={list.isFetching}
            onChange={table.onChange}
            scroll={{ x: 1070, y: scrollY }}
            locale={{ emptyText: t('contacts.empty') }}
            pagination={{
              current: params.pageNum,
              pageSize: params.pageSize,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              pageSizeOptions: PAGE_SIZES,
              showTotal: (n) => t('common.total', { count: n }),
            }}
          />
        </div>
      </Card>
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
    </Flex>
  );
}
