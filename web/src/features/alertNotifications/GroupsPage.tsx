import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Form, Input, Modal, Popconfirm, Select, Tag, Typography, message } from 'antd';
import { PlusOutlined, TeamOutlined } from '@ant-design/icons';
import { GROUP_SORT_FIELDS, type AlertGroupRow } from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { useMonitorSites } from '../../shared/monitorSites.ts';
import { fmtTime } from '../alerts/index.ts';
import {
  deleteGroup,
  fetchContactOptions,
  fetchGroups,
  notificationKeys,
  saveGroup,
  type GroupParams,
  type GroupValues,
} from './notificationsApi.ts';

/** /alert/alertGroup: contact groups (members, and the sites whose alerts they are told about). */
export default function GroupsPage() {
  const { t } = useTranslation('alertNotifications');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const table = useServerTable<GroupParams>({ pageNum: 1, pageSize: 20 }, GROUP_SORT_FIELDS, {
    filters: { keyword: 'string' },
  });
  const { params, setFilter } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
  const [editing, setEditing] = useState<AlertGroupRow | null | undefined>(undefined);
  const [form] = Form.useForm<GroupValues>();
  const { sites } = useMonitorSites();
  const list = useQuery({
    queryKey: notificationKeys.groups(params),
    queryFn: () => fetchGroups(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const contacts = useQuery({
    queryKey: notificationKeys.contactOptions,
    queryFn: fetchContactOptions,
    enabled: editing !== undefined,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: notificationKeys.all });
  const save = useMutation({
    mutationFn: (v: GroupValues) => saveGroup(editing?.id ?? null, v),
    onSuccess: () => {
      void msg.success(t(editing ? 'common.saved' : 'common.added'));
      setEditing(undefined);
      void refresh();
      void queryClient.invalidateQueries({ queryKey: ['alerts', 'groupOptions'] });
    },
  });
  const remove = useMutation({
    mutationFn: deleteGroup,
    onSuccess: () => {
      void msg.success(t('common.deleted'));
      table.afterDelete(list.data?.list.length ?? 0);
      void refresh();
    },
  });
  const open = (row: AlertGroupRow | null) => {
    form.resetFields();
    if (row)
      form.setFieldsValue({
        name: row.name,
        description: row.description ?? '',
        contactIds: row.contactIds,
        platformIds: row.platformIds,
      });
    setEditing(row);
  };
  const siteName = (id: number) => sites.find((s) => s.platformId === id)?.name ?? `#${id}`;
  const columns: ServerColumn<AlertGroupRow>[] = [
    { title: t('groups.name'), dataIndex: 'name', key: 'name', width: 180, sortable: true },
    {
      title: t('groups.members'),
      dataIndex: 'contacts',
      key: 'contacts',
      width: 300,
      render: (v: AlertGroupRow['contacts']) =>
        v.length ? (
          <Flex gap={4} wrap>
            {v.map((c) => (
              <Tag key={c.id} style={{ marginInlineEnd: 0 }}>
                {c.name}
              </Tag>
            ))}
          </Flex>
        ) : (
          <Typography.Text type="warning">{t('groups.noMembers')}</Typography.Text>
        ),
    },
    {
      title: t('groups.sites'),
      dataIndex: 'platformIds',
      key: 'platformIds',
      width: 260,
      optional: 2,
      render: (v: number[]) =>
        v.length ? (
          <Flex gap={4} wrap>
            {v.map((id) => (
              <Tag key={id} color="blue" style={{ marginInlineEnd: 0 }}>
                {siteName(id)}
              </Tag>
            ))}
          </Flex>
        ) : (
          t('groups.allSites')
        ),
    },
    { title: t('groups.description'), dataIndex: 'description', key: 'description', width: 200, optional: 1 },
    {
      title: t('common.createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 170,
      sortable: true,
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
            title={t('groups.deleteConfirm', { name: row.name })}
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
    <ListPage icon={<TeamOutlined />} title={t('groups.title')} description={t('groups.description_page')}>
      {msgHolder}
      <ServerTable<AlertGroupRow>
        tableId="alerts.groups"
        rowKey="id"
        data-testid="group-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(n) => t('common.total', { count: n })}
        empty={t('groups.empty')}
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => open(null)}>
            {t('groups.add')}
          </Button>
        }
        filters={
          <Input.Search
            allowClear
            style={{ width: 240 }}
            placeholder={t('groups.keyword')}
            value={keywordInput}
            onChange={(e) => setKeywordInput(e.target.value)}
            onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
          />
        }
      />
      <Modal
        open={editing !== undefined}
        title={editing ? t('groups.editTitle', { name: editing.name }) : t('groups.add')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        okButtonProps={{ loading: save.isPending }}
        onOk={() => form.submit()}
        onCancel={() => setEditing(undefined)}
        destroyOnHidden
        width={620}
      >
        <Form<GroupValues> form={form} layout="vertical" onFinish={(v) => save.mutate(v)}>
          <Form.Item
            name="name"
            label={t('groups.name')}
            rules={[{ required: true, whitespace: true, message: t('groups.nameRequired') }]}
          >
            <Input id="group-name" maxLength={100} />
          </Form.Item>
          <Form.Item name="contactIds" label={t('groups.members')}>
            <Select
              mode="multiple"
              showSearch={{ optionFilterProp: 'label' }}
              loading={contacts.isFetching}
              options={(contacts.data ?? []).map((c) => ({
                value: c.id,
                label: `${c.name}${c.phone ? ` · ${c.phone}` : ''}${c.email ? ` · ${c.email}` : ''}`,
              }))}
            />
          </Form.Item>
          <Form.Item name="platformIds" label={t('groups.sites')} extra={t('groups.sitesHint')}>
            <Select
              mode="multiple"
              showSearch={{ optionFilterProp: 'label' }}
              options={sites.map((s) => ({ value: s.platformId, label: s.name }))}
            />
          </Form.Item>
          <Form.Item name="description" label={t('groups.description')}>
            <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
          </Form.Item>
        </Form>
      </Modal>
    </ListPage>
  );
}
