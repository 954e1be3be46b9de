import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Flex, Form, Input, Modal, Popconfirm, Switch, Tabs, Tag, Typography, message } from 'antd';
import { FileTextOutlined, PlusOutlined } from '@ant-design/icons';
import {
  LANGUAGES,
  TEMPLATE_PLACEHOLDERS,
  TEMPLATE_SORT_FIELDS,
  fillTemplate,
  placeholdersOf,
  type AlertTemplateRow,
} from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { fmtTime } from '../alerts/index.ts';
import {
  deleteTemplate,
  fetchTemplates,
  notificationKeys,
  saveTemplate,
  type TemplateParams,
  type TemplateValues,
} from './notificationsApi.ts';

const SAMPLE = {
  site: 'North Dam Slope',
  device: 'Piezometer P7',
  quantity: 'Water level',
  value: '16.25 m',
  level: 'Yellow',
  time: '2026-05-01 03:12',
  threshold: '15 m',
  suggestion: 'Check the dam toe',
};

const unknownPlaceholders = (text: string | undefined) =>
  placeholdersOf(text ?? '').filter((p) => !(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(p));

/** /alert/AlertTemplate: message templates (name, SMS template code, subject and content per language). */
export default function TemplatesPage() {
  const { t } = useTranslation('alertNotifications');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const table = useServerTable<TemplateParams>({ pageNum: 1, pageSize: 20 }, TEMPLATE_SORT_FIELDS, {
    filters: { keyword: 'string' },
  });
  const { params, setFilter } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
  const [editing, setEditing] = useState<AlertTemplateRow | null | undefined>(undefined);
  const [form] = Form.useForm<TemplateValues>();
  const content = Form.useWatch('content', form);
  const list = useQuery({
    queryKey: notificationKeys.templates(params),
    queryFn: () => fetchTemplates(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: notificationKeys.all });
  const save = useMutation({
    mutationFn: (v: TemplateValues) => saveTemplate(editing?.id ?? null, v),
    onSuccess: () => {
      void msg.success(t(editing ? 'common.saved' : 'common.added'));
      setEditing(undefined);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: deleteTemplate,
    onSuccess: () => {
      void msg.success(t('common.deleted'));
      table.afterDelete(list.data?.list.length ?? 0);
      void refresh();
    },
  });
  const open = (row: AlertTemplateRow | null) => {
    form.resetFields();
    form.setFieldsValue(
      row
        ? {
            name: row.name,
            smsTemplateCode: row.smsTemplateCode ?? '',
            subject: { ...row.subject },
            content: { ...row.content },
            isDefault: row.isDefault,
          }
        : { subject: {}, content: {}, isDefault: false },
    );
    setEditing(row);
  };
  const columns: ServerColumn<AlertTemplateRow>[] = [
    {
      title: t('templates.name'),
      dataIndex: 'name',
      key: 'name',
      width: 200,
      sortable: true,
      render: (v: string, r) => (
        <Flex gap={6} align="center">
          {v}
          {r.isDefault ? <Tag color="green">{t('templates.default')}</Tag> : null}
        </Flex>
      ),
    },
    {
      title: t('templates.smsCode'),
      dataIndex: 'smsTemplateCode',
      key: 'smsTemplateCode',
      width: 150,
      sortable: true,
      optional: 1,
    },
    {
      title: t('templates.content'),
      dataIndex: 'content',
      key: 'content',
      width: 380,
      render: (v: AlertTemplateRow['content']) => (
        <Flex vertical gap={2}>
          {LANGUAGES.filter((l) => v[l]).map((l) => (
            <Typography.Text key={l} ellipsis style={{ maxWidth: 360 }}>
              <Tag style={{ marginInlineEnd: 6 }}>{l}</Tag>
              {v[l]}
            </Typography.Text>
          ))}
        </Flex>
      ),
    },
    {
      title: t('common.updatedAt'),
      dataIndex: 'updatedAt',
      key: 'updatedAt',
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
            title={t('templates.deleteConfirm', { name: row.name })}
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
  const placeholderRule = {
    validator: (_r: unknown, v: string | undefined) => {
      const bad = unknownPlaceholders(v);
      return bad.length
        ? Promise.reject(new Error(t('templates.unknownPlaceholder', { names: bad.map((b) => `{${b}}`).join(', ') })))
        : Promise.resolve();
    },
  };
  return (
    <ListPage icon={<FileTextOutlined />} title={t('templates.title')} description={t('templates.description')}>
      {msgHolder}
      <ServerTable<AlertTemplateRow>
        tableId="alerts.templates"
        rowKey="id"
        data-testid="template-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(n) => t('common.total', { count: n })}
        empty={t('templates.empty')}
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => open(null)}>
            {t('templates.add')}
          </Button>
        }
        filters={
          <Input.Search
            allowClear
            style={{ width: 240 }}
            placeholder={t('templates.keyword')}
            value={keywordInput}
            onChange={(e) => setKeywordInput(e.target.value)}
            onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
          />
        }
      />
      <Modal
        open={editing !== undefined}
        title={editing ? t('templates.editTitle', { name: editing.name }) : t('templates.add')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        okButtonProps={{ loading: save.isPending }}
        onOk={() => form.submit()}
        onCancel={() => setEditing(undefined)}
        destroyOnHidden
        width={720}
      >
        <Form<TemplateValues>
          form={form}
          layout="vertical"
          onFinish={(v) => {
            if (!LANGUAGES.some((l) => (v.content?.[l] ?? '').trim())) {
              form.setFields([{ name: ['content', 'en'], errors: [t('templates.contentRequired')] }]);
              return;
            }
            save.mutate(v);
          }}
        >
          <Flex gap={12} wrap>
            <Form.Item
              name="name"
              label={t('templates.name')}
              style={{ flex: '2 1 260px' }}
              rules={[{ required: true, whitespace: true, message: t('templates.nameRequired') }]}
            >
              <Input maxLength={100} />
            </Form.Item>
            <Form.Item
              name="smsTemplateCode"
              label={t('templates.smsCode')}
              style={{ flex: '1 1 180px' }}
              rules={[{ pattern: /^[A-Za-z0-9_.-]*$/, message: t('templates.smsCodeFormat') }]}
            >
              <Input maxLength={64} placeholder="SMS_000001" />
            </Form.Item>
            <Form.Item name="isDefault" label={t('templates.default')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Flex>
          <Typography.Paragraph type="secondary">
            {t('templates.placeholders')}{' '}
            {TEMPLATE_PLACEHOLDERS.map((p) => (
              <Tag key={p} style={{ fontFamily: 'monospace' }}>{`{${p}}`}</Tag>
            ))}
          </Typography.Paragraph>
          <Tabs
            items={LANGUAGES.map((l) => ({
              key: l,
              label: t(`languages.${l}`),
              forceRender: true,
              children: (
                <>
                  <Form.Item name={['subject', l]} label={t('templates.subject')} rules={[placeholderRule]}>
                    <Input maxLength={200} />
                  </Form.Item>
                  <Form.Item name={['content', l]} label={t('templates.content')} rules={[placeholderRule]}>
                    <Input.TextArea maxLength={2000} autoSize={{ minRows: 3, maxRows: 8 }} />
                  </Form.Item>
                  {content?.[l] ? (
                    <Alert
                      type="info"
                      title={t('templates.preview')}
                      description={fillTemplate(content[l] ?? '', SAMPLE)}
                    />
                  ) : null}
                </>
              ),
            }))}
          />
        </Form>
      </Modal>
    </ListPage>
  );
}
