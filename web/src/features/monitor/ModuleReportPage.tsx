import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { Alert, Button, Card, DatePicker, Flex, Input, Select, Typography } from 'antd';
import { FileTextOutlined, PlayCircleOutlined } from '@ant-design/icons';
import {
  REPORT_TEMPLATES,
  STATISTICS_TYPES,
  moduleDataRoutes,
  type ReportTemplate,
  type StatisticsType,
} from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { ReportDownloads, ReportView } from '../../shared/report/index.ts';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { dateOf, pickerValue, shiftDate, todayDate } from '../../shared/time.ts';
import { useTimeZone } from '../../shared/useTimeZone.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { useChosenSite, useMonitorSites, useSiteDevices } from '../../shared/monitorSites.ts';
import { ModulePicker, SitePicker } from './shared/Pickers.tsx';

/** The parameters of a report as the URL keeps them (a link reproduces the report). */
interface Asked {
  platformId: number;
  moduleId: number;
  template: ReportTemplate;
  statisticsType: StatisticsType;
  startTime: string;
  endTime: string;
  deviceName?: string;
  timeZone: string;
}

function askedOf(p: URLSearchParams, zone: string): Asked | null {
  const platformId = Number(p.get('platformId'));
  const moduleId = Number(p.get('moduleId'));
  const template = p.get('template') as ReportTemplate | null;
  const stat = p.get('statisticsType') as StatisticsType | null;
  const startTime = p.get('startTime');
  const endTime = p.get('endTime');
  if (!(platformId > 0 && moduleId > 0 && startTime && endTime && template && stat)) return null;
  if (!REPORT_TEMPLATES.includes(template) || !STATISTICS_TYPES.includes(stat)) return null;
  const deviceName = p.get('deviceName') ?? undefined;
  return {
    platformId,
    moduleId,
    template,
    statisticsType: stat,
    startTime,
    endTime,
    timeZone: zone,
    ...(deviceName ? { deviceName } : {}),
  };
}

/**
 * Monitor > Report (monitor:report, spec §2 /monitor/report): a site's monitor type over a period in one of the
 * templates A to E (their layouts: docs/reports.md), on screen and as xlsx or PDF. The chosen parameters live in
 * the URL once run. Test hooks: mr-template, mr-stat, mr-range, mr-device, mr-run (and report-*).
 */
export default function ModuleReportPage() {
  const { t } = useTranslation('monitor');
  const { zone } = useTimeZone();
  const [search, setSearch] = useSearchParams();
  const { sites, isLoading } = useMonitorSites();
  const [platformId, setPlatformId] = useChosenSite(sites);
  const devices = useSiteDevices(platformId);
  const asked = useMemo(() => askedOf(search, zone), [search, zone]);
  const [moduleChoice, setModule] = useState<number | undefined>(asked?.moduleId);
  const moduleIds = [...new Set((devices.data ?? []).map((d) => d.moduleId))];
  const moduleId = moduleChoice !== undefined && moduleIds.includes(moduleChoice) ? moduleChoice : moduleIds[0];
  const [template, setTemplate] = useState<ReportTemplate>(asked?.template ?? 'A');
  const [stat, setStat] = useState<StatisticsType>(asked?.statisticsType ?? 'day');
  const [deviceName, setDeviceName] = useState(asked?.deviceName ?? '');
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => {
    if (asked) return [pickerValue(asked.startTime), pickerValue(asked.endTime)];
    const today = todayDate(zone);
    return [pickerValue(shiftDate(today, -6)), pickerValue(today)];
  });
  const q = useQuery({
    queryKey: ['monitor', 'moduleReport', asked],
    queryFn: () => call(moduleDataRoutes.getModuleData, asked!),
    enabled: asked !== null,
    retry: retryUnlessCancelled,
  });
  const run = () => {
    if (platformId === undefined || moduleId === undefined) return;
    setSearch(
      (p) => {
        const n = new URLSearchParams(p);
        const set: Record<string, string> = {
          platformId: String(platformId),
          moduleId: String(moduleId),
          template,
          statisticsType: stat,
          startTime: dateOf(range[0]),
          endTime: dateOf(range[1]),
        };
        for (const [k, v] of Object.entries(set)) n.set(k, v);
        if (deviceName.trim()) n.set('deviceName', deviceName.trim());
        else n.delete('deviceName');
        return n;
      },
      { replace: true },
    );
    if (asked) void q.refetch();
  };
  const r = q.data;
  return (
    <Flex vertical gap={16}>
      <PageHeaderCard icon={<FileTextOutlined />} title={t('report.title')} description={t('report.description')} />
      <Card variant="borderless">
        <Flex gap={12} wrap align="center">
          <SitePicker sites={sites} value={platformId} onChange={setPlatformId} loading={isLoading} />
          <ModulePicker devices={devices.data ?? []} value={moduleId} onChange={setModule} allowAll={false} />
          <Input
            data-testid="mr-device"
            style={{ width: 180 }}
            allowClear
            placeholder={t('report.allDevices')}
            value={deviceName}
            onChange={(e) => setDeviceName(e.target.value)}
            aria-label={t('report.device')}
          />
          <Select<ReportTemplate>
            data-testid="mr-template"
            style={{ width: 260 }}
            value={template}
            onChange={setTemplate}
            options={REPORT_TEMPLATES.map((x) => ({ value: x, label: t(`report.template.${x}`) }))}
            aria-label={t('report.templateLabel')}
          />
          <Select<StatisticsType>
            data-testid="mr-stat"
            style={{ width: 130 }}
            value={stat}
            onChange={setStat}
            options={STATISTICS_TYPES.map((x) => ({ value: x, label: t(`aggregation.${x}`) }))}
            aria-label={t('report.statistics')}
          />
          <DatePicker.RangePicker
            data-testid="mr-range"
            allowClear={false}
            value={range}
            onChange={(x) => x?.[0] && x[1] && setRange([x[0], x[1]])}
          />
          <Button
            type="primary"
            data-testid="mr-run"
            icon={<PlayCircleOutlined />}
            loading={q.isFetching}
            disabled={platformId === undefined || moduleId === undefined}
            onClick={run}
          >
            {t('report.run')}
          </Button>
        </Flex>
        <Typography.Paragraph type="secondary" style={{ margin: '12px 0 0' }} data-testid="mr-note">
          {t(`report.templateNote.${template}`)}
        </Typography.Paragraph>
      </Card>
      {q.error ? <Alert type="error" showIcon message={(q.error as Error).message} /> : null}
      {!r && !q.isFetching && !q.error ? <Alert type="info" showIcon message={t('report.hint')} /> : null}
      {r && asked && (
        <ReportView
          document={r.document}
          extra={<ReportDownloads path={moduleDataRoutes.getModuleDataReport.path} params={{ ...asked }} />}
        />
      )}
    </Flex>
  );
}
