import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Col, Flex, Form, Input, Row, Select, Skeleton, Typography, message } from 'antd';
import { BgColorsOutlined, SaveOutlined } from '@ant-design/icons';
import { LANGUAGES, type AlertLevelRow, type PerLanguageText } from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { levelHex, levelInk } from '../alerts/index.ts';
import {
  fetchContactOptions,
  fetchLevels,
  fetchTemplateOptions,
  notificationKeys,
  saveLevel,
} from './notificationsApi.ts';

interface LevelValues {
  contactIds: number[];
  templateId?: number | undefined;
  suggestion: PerLanguageText;
}

function LevelCard({ row }: { row: AlertLevelRow }) {
  const { t } = useTranslation('alertNotifications');
  const { t: ta } = useTranslation('alerts');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [form] = Form.useForm<LevelValues>();
  const contacts = useQuery({ queryKey: notificationKeys.contactOptions, queryFn: fetchContactOptions, retry: false });
  const templates = useQuery({
    queryKey: notificationKeys.templateOptions,
    queryFn: fetchTemplateOptions,
    retry: false,
  });
  useEffect(() => {
    form.setFieldsValue({
      contactIds: row.contactIds,
      templateId: row.templateId ?? undefined,
      suggestion: { ...row.suggestion },
    });
  }, [row, form]);
  const save = useMutation({
    mutationFn: (v: LevelValues) => saveLevel({ level: row.level, ...v }),
    onSuccess: () => {
      void msg.success(t('common.saved'));
      void queryClient.invalidateQueries({ queryKey: notificationKeys.levels });
    },
  });
  const hex = levelHex(row.level);
  return (
    <Card
      variant="borderless"
      data-testid={`level-card-${row.level}`}
      style={{ borderTop: `6px solid ${hex}` }}
      title={
        <Flex gap={8} align="center">
          <span
            style={{
              background: hex,
              color: levelInk(row.level),
              borderRadius: 4,
              padding: '2px 10px',
              fontWeight: 700,
            }}
          >
            {ta('levels.short', { level: row.level })} · {ta(`levels.${row.level}`)}
          </span>
          <Typography.Text type="secondary" style={{ fontWeight: 400 }}>
            #{row.hex.replace(/^#/, '')}
          </Typography.Text>
        </Flex>
      }
      extra={
        <Button type="primary" icon={<SaveOutlined />} loading={save.isPending} onClick={() => form.submit()}>
          {t('common.save')}
        </Button>
      }
    >
      {msgHolder}
      <Form<LevelValues> form={form} layout="vertical" onFinish={(v) => save.mutate(v)}>
        <Form.Item name="contactIds" label={t('levels.members')} extra={t('levels.membersHint')}>
          <Select
            mode="multiple"
            showSearch={{ optionFilterProp: 'label' }}
            options={(contacts.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          />
        </Form.Item>
        <Form.Item name="templateId" label={t('levels.template')}>
          <Select
            allowClear
            placeholder={t('levels.defaultTemplate')}
            options={(templates.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
          />
        </Form.Item>
        {LANGUAGES.map((l) => (
          <Form.Item
            key={l}
            name={['suggestion', l]}
            label={`${t('levels.suggestion')} (${t(`languages.${l}`)})`}
            style={{ marginBottom: 8 }}
          >
            <Input.TextArea maxLength={1000} autoSize={{ minRows: 1, maxRows: 4 }} />
          </Form.Item>
        ))}
      </Form>
    </Card>
  );
}

/** /alert/AlertConfigure: the four colour levels, each with the members always told, a template and a suggestion. */
export default function LevelsPage() {
  const { t } = useTranslation('alertNotifications');
  const q = useQuery({ queryKey: notificationKeys.levels, queryFn: fetchLevels });
  return (
    <Flex vertical gap={16} data-testid="levels-list">
      <PageHeaderCard icon={<BgColorsOutlined />} title={t('levels.title')} description={t('levels.description')} />
      {q.isError ? <Alert type="error" showIcon title={(q.error as Error).message} /> : null}
      {q.isLoading ? <Skeleton active /> : null}
      <Row gutter={[16, 16]}>
        {(q.data ?? []).map((row) => (
          <Col xs={24} xl={12} key={row.level}>
            <LevelCard row={row} />
          </Col>
        ))}
      </Row>
    </Flex>
  );
}
