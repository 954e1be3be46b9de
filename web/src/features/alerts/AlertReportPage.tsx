import { lazy, Suspense, useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { Alert, Button, Card, Col, DatePicker, Empty, Flex, Row, Segmented, Select, Statistic, message } from 'antd';
import { BarChartOutlined, DownloadOutlined } from '@ant-design/icons';
import { ALERT_LEVELS, ALERT_REPORT_PERIODS, type AlertReport, type AlertReportPeriod } from '@geosentry/contract';
import { EChart, type EChartOption } from '../../shared/charts/EChart.tsx';
import { dateOf, pickedDaysIso, pickerValue, shiftDate, todayDate } from '../../shared/time.ts';
import { useTimeZone } from '../../shared/useTimeZone.ts';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { SimpleTable } from '../../shared/ui/SimpleTable.tsx';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { useMonitorSites } from '../../shared/monitorSites.ts';
import { alertKeys, downloadReport, fetchReport, type ReportParams } from './alertsApi.ts';
import { levelHex, levelTextHex } from './alertUi.tsx';
import { useValueTypeText } from './valueTypes.ts';

// The export's progress ring shows only while an export runs: loaded then.
const Progress = lazy(() => import('antd/es/progress'));

const DAY = 'YYYY-MM-DD';
type Levels = AlertReport['byPeriod'][number]['levels'];

/** Stacked bars by level (one series per level, in the level colours). */
function stacked(categories: string[], rows: Levels[], name: (l: number) => string): EChartOption {
  return {
    animation: false,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0 },
    grid: { left: 48, right: 16, top: 36, bottom: 48 },
    xAxis: { type: 'category', data: categories, axisLabel: { hideOverlap: true } },
    yAxis: { type: 'value', minInterval: 1 },
    series: ALERT_LEVELS.map((l) => ({
      type: 'bar',
      stack: 'levels',
      barMaxWidth: 48,
      name: name(l),
      itemStyle: { color: levelHex(l) },
      data: rows.map((r) => r[String(l) as '1'] ?? 0),
    })),
  };
}

/**
 * /alert/alertReport: alert counts by level, site, type, status and period over a chosen range (charts and a table),
 * and the xlsx export of the report and its alerts with download progress.
 */
export default function AlertReportPage() {
  const { t } = useTranslation('alerts');
  const [msg, msgHolder] = message.useMessage();
  const { sites } = useMonitorSites();
  const typeText = useValueTypeText();
  // The last 30 days up to today, and no future day, in the user's zone (issue 14).
  const { zone } = useTimeZone();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => {
    const today = todayDate(zone);
    return [pickerValue(shiftDate(today, -29)), pickerValue(today)];
  });
  const [platformId, setPlatformId] = useState<number | undefined>();
  const [period, setPeriod] = useState<AlertReportPeriod>('day');
  const [progress, setProgress] = useState<number | null>(null);
  const params: ReportParams = {
    platformId,
    period,
    // Days of the user's time zone (issue 14), not of the browser.
    ...pickedDaysIso(range[0], range[1]),
  };
  const q = useQuery({
    queryKey: alertKeys.report(params),
    queryFn: () => fetchReport(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const r: AlertReport | undefined = q.data;
  const levelName = (l: number) => t(`levels.${l}`);

  const levelPie = useMemo<EChartOption | null>(
    () =>
      r
        ? {
            animation: false,
            tooltip: { trigger: 'item' },
            legend: { bottom: 0 },
            series: [
              {
                type: 'pie',
                // Room beside the ring for 'name: count' in a third of the page (a wider ring cut it to '...').
                radius: ['34%', '56%'],
                center: ['50%', '45%'],
                label: { formatter: '{b}: {c}', overflow: 'break' },
                data: r.byLevel
                  .filter((x) => x.count > 0)
                  .map((x) => ({
                    name: levelName(x.level),
                    value: x.count,
                    itemStyle: { color: levelHex(x.level) },
                  })),
              },
            ],
          }
        : null,
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [r, t],
  );
  const typePie = useMemo<EChartOption | null>(
    () =>
      r
        ? {
            animation: false,
            tooltip: { trigger: 'item' },
            legend: { bottom: 0, type: 'scroll' },
            series: [
              {
                type: 'pie',
                // Room beside the ring for 'name: count' in a third of the page (a wider ring cut it to '...').
                radius: ['34%', '56%'],
                center: ['50%', '45%'],
                label: { formatter: '{b}: {c}', overflow: 'break' },
                data: r.byType.filter((x) => x.count > 0).map((x) => ({ name: typeText(x.valueType), value: x.count })),
              },
            ],
          }
        : null,
    [r, typeText],
  );
  const periodBars = useMemo(
    () =>
      r
        ? stacked(
            r.byPeriod.map((p) => p.period),
            r.byPeriod.map((p) => p.levels),
            levelName,
          )
        : null,
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [r, t],
  );
  const siteBars = useMemo(
    () =>
      r
        ? stacked(
            r.byPlatform.map((p) => p.name),
            r.byPlatform.map((p) => p.levels),
            levelName,
          )
        : null,
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [r, t],
  );

  const exportXlsx = async () => {
    setProgress(0);
    try {
      await downloadReport(params, (p) => setProgress(p));
      void msg.success(t('report.exported'));
    } catch (e) {
      void msg.error((e as Error).message || t('report.exportFailed'));
    } finally {
      setTimeout(() => setProgress(null), 800);
    }
  };

  const empty = r && r.total === 0;
  return (
    <Flex vertical gap={16}>
      {msgHolder}
      <PageHeaderCard
        icon={<BarChartOutlined />}
        title={t('report.title')}
        description={t('report.description')}
        extra={
          <Flex gap={8} align="center">
            {progress !== null ? (
              <Suspense fallback={null}>
                <Progress
                  data-testid="report-progress"
                  type="circle"
                  size={32}
                  percent={progress < 0 ? 50 : progress}
                  status={progress < 0 ? 'active' : undefined}
                />
              </Suspense>
            ) : null}
            <Button
              type="primary"
              icon={<DownloadOutlined />}
              loading={progress !== null}
              data-testid="report-export"
              onClick={() => void exportXlsx()}
            >
              {t('report.export')}
            </Button>
          </Flex>
        }
      />
      <Card variant="borderless">
        <Flex gap={12} wrap align="center">
          <Select<number>
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            style={{ width: 200 }}
            placeholder={t('filters.allSites')}
            value={platformId}
            options={sites.map((s) => ({ value: s.platformId, label: s.name }))}
            onChange={(v) => setPlatformId(v ?? undefined)}
          />
          <DatePicker.RangePicker
            value={range}
            format={DAY}
            allowClear={false}
            disabledDate={(d) => dateOf(d) > todayDate(zone)}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
          <Segmented<AlertReportPeriod>
            value={period}
            onChange={setPeriod}
            options={ALERT_REPORT_PERIODS.map((p) => ({ value: p, label: t(`report.periods.${p}`) }))}
          />
        </Flex>
      </Card>
      {q.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('report.loadFailed')}
          description={(q.error as Error).message}
          action={<Button onClick={() => void q.refetch()}>{t('actions.retry')}</Button>}
        />
      ) : null}
      <Row gutter={[16, 16]}>
        <Col xs={12} md={4}>
          <Card variant="borderless" loading={q.isLoading}>
            <Statistic title={t('report.total')} value={r?.total ?? 0} data-testid="report-total" />
          </Card>
        </Col>
        {ALERT_LEVELS.map((l) => (
          <Col xs={12} md={5} key={l}>
            <Card variant="borderless" loading={q.isLoading} style={{ borderTop: `4px solid ${levelHex(l)}` }}>
              <Statistic
                title={levelName(l)}
                value={r?.byLevel.find((x) => x.level === l)?.count ?? 0}
                styles={{ content: { color: levelTextHex(l) } }}
              />
            </Card>
          </Col>
        ))}
      </Row>
      {empty ? (
        <Card variant="borderless">
          <Empty description={t('report.empty')} />
        </Card>
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={8}>
            <Card variant="borderless" title={t('report.byLevel')}>
              {levelPie ? <EChart option={levelPie} height={280} notMerge data-testid="report-level-chart" /> : null}
            </Card>
          </Col>
          <Col xs={24} lg={16}>
            <Card variant="borderless" title={t('report.byPeriod')}>
              {periodBars ? (
                <EChart option={periodBars} height={280} notMerge data-testid="report-period-chart" />
              ) : null}
            </Card>
          </Col>
          <Col xs={24} lg={16}>
            <Card variant="borderless" title={t('report.bySite')}>
              {siteBars ? <EChart option={siteBars} height={280} notMerge data-testid="report-site-chart" /> : null}
            </Card>
          </Col>
          <Col xs={24} lg={8}>
            <Card variant="borderless" title={t('report.byType')}>
              {typePie ? <EChart option={typePie} height={280} notMerge data-testid="report-type-chart" /> : null}
            </Card>
          </Col>
          <Col xs={24}>
            <Card variant="borderless" title={t('report.siteTable')}>
              <SimpleTable
                data-testid="report-site-table"
                rowKey={(row) => row.platformId}
                rows={r?.byPlatform ?? []}
                empty={t('report.empty')}
                columns={[
                  { key: 'name', title: t('fields.site'), render: (row) => row.name },
                  ...ALERT_LEVELS.map((l) => ({
                    key: `l${l}`,
                    title: levelName(l),
                    align: 'right' as const,
                    render: (row: { levels: Levels }) => row.levels[String(l) as '1'] ?? 0,
                  })),
                  { key: 'count', title: t('report.total'), align: 'right' as const, render: (row) => row.count },
                ]}
              />
            </Card>
          </Col>
        </Row>
      )}
    </Flex>
  );
}
