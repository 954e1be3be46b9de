import type { TFunction } from 'i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { DatePicker, Form, Input, InputNumber, Select } from 'antd';
import type { FormRule } from 'antd';
import type { PlatformType } from '@geosentry/contract';
import { fieldLimits, fieldSchema, type DetailField } from './fields.ts';

/** The id of a form input: #platform-<key> (details too: #platform-code, #platform-bridgeType). */
export const fieldId = (key: string): string => `platform-${key}`;

/** Translated label of a detail field. */
export const detailLabel = (t: TFunction, key: string): string => t(`platforms:detail.${key}`);

/** A choice's label, or the stored value when it is not in the catalogue. */
export const optionLabel = (t: TFunction, optionSet: string, value: string): string =>
  t(`platforms:options.${optionSet}.${value}`, { defaultValue: value });

function rules(t: TFunction, kind: PlatformType, f: DetailField): FormRule[] {
  const label = detailLabel(t, f.key);
  const out: FormRule[] = [];
  if (f.required)
    out.push({
      required: true,
      whitespace: f.type === 'text',
      message: t(`platforms:validation.required.${f.key}`, {
        defaultValue: t('platforms:validation.requiredField', { field: label }),
      }),
    });
  out.push({
    validator: (_r, v: unknown) => {
      if (v === undefined || v === null || v === '') return Promise.resolve();
      const schema = fieldSchema(kind, f.key);
      if (!schema || schema.safeParse(v).success) return Promise.resolve();
      const { min, max } = fieldLimits(kind, f.key);
      const msg =
        f.type === 'phone'
          ? t('platforms:validation.phone')
          : (f.type === 'number' || f.type === 'count') && min !== undefined && max !== undefined
            ? t('platforms:validation.range', { field: label, min, max })
            : (f.type === 'number' || f.type === 'count') && min !== undefined
              ? t('platforms:validation.atLeast', { field: label, min })
              : t('platforms:validation.invalid', { field: label });
      return Promise.reject(new Error(msg));
    },
  });
  return out;
}

/** One field of a kind's details as a form item, named ['details', key]. */
export function DetailFieldItem({ t, kind, field: f }: { t: TFunction; kind: PlatformType; field: DetailField }) {
  const id = fieldId(f.key);
  const label = detailLabel(t, f.key);
  const limits = fieldLimits(kind, f.key);
  const unit = f.unit ? t(`platforms:units.${f.unit}`) : undefined;
  const common = { name: ['details', f.key], label, htmlFor: id, rules: rules(t, kind, f) };
  switch (f.type) {
    case 'number':
    case 'count':
      return (
        <Form.Item {...common}>
          <InputNumber<number>
            id={id}
            style={{ width: '100%' }}
            min={limits.min}
            max={limits.max}
            precision={f.type === 'count' ? 0 : undefined}
            suffix={unit}
          />
        </Form.Item>
      );
    case 'select':
      return (
        <Form.Item {...common}>
          <Select<string>
            id={id}
            allowClear
            placeholder={t('platforms:form.choose')}
            options={(f.options ?? []).map((v) => ({ value: v, label: optionLabel(t, f.optionSet ?? f.key, v) }))}
          />
        </Form.Item>
      );
    case 'flag':
      return (
        <Form.Item
          {...common}
          getValueProps={(v: unknown) => ({ value: typeof v === 'boolean' ? String(v) : undefined })}
          normalize={(v: unknown) => (v === 'true' ? true : v === 'false' ? false : undefined)}
        >
          <Select<string>
            id={id}
            allowClear
            placeholder={t('platforms:form.choose')}
            options={[
              { value: 'true', label: t('platforms:form.yes') },
              { value: 'false', label: t('platforms:form.no') },
            ]}
          />
        </Form.Item>
      );
    case 'date':
      return (
        <Form.Item
          {...common}
          getValueProps={(v: unknown) => ({ value: typeof v === 'string' && v ? dayjs(v) : undefined })}
          normalize={(d: Dayjs | null | undefined) => (d ? d.format('YYYY-MM-DD') : undefined)}
        >
          <DatePicker id={id} style={{ width: '100%' }} format="YYYY-MM-DD" />
        </Form.Item>
      );
    case 'textarea':
      return (
        <Form.Item {...common}>
          <Input.TextArea id={id} maxLength={limits.maxLength} autoSize={{ minRows: 2, maxRows: 6 }} />
        </Form.Item>
      );
    default:
      return (
        <Form.Item {...common}>
          <Input id={id} maxLength={limits.maxLength} suffix={unit} />
        </Form.Item>
      );
  }
}
