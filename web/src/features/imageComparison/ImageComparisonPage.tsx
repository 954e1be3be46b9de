import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { Alert, Button, Card, Col, DatePicker, Flex, Input, Row, Select } from 'antd';
import { DiffOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { imageComparisonRoutes } from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { ReportDownloads, ReportView } from '../../shared/report/index.ts';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useSiteOptions } from '../../shared/sites.ts';
import { formatTime } from '../../shared/time.ts';
import { useTimeZone } from '../../shared/useTimeZone.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';

interface Side {
  fileId?: string;
  takenAt?: Dayjs | null;
  note: string;
}

/**
 * Monitor > Image comparison (monitor:report): two pictures of a site at two dates side by side, with their dates
 * and notes, from the site's stored pictures and its cameras' snapshots (those the user sees); on screen and as xlsx,
 * PDF or Word. Test hooks: ic-site, ic-before, ic-after, ic-run (and report-*).
 */
export default function ImageComparisonPage() {
  const { t } = useTranslation('imageComparison');
  const { zone } = useTimeZone();
  const { sites } = useSiteOptions();
  const [platformId, setPlatformId] = useState<number | undefined>();
  const chosen = platformId ?? sites[0]?.platformId;
  const [keyword, setKeyword] = useState('');
  const pictures = useQuery({
    queryKey: ['imageComparison', 'pictures', chosen, keyword],
    queryFn: () =>
      call(imageComparisonRoutes.getSitePictures, {
        platformId: chosen!,
        pageSize: 100,
        ...(keyword ? { keyword } : {}),
      }),
    enabled: chosen !== undefined,
  });
  const [before, setBefore] = useState<Side>({ note: '' });
  const [after, setAfter] = useState<Side>({ note: '' });
  const [subject, setSubject] = useState('');
  const [asked, setAsked] = useState<Record<string, string | number> | null>(null);
  const q = useQuery({
    queryKey: ['imageComparison', 'report', asked],
    queryFn: () => call(imageComparisonRoutes.getImageComparison, asked as never),
    enabled: asked !== null,
    retry: retryUnlessCancelled,
  });
  // Stored files by name and date; camera snapshots by their camera and when they were taken.
  const options = (pictures.data?.list ?? []).map((p) => ({
    value: p.fileId,
    label:
      p.source === 'camera'
        ? `${t('cameraSnapshot', { camera: p.cameraName ?? p.name })} · ${formatTime(p.takenAt)}`
        : `${p.name} · ${formatTime(p.takenAt)}`,
  }));
  const side = (which: 'before' | 'after', v: Side, set: (s: Side) => void) => (
    <Col xs={24} md={12}>
      <Card size="small" title={t(which)}>
        <Flex vertical gap={8}>
          <Select<string>
            data-testid={`ic-${which}`}
            showSearch={{ optionFilterProp: 'label', onSearch: setKeyword }}
            placeholder={t('pick')}
            value={v.fileId}
            options={options}
            loading={pictures.isFetching}
            onChange={(fileId) => set({ ...v, fileId })}
            notFoundContent={t('noPictures')}
            aria-label={t(which)}
          />
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            placeholder={t('takenAt')}
            value={v.takenAt ?? null}
            onChange={(d) => set({ ...v, takenAt: d })}
            aria-label={t('takenAt')}
          />
          <Input.TextArea
            rows={2}
            maxLength={500}
            placeholder={t('note')}
            value={v.note}
            onChange={(e) => set({ ...v, note: e.target.value })}
            aria-label={t('note')}
          />
        </Flex>
      </Card>
    </Col>
  );
  const ready = chosen !== undefined && before.fileId && after.fileId;
  const run = () => {
    if (!ready) return;
    const p: Record<string, string | number> = {
      platformId: chosen,
      beforeFileId: before.fileId!,
      afterFileId: after.fileId!,
      timeZone: zone,
    };
    if (before.takenAt) p.beforeTakenAt = before.takenAt.format('YYYY-MM-DD HH:mm');
    if (after.takenAt) p.afterTakenAt = after.takenAt.format('YYYY-MM-DD HH:mm');
    if (before.note.trim()) p.beforeNote = before.note.trim();
    if (after.note.trim()) p.afterNote = after.note.trim();
    if (subject.trim()) p.subject = subject.trim();
    setAsked(p);
  };
  const r = q.data;
  return (
    <Flex vertical gap={16}>
      <PageHeaderCard icon={<DiffOutlined />} title={t('title')} description={t('description')} />
      <Card variant="borderless">
        <Flex vertical gap={12}>
          <Flex gap={12} wrap align="center">
            <Select<number>
              data-testid="ic-site"
              style={{ width: 220 }}
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('site')}
              value={chosen}
              options={sites.map((s) => ({ value: s.platformId, label: s.name }))}
              onChange={(id) => {
                setPlatformId(id);
                setBefore({ note: '' });
                setAfter({ note: '' });
              }}
              aria-label={t('site')}
            />
            <Input
              style={{ width: 320 }}
              maxLength={200}
              placeholder={t('subject')}
              aria-label={t('subject')}
              value={subject}
              onChange={(e) => setSubject(e.target.value)}
            />
            <Button
              type="primary"
              data-testid="ic-run"
              icon={<PlayCircleOutlined />}
              disabled={!ready}
              loading={q.isFetching}
              onClick={run}
            >
              {t('run')}
            </Button>
          </Flex>
          <Row gutter={[12, 12]}>
            {side('before', before, setBefore)}
            {side('after', after, setAfter)}
          </Row>
        </Flex>
      </Card>
      {q.error ? <Alert type="error" showIcon message={(q.error as Error).message} /> : null}
      {!r && !q.isFetching && !q.error ? <Alert type="info" showIcon message={t('hint')} /> : null}
      {r && asked && (
        <ReportView
          document={r.document}
          extra={
            <ReportDownloads
              path={imageComparisonRoutes.getImageComparison.path}
              params={{ ...asked }}
              formats={['xlsx', 'pdf', 'docx']}
            />
          }
        />
      )}
    </Flex>
  );
}
