import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { Alert, Button, Card, DatePicker, Flex, Input, Select } from 'antd';
import { FileDoneOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { GENERAL_REPORT_LIMITS, generalReportRoutes } from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { ReportDownloads, ReportView } from '../../shared/report/index.ts';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useSiteOptions } from '../../shared/sites.ts';
import { dateOf, pickerValue, shiftDate, todayDate } from '../../shared/time.ts';
import { useTimeZone } from '../../shared/useTimeZone.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';

interface Asked {
  platformId: number;
  startTime: string;
  endTime: string;
  timeZone: string;
  author?: string;
  conclusions?: string;
}

/**
 * Monitor > General report (monitor:generalReport): a site's periodic monitoring report (site card, devices and
 * data completeness, a chart per monitor type, alerts and their handling, largest changes) with the conclusions
 * the engineer writes before export; on screen and as xlsx, PDF or Word. The downloads POST the parameters (the
 * conclusions may be long). Test hooks: gr-site, gr-range, gr-author, gr-conclusions, gr-run (and report-*).
 */
export default function GeneralReportPage() {
  const { t } = useTranslation('generalReport');
  const { zone } = useTimeZone();
  const { sites } = useSiteOptions();
  const [platformId, setPlatformId] = useState<number | undefined>();
  const chosen = platformId ?? sites[0]?.platformId;
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => {
    const today = todayDate(zone);
    return [pickerValue(shiftDate(today, -29)), pickerValue(today)];
  });
  const [author, setAuthor] = useState('');
  const [conclusions, setConclusions] = useState('');
  const [asked, setAsked] = useState<Asked | null>(null);
  const q = useQuery({
    queryKey: ['generalReport', asked],
    queryFn: () => call(generalReportRoutes.getGeneralReport, asked!),
    enabled: asked !== null,
    retry: retryUnlessCancelled,
  });
  const run = () =>
    chosen !== undefined &&
    setAsked({
      platformId: chosen,
      startTime: dateOf(range[0]),
      endTime: dateOf(range[1]),
      timeZone: zone,
      ...(author.trim() ? { author: author.trim() } : {}),
      ...(conclusions.trim() ? { conclusions: conclusions.trim() } : {}),
    });
  const r = q.data;
  return (
    <Flex vertical gap={16}>
      <PageHeaderCard icon={<FileDoneOutlined />} title={t('title')} description={t('description')} />
      <Card variant="borderless">
        <Flex vertical gap={12}>
          <Flex gap={12} wrap align="center">
            <Select<number>
              data-testid="gr-site"
              style={{ width: 220 }}
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('site')}
              value={chosen}
              options={sites.map((s) => ({ value: s.platformId, label: s.name }))}
              onChange={setPlatformId}
              aria-label={t('site')}
            />
            <DatePicker.RangePicker
              data-testid="gr-range"
              allowClear={false}
              value={range}
              onChange={(x) => x?.[0] && x[1] && setRange([x[0], x[1]])}
            />
            <Input
              data-testid="gr-author"
              style={{ width: 200 }}
              maxLength={120}
              placeholder={t('author')}
              aria-label={t('author')}
              value={author}
              onChange={(e) => setAuthor(e.target.value)}
            />
            <Button
              type="primary"
              data-testid="gr-run"
              icon={<PlayCircleOutlined />}
              loading={q.isFetching}
              disabled={chosen === undefined}
              onClick={run}
            >
              {t('run')}
            </Button>
          </Flex>
          <Input.TextArea
            data-testid="gr-conclusions"
            rows={3}
            showCount
            maxLength={GENERAL_REPORT_LIMITS.maxConclusions}
            placeholder={t('conclusionsHint')}
            aria-label={t('conclusions')}
            value={conclusions}
            onChange={(e) => setConclusions(e.target.value)}
          />
        </Flex>
      </Card>
      {q.error ? <Alert type="error" showIcon message={(q.error as Error).message} /> : null}
      {!r && !q.isFetching && !q.error ? <Alert type="info" showIcon message={t('hint')} /> : null}
      {r && asked && (
        <ReportView
          document={r.document}
          extra={
            <ReportDownloads
              path={generalReportRoutes.getGeneralReportFile.path}
              method="POST"
              params={{ ...asked }}
              formats={['xlsx', 'pdf', 'docx']}
            />
          }
        />
      )}
    </Flex>
  );
}
