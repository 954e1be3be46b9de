import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Flex, Form, Input, Modal, Popconfirm, Table, Tooltip, message } from 'antd';
import { PlusOutlined, ProfileOutlined, ReloadOutlined } from '@ant-design/icons';
import type { z } from 'zod';
import type { AlertCriterionRow, alertCriterionAddBody } from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { alertKeys, deleteCriterion, fetchCriteria, saveCriterion } from './alertsApi.ts';
import { fmtTime } from './alertUi.tsx';

type Values = z.output<typeof alertCriterionAddBody>;

/** Alert criteria (name, type, description): the documented basis a rule refers to. */
export default function CriteriaPage() {
  const { t } = useTranslation('alerts');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [keyword, setKeyword] = useState('');
  const [editing, setEditing] = useState<AlertCriterionRow | null | undefined>(undefined);
  const [form] = Form.useForm<Values>();
  const q = useQuery({ queryKey: [...alertKeys.criteria, keyword], queryFn: () => fetchCriteria(keyword) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: alertKeys.criteria });
  const save = useMutation({
    mutationFn: (v: Values) => saveCriterion({ ...v, id: editing?.id }),
    onSuccess: () => {
      void msg.success(t(editing ? 'criteria.saved' : 'criteria.added'));
      setEditing(undefined);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: deleteCriterion,
    onSuccess: () => {
      void msg.success(t('criteria.deleted'));
      void refresh();
    },
  });
  const open = (row: AlertCriterionRow | null) => {
    form.resetFields();
    if (row) form.setFieldsValue({ name: row.name, type: row.type, description: row.description ?? '' });
    setEditing(row);
  };
  return (
    <Flex vertical gap={16}>
      {msgHolder}
      <PageHeaderCard
        icon={<ProfileOutlined />}
        title={t('criteria.title')}
        description={t('criteria.description')}
        extra={
          <Flex gap={8}>
            <Tooltip title={t('actions.reload')}>
              <Button icon={<ReloadOutlined />} aria-label={t('actions.reload')} onClick={() => void refresh()} />
            </Tooltip>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => open(null)}>
              {t('criteria.add')}
            </Button>
          </Flex>
        }
      />
      <Card variant="borderless">
        <Input.Search
          allowClear
          style={{ width: 260, marginBottom: 16 }}
          placeholder={t('criteria.keyword')}
          onSearch={(v) => setKeyword(v.trim())}
        />
        {q.isError ? (
          <Alert type="error" showIcon title={(q.error as Error).message} style={{ marginBottom: 12 }} />
        ) : null}
        <Table<AlertCriterionRow>
          rowKey="id"
          size="middle"
          data-testid="criteria-table"
          loading={q.isFetching}
          dataSource={q.data ?? []}
          locale={{ emptyText: t('criteria.empty') }}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          columns={[
            { title: t('criteria.name'), dataIndex: 'name', width: 220 },
            { title: t('criteria.type'), dataIndex: 'type', width: 160 },
            {
              title: t('criteria.descriptionField'),
              dataIndex: 'description',
              ellipsis: true,
              render: (v) => v ?? '-',
            },
            { title: t('criteria.rules'), dataIndex: 'ruleCount', width: 100, align: 'right' },
            { title: t('rules.updated'), dataIndex: 'updatedAt', width: 170, render: fmtTime },
            {
              title: t('fields.actions'),
              key: 'a',
              width: 140,
              render: (_v, row) => (
                <Flex>
                  <Button type="link" size="small" onClick={() => open(row)}>
                    {t('actions.edit')}
                  </Button>
                  <Popconfirm
                    title={t('criteria.deleteConfirm', { name: row.name })}
                    okText={t('actions.delete')}
                    okButtonProps={{ danger: true }}
                    cancelText={t('actions.cancel')}
                    onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
                  >
                    <Button type="link" size="small" danger>
                      {t('actions.delete')}
                    </Button>
                  </Popconfirm>
                </Flex>
              ),
            },
          ]}
        />
      </Card>
      <Modal
        open={editing !== undefined}
        title={editing ? t('criteria.editTitle', { name: editing.name }) : t('criteria.add')}
        okText={t('actions.save')}
        cancelText={t('actions.cancel')}
        okButtonProps={{ loading: save.isPending }}
        onOk={() => form.submit()}
        onCancel={() => setEditing(undefined)}
        destroyOnHidden
      >
        <Form<Values> form={form} layout="vertical" onFinish={(v) => save.mutate(v)}>
          <Form.Item
            name="name"
            label={t('criteria.name')}
            rules={[{ required: true, whitespace: true, message: t('criteria.nameRequired') }]}
          >
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item
            name="type"
            label={t('criteria.type')}
            rules={[{ required: true, whitespace: true, message: t('criteria.typeRequired') }]}
          >
            <Input maxLength={50} />
          </Form.Item>
          <Form.Item name="description" label={t('criteria.descriptionField')}>
            <Input.TextArea maxLength={2000} autoSize={{ minRows: 3, maxRows: 8 }} />
          </Form.Item>
        </Form>
      </Modal>
    </Flex>
  );
}
