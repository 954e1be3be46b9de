import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { Alert, Button, Card, DatePicker, Flex, InputNumber, Select } from 'antd';
import { PlayCircleOutlined, ThunderboltOutlined } from '@ant-design/icons';
import {
  DEFAULT_LIMIT_CURVE,
  LIMIT_CURVES,
  VIBRATION_LIMITS,
  VIBRATION_MODULE_ID,
  vibrationRoutes,
} from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { ReportDownloads, ReportView } from '../../shared/report/index.ts';
import { useChosenSite, useMonitorSites, useSiteDevices } from '../../shared/monitorSites.ts';
import { currentLanguage } from '../../shared/i18n.ts';
import { dateOf, pickerValue, shiftDate, todayDate } from '../../shared/time.ts';
import { useTimeZone } from '../../shared/useTimeZone.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { fetchVibrationReport, vibrationKeys, type VibrationParams } from './vibrationApi.ts';

/**
 * /monitor/VibrationReport: the vibration events of a site's vibration devices in a period, PPV per axis, vector
 * sum, dominant frequency and the verdict against a chosen limit curve, drawn by the shared ReportView with the
 * log-log chart of PPV against frequency beside the curve; downloads as xlsx and PDF. Test hooks: vib-site,
 * vib-device, vib-range, vib-curve, vib-trigger, vib-run (and the ReportView's report-*).
 */
export default function VibrationReportPage() {
  const { t } = useTranslation('vibration');
  const lang = currentLanguage();
  const { zone } = useTimeZone();
  const { sites } = useMonitorSites();
  const [platformId, setPlatformId] = useState<number | undefined>(undefined);
  const [site] = useChosenSite(sites);
  const chosen = platformId ?? site;
  const devices = useSiteDevices(chosen);
  const [deviceId, setDeviceId] = useState<number | undefined>();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => {
    const today = todayDate(zone);
    return [pickerValue(shiftDate(today, -6)), pickerValue(today)];
  });
  const [curve, setCurve] = useState<string>(DEFAULT_LIMIT_CURVE);
  const [trigger, setTrigger] = useState<number>(VIBRATION_LIMITS.defaultTriggerMmps);
  const [asked, setAsked] = useState<VibrationParams | null>(null);
  const q = useQuery({
    queryKey: vibrationKeys.report(asked ?? ({} as VibrationParams)),
    queryFn: () => fetchVibrationReport(asked!),
    enabled: asked !== null,
    retry: retryUnlessCancelled,
  });
  const r = q.data;
  const vibDevices = (devices.data ?? []).filter((d) => d.moduleId === VIBRATION_MODULE_ID);
  const run = () =>
    chosen !== undefined &&
    setAsked({
      platformId: chosen,
      deviceId,
      startTime: dateOf(range[0]),
      endTime: dateOf(range[1]),
      timeZone: zone,
      curve,
      trigger,
    });

  return (
    <Flex vertical gap={16}>
      <PageHeaderCard icon={<ThunderboltOutlined />} title={t('title')} description={t('description')} />
      <Card variant="borderless">
        <Flex gap={12} wrap align="center">
          <Select<number>
            data-testid="vib-site"
            style={{ width: 200 }}
            placeholder={t('form.site')}
            value={chosen}
            options={sites.map((s) => ({ value: s.platformId, label: s.name }))}
            showSearch
            optionFilterProp="label"
            onChange={(v) => {
              setPlatformId(v);
              setDeviceId(undefined);
            }}
          />
          <Select<number>
            data-testid="vib-device"
            style={{ width: 200 }}
            allowClear
            placeholder={t('form.allDevices')}
            value={deviceId}
            loading={devices.isFetching}
            options={vibDevices.map((d) => ({ value: d.deviceId, label: d.deviceName }))}
            onChange={(v) => setDeviceId(v ?? undefined)}
          />
          <DatePicker.RangePicker
            data-testid="vib-range"
            allowClear={false}
            value={range}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
          <Select<string>
            data-testid="vib-curve"
            style={{ width: 320 }}
            value={curve}
            popupMatchSelectWidth={false}
            options={LIMIT_CURVES.map((c) => ({ value: c.id, label: c.label[lang] }))}
            onChange={setCurve}
          />
          <InputNumber<number>
            data-testid="vib-trigger"
            style={{ width: 170 }}
            min={0.001}
            max={1000}
            step={0.1}
            value={trigger}
            prefix={t('form.trigger')}
            suffix="mm/s"
            onChange={(v) => v !== null && setTrigger(v)}
          />
          <Button
            type="primary"
            data-testid="vib-run"
            icon={<PlayCircleOutlined />}
            disabled={chosen === undefined}
            loading={q.isFetching}
            onClick={run}
          >
            {t('form.run')}
          </Button>
        </Flex>
      </Card>
      {q.error ? <Alert type="error" showIcon message={(q.error as Error).message} /> : null}
      {!r && !q.isFetching && !q.error ? <Alert type="info" showIcon message={t('hint')} /> : null}
      {r && asked && (
        <ReportView
          document={r.document}
          extra={<ReportDownloads path={vibrationRoutes.getVibrationReportFile.path} params={{ ...asked }} />}
        />
      )}
    </Flex>
  );
}
