import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  MONITOR_TYPES,
  REPORT_KINDS,
  REPORT_TEMPLATES,
  RESERVOIR_STATISTICS_TYPES,
  STATISTICS_TYPES,
  type ReportKind,
} from '@geosentry/contract';
import { currentLanguage } from '../../shared/i18n.ts';
import { useMonitorSites } from '../../shared/monitorSites.ts';

/**
 * The fields naming a report, shared by the job and schedule forms: its kind, its site and, for the module data
 * report, the monitor type, statistics and template (the reservoir report: its statistics). Test hooks:
 * rj-kind, rj-site, rj-module.
 */
export function ReportFields() {
  const { t } = useTranslation('reportJobs');
  const lang = currentLanguage();
  const { sites } = useMonitorSites();
  return (
    <>
      <Form.Item name="kind" label={t('form.kind')} rules={[{ required: true, message: t('form.required') }]}>
        <Select<ReportKind>
          data-testid="rj-kind"
          options={REPORT_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
        />
      </Form.Item>
      <Form.Item name="platformId" label={t('form.site')} rules={[{ required: true, message: t('form.required') }]}>
        <Select<number>
          data-testid="rj-site"
          showSearch={{ optionFilterProp: 'label' }}
          options={sites.map((s) => ({ value: s.platformId, label: s.name }))}
        />
      </Form.Item>
      <Form.Item noStyle dependencies={['kind']}>
        {({ getFieldValue }) => {
          const kind = getFieldValue('kind') as ReportKind | undefined;
          if (kind === 'moduleData')
            return (
              <>
                <Form.Item
                  name="moduleId"
                  label={t('form.monitorType')}
                  rules={[{ required: true, message: t('form.required') }]}
                >
                  <Select<number>
                    data-testid="rj-module"
                    showSearch={{ optionFilterProp: 'label' }}
                    options={MONITOR_TYPES.map((m) => ({ value: m.moduleId, label: m.label[lang] }))}
                  />
                </Form.Item>
                <Form.Item name="statisticsType" label={t('form.statistics')} initialValue="day">
                  <Select options={STATISTICS_TYPES.map((s) => ({ value: s, label: t(`statistics.${s}`) }))} />
                </Form.Item>
                <Form.Item name="template" label={t('form.template')} initialValue="A">
                  <Select options={REPORT_TEMPLATES.map((x) => ({ value: x, label: t('form.templateOf', { x }) }))} />
                </Form.Item>
              </>
            );
          if (kind === 'reservoir')
            return (
              <Form.Item name="statisticsType" label={t('form.statistics')} initialValue="day">
                <Select options={RESERVOIR_STATISTICS_TYPES.map((s) => ({ value: s, label: t(`statistics.${s}`) }))} />
              </Form.Item>
            );
          return null;
        }}
      </Form.Item>
    </>
  );
}
