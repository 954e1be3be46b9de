import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { Alert, Button, Card, DatePicker, Flex, Segmented, Select } from 'antd';
import { FundProjectionScreenOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { RESERVOIR_STATISTICS_TYPES, reservoirRoutes, type ReservoirStatisticsType } from '@geosentry/contract';
import { ReportDownloads, ReportView } from '../../shared/report/index.ts';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useSiteOptions } from '../../shared/sites.ts';
import { dateOf, pickerValue, shiftDate, todayDate } from '../../shared/time.ts';
import { useTimeZone } from '../../shared/useTimeZone.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { fetchComprehensive, fetchSections, reservoirKeys, type ComprehensiveParams } from './reservoirApi.ts';

/**
 * The reservoir comprehensive report (monitor:report): water level against the flood and flood-limited levels,
 * storage from the capacity table, seepage, deformation and rainfall of the period; downloads as xlsx and PDF.
 * Drawn by the shared ReportView. Test hooks: res-site, res-section, res-stat, res-range, res-run (and report-*).
 */
export default function ReservoirReportPage() {
  const { t } = useTranslation('reservoir');
  const { zone } = useTimeZone();
  const { sites } = useSiteOptions();
  const reservoirs = sites.filter((s) => s.type === 'reservoir');
  const [platformId, setPlatformId] = useState<number | undefined>();
  const chosen = platformId ?? reservoirs[0]?.platformId;
  const sections = useQuery({
    queryKey: reservoirKeys.sections(chosen ?? 0),
    queryFn: () => fetchSections(chosen ?? 0),
    enabled: chosen !== undefined,
  });
  const [segmentId, setSegmentId] = useState<number | undefined>();
  const [stat, setStat] = useState<ReservoirStatisticsType>('day');
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => {
    const today = todayDate(zone);
    return [pickerValue(shiftDate(today, -29)), pickerValue(today)];
  });
  const [asked, setAsked] = useState<ComprehensiveParams | null>(null);
  const q = useQuery({
    queryKey: reservoirKeys.report(asked ?? ({} as ComprehensiveParams)),
    queryFn: () => fetchComprehensive(asked!),
    enabled: asked !== null,
    retry: retryUnlessCancelled,
  });
  const r = q.data;
  const run = () =>
    chosen !== undefined &&
    setAsked({
      platformId: chosen,
      segmentId,
      statisticsType: stat,
      startTime: dateOf(range[0]),
      endTime: dateOf(range[1]),
      timeZone: zone,
    });
  return (
    <Flex vertical gap={16}>
      <PageHeaderCard
        icon={<FundProjectionScreenOutlined />}
        title={t('report.title')}
        description={t('report.description')}
      />
      <Card variant="borderless">
        <Flex gap={12} wrap align="center">
          <Select<number>
            data-testid="res-site"
            style={{ width: 200 }}
            placeholder={t('levels.reservoir')}
            value={chosen}
            options={reservoirs.map((s) => ({ value: s.platformId, label: s.name }))}
            onChange={(id) => {
              setPlatformId(id);
              setSegmentId(undefined);
            }}
          />
          <Select<number>
            data-testid="res-section"
            style={{ width: 160 }}
            allowClear
            placeholder={t('report.firstSection')}
            value={segmentId}
            options={(sections.data ?? []).map((s) => ({ value: s.segmentId, label: s.name }))}
            onChange={(x) => setSegmentId(x ?? undefined)}
          />
          <Segmented<ReservoirStatisticsType>
            data-testid="res-stat"
            value={stat}
            options={RESERVOIR_STATISTICS_TYPES.map((s) => ({ value: s, label: t(`stat.${s}`) }))}
            onChange={setStat}
          />
          <DatePicker.RangePicker
            data-testid="res-range"
            allowClear={false}
            value={range}
            onChange={(x) => x?.[0] && x[1] && setRange([x[0], x[1]])}
          />
          <Button
            type="primary"
            data-testid="res-run"
            icon={<PlayCircleOutlined />}
            loading={q.isFetching}
            onClick={run}
          >
            {t('report.run')}
          </Button>
        </Flex>
      </Card>
      {q.error ? <Alert type="error" showIcon message={(q.error as Error).message} /> : null}
      {!r && !q.isFetching && !q.error ? <Alert type="info" showIcon message={t('report.hint')} /> : null}
      {r && asked && (
        <ReportView
          document={r.document}
          extra={<ReportDownloads path={reservoirRoutes.getReportComprehensiveFile.path} params={{ ...asked }} />}
        />
      )}
    </Flex>
  );
}
