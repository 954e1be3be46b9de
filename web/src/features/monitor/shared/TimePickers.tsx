import { useTranslation } from 'react-i18next';
import { DatePicker, Flex, Segmented, Select, Tag, Tooltip } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import updateLocale from 'dayjs/plugin/updateLocale';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/ko';
import {
  AGGREGATIONS,
  TIME_RANGES,
  defaultCustom,
  type Aggregation,
  type TimeRange,
  type TimeRangeKind,
} from './timeRange.ts';
import { todayDate, type Period } from '../../../shared/time.ts';
import { useTimeZone } from '../../../shared/useTimeZone.ts';

// The time pickers of the monitoring screens (range, aggregation, the user's zone), apart from the site, device and
// quantity pickers (Pickers.tsx): a screen without a time range (real-time data, cards) does not download antd's
// date picker and dayjs' locales.

// Weeks start on Monday in every language (the server's weeks do too): the calendars and week pickers follow.
dayjs.extend(updateLocale);
for (const l of ['en', 'ko']) dayjs.updateLocale(l, { weekStart: 1 });

const PERIOD_FORMAT: Record<Period, string | undefined> = {
  day: 'YYYY-MM-DD',
  week: undefined,
  month: 'YYYY-MM',
  year: 'YYYY',
};

/**
 * A preset range (spec §9) or a custom one of calendar days, or of weeks (Monday), months or years when the
 * data is aggregated by them; "today" and the calendar follow the user's zone, named beside the picker when
 * it is not the browser's.
 */
export function TimeRangePicker({
  value,
  onChange,
  id = 'monitor-range',
  period = 'day',
}: {
  value: TimeRange;
  onChange: (r: TimeRange) => void;
  id?: string;
  period?: Period;
}) {
  const { t } = useTranslation('monitor');
  const { zone } = useTimeZone();
  return (
    <Flex gap={8} wrap align="center">
      <Select<TimeRangeKind>
        id={id}
        data-testid={id}
        style={{ width: 150 }}
        value={value.kind}
        onChange={(kind) =>
          onChange({ kind, custom: kind === 'custom' ? (value.custom ?? defaultCustom(zone)) : null })
        }
        options={TIME_RANGES.map((k) => ({ value: k, label: t(`range.${k}`) }))}
        aria-label={t('pick.range')}
      />
      {value.kind === 'custom' ? (
        <DatePicker.RangePicker
          data-testid={`${id}-custom`}
          picker={period === 'day' ? 'date' : period}
          format={PERIOD_FORMAT[period]}
          allowClear={false}
          value={value.custom ?? null}
          disabledDate={(d: Dayjs) => d.format('YYYY-MM-DD') > todayDate(zone)}
          onChange={(v) => onChange({ kind: 'custom', custom: v && v[0] && v[1] ? [v[0], v[1]] : null })}
        />
      ) : null}
      <ZoneTag />
    </Flex>
  );
}

/** The user's zone, shown where times are picked or listed when it is not the browser's (else nothing). */
export function ZoneTag({ testId = 'monitor-zone' }: { testId?: string }) {
  const { t } = useTranslation('monitor');
  const { label } = useTimeZone();
  if (!label) return null;
  return (
    <Tooltip title={t('zone.hint')}>
      <Tag icon={<GlobalOutlined />} data-testid={testId} style={{ marginInlineEnd: 0 }}>
        {label}
      </Tag>
    </Tooltip>
  );
}

export function AggregationPicker({
  value,
  onChange,
  id = 'monitor-aggregation',
}: {
  value: Aggregation;
  onChange: (a: Aggregation) => void;
  id?: string;
}) {
  const { t } = useTranslation('monitor');
  return (
    <Segmented<Aggregation>
      data-testid={id}
      value={value}
      onChange={onChange}
      options={AGGREGATIONS.map((a) => ({ value: a, label: t(`aggregation.${a}`) }))}
    />
  );
}
