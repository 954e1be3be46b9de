import { useEffect } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Col, Form, Input, InputNumber, Modal, Row, Typography } from 'antd';
import type { RegionNode } from '@geosentry/contract';
import { addRegion, editRegion, type RegionFormValues } from './regionsApi.ts';

/** What the modal does: add a country (no parent), add below a region, or edit a region. */
export type RegionEdit =
  { mode: 'add'; parent: RegionNode | null; siblings: number } | { mode: 'edit'; region: RegionNode };

const CODE_PATTERN = /^[A-Za-z0-9-]+$/;

/** Adds or renames a region: code (on add), names in English, Chinese and Korean, order. Inputs: #region-<field>. */
export function RegionFormModal({
  edit,
  onClose,
  onSaved,
}: {
  edit: RegionEdit | null;
  onClose: () => void;
  onSaved: (added: boolean, code: string, parentCode: string | null) => void;
}) {
  const { t } = useTranslation('regions');
  const [form] = Form.useForm<RegionFormValues>();
  const open = edit !== null;

  useEffect(() => {
    if (!edit) return;
    form.resetFields();
    if (edit.mode === 'edit')
      form.setFieldsValue({
        code: edit.region.code,
        nameEn: edit.region.nameEn,
        nameZh: edit.region.nameZh,
        nameKo: edit.region.nameKo,
        sort: edit.region.sort,
      });
    // A new region goes after its siblings.
    else form.setFieldsValue({ sort: edit.siblings });
  }, [edit, form]);

  const save = useMutation({
    mutationFn: (v: RegionFormValues) =>
      edit?.mode === 'edit' ? editRegion(v) : addRegion({ ...v, parentCode: edit?.parent?.code }),
    onSuccess: (_d, v) =>
      onSaved(edit?.mode !== 'edit', v.code.trim(), edit?.mode === 'add' ? (edit.parent?.code ?? null) : null),
  });

  const title =
    edit?.mode === 'edit'
      ? t('form.editTitle', { name: edit.region.name })
      : edit?.parent
        ? t('form.addChildTitle', { name: edit.parent.name })
        : t('form.addRootTitle');

  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      okText={t('form.save')}
      cancelText={t('form.cancel')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'region-save' }}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      {edit?.mode === 'add' && edit.parent ? (
        <Typography.Paragraph type="secondary">
          {t('form.parent', { name: edit.parent.name, level: t(`levels.${edit.parent.level + 1}`) })}
        </Typography.Paragraph>
      ) : null}
      <Form<RegionFormValues> form={form} name="region" layout="vertical" onFinish={(v) => save.mutate(v)}>
        <Row gutter={16}>
          <Col span={14}>
            <Form.Item
              name="code"
              htmlFor="region-code"
              label={t('fields.code')}
              extra={edit?.mode === 'edit' ? t('form.codeFixed') : t('form.codeHint')}
              rules={[
                { required: true, whitespace: true, message: t('validation.codeRequired') },
                { max: 20, message: t('validation.codePattern') },
                { pattern: CODE_PATTERN, message: t('validation.codePattern') },
              ]}
            >
              <Input id="region-code" maxLength={20} disabled={edit?.mode === 'edit'} />
            </Form.Item>
          </Col>
          <Col span={10}>
            <Form.Item name="sort" htmlFor="region-sort" label={t('fields.sort')}>
              <InputNumber<number> id="region-sort" min={0} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="nameEn"
          htmlFor="region-nameEn"
          label={t('fields.nameEn')}
          rules={[{ required: true, whitespace: true, message: t('validation.nameRequired') }]}
        >
          <Input id="region-nameEn" maxLength={100} />
        </Form.Item>
        <Form.Item name="nameZh" htmlFor="region-nameZh" label={t('fields.nameZh')} extra={t('form.nameDefault')}>
          <Input id="region-nameZh" maxLength={100} />
        </Form.Item>
        <Form.Item name="nameKo" htmlFor="region-nameKo" label={t('fields.nameKo')} extra={t('form.nameDefault')}>
          <Input id="region-nameKo" maxLength={100} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
