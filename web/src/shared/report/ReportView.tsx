import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { Card, Descriptions, Divider, Empty, Image, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import {
  cameraRoutes,
  snapshotIdOfPicture,
  type ReportBlock,
  type ReportCellValue,
  type ReportChart,
  type ReportDocument,
} from '@geosentry/contract';
import { useTranslation } from 'react-i18next';
import { getToken } from '../storage.ts';
import { formatInZone, zoneLabel } from '../time.ts';
import { cellText, columnTitle } from './cells.ts';
import { reportChartOption } from './reportChart.ts';

/** ECharts loads with the first chart of a report, not with the screen. */
const EChart = lazy(() => import('../charts/EChart.tsx').then((m) => ({ default: m.EChart })));

/** Rows a table shows per page in the browser (the files hold them all). */
export const REPORT_TABLE_PAGE = 50;

/**
 * The address of a report's picture: a stored file's, or a camera snapshot's (`snap-<n>`); the token as a query
 * parameter (an <img> sends no headers).
 */
export function reportImageUrl(fileId: string): string {
  const token = encodeURIComponent(getToken() ?? '');
  const snap = snapshotIdOfPicture(String(fileId));
  if (snap !== null) return `${cameraRoutes.snapshotFile.path}?id=${snap}&token=${token}`;
  return `/api/v2/file/getOriginalImage?file_id=${encodeURIComponent(String(fileId))}&token=${token}`;
}

interface Row {
  key: number;
  cells: ReportCellValue[];
}

function ReportTable({ block, zone }: { block: Extract<ReportBlock, { kind: 'table' }>; zone: string }) {
  const { t } = useTranslation('reports');
  const emphasis = useMemo(() => new Set(block.emphasis ?? []), [block.emphasis]);
  const columns: ColumnsType<Row> = block.columns.map((c, i) => ({
    key: i,
    title: columnTitle(c),
    align: c.kind === 'number' ? 'right' : 'left',
    width: c.width ? Math.max(64, c.width * 9) : undefined,
    render: (_: unknown, r) => {
      const text = cellText(r.cells[i] ?? null, c, zone);
      return emphasis.has(r.key) ? <strong>{text}</strong> : text;
    },
    className: c.kind === 'number' ? 'gs-report-num' : undefined,
  }));
  const data = useMemo(() => block.rows.map((cells, key) => ({ key, cells })), [block.rows]);
  return (
    <div className="gs-report-table" data-testid="report-table">
      {block.caption && <Typography.Text strong>{block.caption}</Typography.Text>}
      <Table
        size="small"
        bordered
        columns={columns}
        dataSource={data}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('view.noRows') }}
        pagination={
          data.length > REPORT_TABLE_PAGE
            ? {
                pageSize: REPORT_TABLE_PAGE,
                showSizeChanger: false,
                size: 'small',
                showTotal: (n) => t('view.rows', { count: n }),
              }
            : false
        }
      />
    </div>
  );
}

function ReportChartBlock({ chart, zone }: { chart: ReportChart; zone: string }) {
  const option = useMemo(() => reportChartOption(chart, zone), [chart, zone]);
  const empty = chart.series.every((s) => s.points.length === 0);
  return (
    <div className="gs-report-chart" data-testid="report-chart">
      <Typography.Text strong>{chart.title}</Typography.Text>
      {empty ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Suspense fallback={<div style={{ height: 320 }} />}>
          <EChart option={option} notMerge height={320} aria-label={chart.title} />
        </Suspense>
      )}
    </div>
  );
}

function Block({ block, zone }: { block: ReportBlock; zone: string }): ReactNode {
  switch (block.kind) {
    case 'heading':
      return (
        <Typography.Title level={(block.level + 2) as 3 | 4 | 5} style={{ marginTop: 8 }}>
          {block.text}
        </Typography.Title>
      );
    case 'paragraph':
      return <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{block.text}</Typography.Paragraph>;
    case 'fields':
      return (
        <Descriptions size="small" bordered column={{ xs: 1, md: 2, xl: 3 }}>
          {block.fields.map((f, i) => (
            <Descriptions.Item key={i} label={f.label}>
              {f.value}
            </Descriptions.Item>
          ))}
        </Descriptions>
      );
    case 'table':
      return <ReportTable block={block} zone={zone} />;
    case 'chart':
      return <ReportChartBlock chart={block.chart} zone={zone} />;
    case 'images':
      return (
        <Space wrap align="start" size={16}>
          {block.images.map((im, i) => (
            <figure key={i} style={{ margin: 0, width: 280 }}>
              <Image src={reportImageUrl(im.fileId)} alt={im.caption} width={280} />
              <figcaption>
                <Typography.Text strong>{im.caption}</Typography.Text>
                {im.takenAt && <div>{formatInZone(im.takenAt, zone)}</div>}
                {im.note && <Typography.Text type="secondary">{im.note}</Typography.Text>}
              </figcaption>
            </figure>
          ))}
        </Space>
      );
    case 'pageBreak':
      return <Divider dashed className="gs-report-break" />;
  }
}

export interface ReportViewProps {
  document: ReportDocument;
  /** Shown right of the title (e.g. <ReportDownloads/>). */
  extra?: ReactNode;
}

/**
 * Draws a ReportDocument (contract/src/reportDocument) on screen: the title and meta card (with the document's
 * time zone named), then each section's blocks. Texts come translated from the server; numbers are padded to
 * their column's decimals and right-aligned; times are shown in the document's zone; large tables page in the
 * browser (REPORT_TABLE_PAGE rows). Test hooks: data-testid report-view, report-section, report-table, report-chart.
 */
export function ReportView({ document: doc, extra }: ReportViewProps) {
  const { t } = useTranslation('reports');
  return (
    <div className="gs-report" data-testid="report-view" style={{ maxWidth: '100%' }}>
      <Card
        size="small"
        title={
          <span>
            {doc.title}
            {doc.subtitle && (
              <Typography.Text type="secondary" style={{ marginLeft: 8, fontWeight: 'normal' }}>
                {doc.subtitle}
              </Typography.Text>
            )}
          </span>
        }
        extra={extra}
      >
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} data-testid="report-meta">
          {doc.meta.map((m, i) => (
            <Descriptions.Item key={i} label={m.label}>
              {m.value}
            </Descriptions.Item>
          ))}
          <Descriptions.Item label={t('view.timeZone')}>{zoneLabel(doc.timeZone)}</Descriptions.Item>
          <Descriptions.Item label={t('view.generatedAt')}>
            {formatInZone(doc.generatedAt, doc.timeZone)}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      {doc.sections.map((s, i) => (
        <Card key={i} size="small" title={s.title} style={{ marginTop: 12 }} data-testid="report-section">
          <Space direction="vertical" size={12} style={{ width: '100%' }}>
            {s.blocks.map((b, j) => (
              <Block key={j} block={b} zone={doc.timeZone} />
            ))}
          </Space>
        </Card>
      ))}
    </div>
  );
}
