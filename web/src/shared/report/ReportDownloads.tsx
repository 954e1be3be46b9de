import { useState } from 'react';
import { App, Button, Space } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ReportFormat } from '@geosentry/contract';
import { downloadFile } from './download.ts';

export interface ReportDownloadsProps {
  /** The report route's path (GET with the token header and the parameters, or POST with them as the body). */
  path: string;
  method?: 'GET' | 'POST';
  /** The report's parameters; the format goes in `formatParam`. */
  params: Record<string, unknown>;
  formats?: readonly Exclude<ReportFormat, 'json'>[];
  formatParam?: string;
  disabled?: boolean;
}

/**
 * The download bar of a report: one button per file format, each downloading the report through the API
 * (see downloadFile) under the server's file name; a failure shows the server's translated message.
 * Test hooks: data-testid report-download-<format>.
 */
export function ReportDownloads({
  path,
  method = 'GET',
  params,
  formats = ['xlsx', 'pdf'],
  formatParam = 'format',
  disabled,
}: ReportDownloadsProps) {
  const { t } = useTranslation('reports');
  const { message } = App.useApp();
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (format: string) => {
    setBusy(format);
    try {
      const name = await downloadFile(method, path, { ...params, [formatParam]: format }, `report.${format}`);
      void message.success(t('download.saved', { name }));
    } catch (e) {
      void message.error((e as Error).message || t('download.failed'));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Space size={8}>
      {formats.map((f) => (
        <Button
          key={f}
          size="small"
          icon={<DownloadOutlined />}
          loading={busy === f}
          disabled={disabled || (busy !== null && busy !== f)}
          onClick={() => void run(f)}
          data-testid={`report-download-${f}`}
        >
          {t(`download.${f}`)}
        </Button>
      ))}
    </Space>
  );
}
