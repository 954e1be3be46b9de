import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  Alert,
  Button,
  Card,
  Flex,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Table,
  Tag,
  Tooltip,
  Typography,
  message,
} from 'antd';
import type { TableColumnsType } from 'antd';
import { PlusOutlined, ReloadOutlined, TeamOutlined } from '@ant-design/icons';
import { GROUP_SORT_FIELDS, type AlertGroupRow } from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { PAGE_SIZES, useServerTable } from '../../shared/table/serverTable.ts';
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
  const [tableTop, scrollY] = useTableScrollY();
  const table = useServerTable<GroupParams>({ pageNum: 1, pageSize: 20 }, GROUP_SORT_FIELDS);
  const { params, setFilter } = table;
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
  const sortable = (key: string) => ({ key, sorter: true, sortOrder: table.sortOrderOf(key) });
  const columns: TableColumnsType<AlertGroupRow> = [
    { title: t('groups.name'), dataIndex: 'name', width: 180, ...sortable('name') },
    {
      title: t('groups.members'),
      dataIndex: 'contacts',
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
      width: 260,
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
    { title: t('groups.description'), dataIndex: 'description', width: 200, ellipsis: true, render: (v) => v ?? '-' },
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
    <Flex vertical gap={16}>
      {msgHolder}
      <PageHeaderCard
        icon={<TeamOutlined />}
        title={t('groups.title')}
        description={t('groups.description_page')}
        extra={
          <Flex gap={8}>
            <Tooltip title={t('common.reload')}>
              <Button icon={<ReloadOutlined />} aria-label={t('common.reload')} onClick={() => void refresh()} />
            </Tooltip>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => open(null)}>
              {t('groups.add')}
            </Button>
          </Flex>
        }
      />
      <Card variant="borderless" styles={{ body: { paddingBottom: 8 } }}>
        <Flex gap={12} wrap style={{ marginBottom: 16 }}>
          <Input.Search
            allowClear
            style={{ width: 240 }}
            placeholder={t('groups.keyword')}
            onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
          />
        </Flex>
        {list.isError ? (
          <Alert type="error" showIcon title={(list.error as Error).message} style={{ marginBottom: 12 }} />
        ) : null}
        <div ref={tableTop}>
          <Table<AlertGroupRow>
            rowKey="id"
            size="middle"
            data-testid="group-table"
            columns={columns}
            dataSource={list.data?.list ?? []}
            loading={list.isFetching}
            onChange={table.onChange}
            scroll={{ x: 1250, y: scrollY }}
            locale={{ emptyText: t('groups.empty') }}
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
    </Flex>
  );
}
