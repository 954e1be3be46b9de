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
  Switch,
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
  message,
} from 'antd';
import type { TableColumnsType } from 'antd';
import { FileTextOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  LANGUAGES,
  TEMPLATE_PLACEHOLDERS,
  TEMPLATE_SORT_FIELDS,
  fillTemplate,
  placeholdersOf,
  type AlertTemplateRow,
} from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { PAGE_SIZES, useServerTable } from '../../shared/table/serverTable.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { fmtTime } from '../alerts/index.ts';
import {
  deleteTemplate,
  fetchTemplates,
  notificationKeys,
  saveTemplate,
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
  const [tableTop, scrollY] = useTableScrollY();
  const table = useServerTable<{ pageNum: number; pageSize: number; keyword?: string | undefined }>(
    { pageNum: 1, pageSize: 20 },
    TEMPLATE_SORT_FIELDS,
  );
  const { params, setFilter } = table;
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
  const sortable = (key: string) => ({ key, sorter: true, sortOrder: table.sortOrderOf(key) });
  const columns: TableColumnsType<AlertTemplateRow> = [
    {
      title: t('templates.name'),
      dataIndex: 'name',
      width: 200,
      ...sortable('name'),
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
      width: 150,
      ...sortable('smsTemplateCode'),
      render: (v) => v ?? '-',
    },
    {
      title: t('templates.content'),
      dataIndex: 'content',
      render: (v: AlertTemplateRow['content']) => (
        <Flex vertical gap={2}>
          {LANGUAGES.filter((l) => v[l]).map((l) => (
            <Typography.Text key={l} ellipsis style={{ maxWidth: 560 }}>
              <Tag style={{ marginInlineEnd: 6 }}>{l}</Tag>
              {v[l]}
            </Typography.Text>
          ))}
        </Flex>
      ),
    },
    { title: t('common.updatedAt'), dataIndex: 'updatedAt', width: 170, ...sortable('updatedAt'), render: fmtTime },
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
    <Flex vertical gap={16}>
      {msgHolder}
      <PageHeaderCard
        icon={<FileTextOutlined />}
        title={t('templates.title')}
        description={t('templates.description')}
        extra={
          <Flex gap={8}>
            <Tooltip title={t('common.reload')}>
              <Button icon={<ReloadOutlined />} aria-label={t('common.reload')} onClick={() => void refresh()} />
            </Tooltip>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => open(null)}>
              {t('templates.add')}
            </Button>
          </Flex>
        }
      />
      <Card variant="borderless" styles={{ body: { paddingBottom: 8 } }}>
        <Flex gap={12} wrap style={{ marginBottom: 16 }}>
          <Input.Search
            allowClear
            style={{ width: 240 }}
            placeholder={t('templates.keyword')}
            onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
          />
        </Flex>
        {list.isError ? (
          <Alert type="error" showIcon title={(list.error as Error).message} style={{ marginBottom: 12 }} />
        ) : null}
        <div ref={tableTop}>
          <Table<AlertTemplateRow>
            rowKey="id"
            size="middle"
            data-testid="template-table"
            columns={columns}
            dataSource={list.data?.list ?? []}
            loading={list.isFetching}
            onChange={table.onChange}
            scroll={{ x: 1100, y: scrollY }}
            locale={{ emptyText: t('templates.empty') }}
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
    </Flex>
  );
}
