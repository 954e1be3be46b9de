import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Col,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Row,
  Select,
  Space,
  Typography,
  message,
} from 'antd';
import {
  ClearOutlined,
  EditOutlined,
  ImportOutlined,
  PlusOutlined,
  RadarChartOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import { DEFAULT_AREA_RULE, ringProblem, type AreaPoint, type AreaRow } from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { useSiteOptions } from '../../shared/sites.ts';
import { AreaMap } from './AreaMap.tsx';
import { AreaTable, useAreaList } from './AreaList.tsx';
import { deleteArea, fetchArea, parseAreaFile, saveArea } from './areasApi.ts';

interface Values {
  platformId?: number;
  name: string;
  description?: string;
  steps: { level: number; count: number; makes: number }[];
}

/** Adds or edits an area: site, name, the rule's steps, the polygon clicked on the map or read from a file. */
function AreaEditor({
  editing,
  open,
  onClose,
  onSaved,
}: {
  editing: AreaRow | null;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('areas');
  const { options } = useSiteOptions();
  const [form] = Form.useForm<Values>();
  const [points, setPoints] = useState<AreaPoint[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [fitKey, setFitKey] = useState(0);
  const file = useRef<HTMLInputElement | null>(null);

  useEffect(() => {
    if (!open) return;
    setError(null);
    if (!editing) {
      form.resetFields();
      form.setFieldsValue({ steps: DEFAULT_AREA_RULE.steps });
      setPoints([]);
      return;
    }
    void fetchArea(editing.id).then((a) => {
      form.setFieldsValue({
        platformId: a.platformId,
        name: a.name,
        description: a.description ?? '',
        steps: a.rule.steps,
      });
      setPoints(a.points);
      setFitKey((k) => k + 1);
    });
  }, [open, editing, form]);

  const problem =
    points.length >= 3 ? ringProblem(points.map((p) => [p.lon, p.lat])) : points.length ? 'tooFewPoints' : null;
  const save = useMutation({
    mutationFn: (v: Values) =>
      saveArea({
        ...(editing ? { id: editing.id } : {}),
        platformId: v.platformId!,
        name: v.name,
        description: v.description ?? '',
        points,
        rule: { steps: v.steps ?? [] },
      }),
    onSuccess: onSaved,
    onError: (e) => setError(e instanceof Error ? e.message : String(e)),
  });
  const levelOptions = [1, 2, 3, 4].map((l) => ({ value: l, label: t(`level.${l}`) }));
  return (
    <Modal
      open={open}
      width={1080}
      title={editing ? t('manage.edit') : t('manage.add')}
      onCancel={onClose}
      destroyOnHidden
      okText={t('manage.save')}
      cancelText={t('manage.cancel')}
      okButtonProps={{ 'data-testid': 'area-save', loading: save.isPending }}
      onOk={() => void form.validateFields().then((v) => save.mutate(v))}
    >
      {error ? (
        <Alert type="error" showIcon title={error} data-testid="area-error" style={{ marginBottom: 12 }} />
      ) : null}
      <Row gutter={16}>
        <Col flex="340px">
          <Form<Values> form={form} layout="vertical" requiredMark={false}>
            <Form.Item
              name="platformId"
              label={t('col.site')}
              htmlFor="area-platform"
              rules={[{ required: true, message: t('manage.siteRequired') }]}
            >
              <Select<number>
                id="area-platform"
                data-testid="area-platform"
                showSearch
                optionFilterProp="label"
                options={options}
              />
            </Form.Item>
            <Form.Item
              name="name"
              label={t('col.name')}
              htmlFor="area-name"
              rules={[{ required: true, whitespace: true, message: t('manage.nameRequired') }]}
            >
              <Input id="area-name" maxLength={100} />
            </Form.Item>
            <Form.Item name="description" label={t('manage.descriptionField')} htmlFor="area-description">
              <Input.TextArea id="area-description" maxLength={500} rows={2} />
            </Form.Item>
            <Typography.Text strong>{t('manage.rule')}</Typography.Text>
            <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 6 }}>
              {t('manage.ruleHelp')}
            </Typography.Paragraph>
            <Form.List name="steps">
              {(fields, { add, remove }) => (
                <Flex vertical gap={6}>
                  {fields.map((f) => (
                    <Space key={f.key} size={4} align="center" wrap={false}>
                      <Form.Item name={[f.name, 'count']} noStyle rules={[{ required: true }]}>
                        <InputNumber<number>
                          min={1}
                          max={100000}
                          style={{ width: 64 }}
                          aria-label={t('manage.count')}
                        />
                      </Form.Item>
                      <Form.Item name={[f.name, 'level']} noStyle>
                        <Select<number>
                          options={levelOptions}
                          style={{ width: 82 }}
                          aria-label={t('manage.countLevel')}
                        />
                      </Form.Item>
                      <span>→</span>
                      <Form.Item name={[f.name, 'makes']} noStyle>
                        <Select<number> options={levelOptions} style={{ width: 82 }} aria-label={t('manage.makes')} />
                      </Form.Item>
                      <Button
                        size="small"
                        type="text"
                        onClick={() => remove(f.name)}
                        aria-label={t('manage.removeStep')}
                      >
                        ×
                      </Button>
                    </Space>
                  ))}
                  <Button
                    size="small"
                    type="dashed"
                    onClick={() => add({ level: 1, count: 3, makes: 2 })}
                    disabled={fields.length >= 10}
                  >
                    {t('manage.addStep')}
                  </Button>
                </Flex>
              )}
            </Form.List>
          </Form>
        </Col>
        <Col flex="1" style={{ minWidth: 0 }}>
          <Flex justify="space-between" align="center" style={{ marginBottom: 8 }} wrap gap={8}>
            <Typography.Text type="secondary">{t('manage.drawHelp', { count: points.length })}</Typography.Text>
            <Space>
              <Button
                size="small"
                icon={<UndoOutlined />}
                disabled={!points.length}
                onClick={() => setPoints((p) => p.slice(0, -1))}
              >
                {t('manage.undo')}
              </Button>
              <Button size="small" icon={<ClearOutlined />} disabled={!points.length} onClick={() => setPoints([])}>
                {t('manage.clear')}
              </Button>
              <input
                ref={file}
                type="file"
                hidden
                accept=".kml,.kmz,.geojson,.json"
                data-testid="area-file-input"
                onChange={(e) => {
                  const f = e.target.files?.[0];
                  e.target.value = '';
                  if (!f) return;
                  setError(null);
                  parseAreaFile(f)
                    .then((polys) => {
                      const first = polys[0]!;
                      setPoints(first.points);
                      if (first.name && !form.getFieldValue('name')) form.setFieldsValue({ name: first.name });
                      setFitKey((k) => k + 1);
                    })
                    .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)));
                }}
              />
              <Button
                size="small"
                icon={<ImportOutlined />}
                onClick={() => file.current?.click()}
                data-testid="area-file"
              >
                {t('manage.import')}
              </Button>
            </Space>
          </Flex>
          <AreaMap points={points} editable onAdd={(p) => setPoints((ps) => [...ps, p])} fitKey={fitKey} height={440} />
          {problem ? (
            <Typography.Text type={problem === 'tooFewPoints' ? 'secondary' : 'danger'} data-testid="area-problem">
              {t(`problem.${problem}`)}
            </Typography.Text>
          ) : null}
        </Col>
      </Row>
    </Modal>
  );
}

/**
 * Area monitoring > Area management (areasmosmanage, area:manage): the areas list (server paged, sorted, filtered),
 * add, edit, delete; the polygon drawn on the map or imported from KML/KMZ/GeoJSON. Test hooks: area-add,
 * area-edit, area-delete, area-save, area-platform, #area-name, area-file(-input), area-error.
 */
export default function AreaManagePage() {
  const { t } = useTranslation('areas');
  const qc = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const state = useAreaList(false);
  const [editor, setEditor] = useState<{ editing: AreaRow | null } | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ['areas'] });
  return (
    <ListPage icon={<RadarChartOutlined />} title={t('manage.title')} description={t('manage.description')}>
      {msgHolder}
      <AreaTable
        tableId="areas.manage"
        state={state}
        actions={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            data-testid="area-add"
            onClick={() => setEditor({ editing: null })}
          >
            {t('manage.add')}
          </Button>
        }
        extraColumns={[
          {
            title: t('col.actions'),
            key: 'actions',
            width: 150,
            render: (_v, row) => (
              <Space>
                <Button
                  type="link"
                  size="small"
                  icon={<EditOutlined />}
                  data-testid="area-edit"
                  onClick={() => setEditor({ editing: row })}
                >
                  {t('manage.editShort')}
                </Button>
                <DeleteAction
                  title={t('manage.confirmDelete', { name: row.name })}
                  label={t('manage.delete')}
                  data-testid="area-delete"
                  onDelete={() => deleteArea(row.id)}
                  success={t('manage.deleted')}
                  onDone={() => {
                    state.table.afterDelete(state.list.data?.list.length ?? 0);
                    void refresh();
                  }}
                />
              </Space>
            ),
          },
        ]}
      />
      <AreaEditor
        open={editor !== null}
        editing={editor?.editing ?? null}
        onClose={() => setEditor(null)}
        onSaved={() => {
          void msg.success(editor?.editing ? t('manage.modified') : t('manage.added'));
          setEditor(null);
          void refresh();
        }}
      />
    </ListPage>
  );
}
