import { useEffect, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Col, Flex, Modal, Progress, Result, Row, Select, Table, Typography, Upload } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import {
  DEVICE_IMPORT_COLUMNS,
  DEVICE_IMPORT_MAX_BYTES,
  DEVICE_IMPORT_MAX_ROWS,
  type DeviceFileFormat,
  type DeviceImportError,
} from '@geosentry/contract';
import { useSiteOptions } from '../../shared/sites.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { fetchAllTerminals, terminalKeys } from '../terminals/index.ts';
import { deviceKeys, fetchImportProgress, startDeviceImport } from './devicesApi.ts';

export interface DeviceImportModalProps {
  open: boolean;
  defaultPlatformId?: number | undefined;
  onClose: () => void;
  /** Rows were inserted: the list should be asked again. */
  onImported: () => void;
}

interface PickedFile {
  name: string;
  size: number;
  format: DeviceFileFormat;
  contentBase64: string;
}

const REQUIRED_COLUMNS = ['deviceName', 'number', 'moduleId', 'platformId', 'terminalId', 'ip', 'port'];
const MB = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => {
      const url = String(r.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    r.onerror = () => reject(r.error ?? new Error('read failed'));
    r.readAsDataURL(file);
  });
}

/** Saves the import template: the column names of DEVICE_IMPORT_COLUMNS, as CSV with a UTF-8 BOM. */
function downloadTemplate(): void {
  const blob = new Blob([`\ufeff${DEVICE_IMPORT_COLUMNS.join(',')}\r\n`], { type: 'text/csv;charset=utf-8' });
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = 'devices-template.csv';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/**
 * Bulk import of devices from CSV or XLSX: the file is read in the browser and sent base64-encoded; the server
 * checks and inserts the rows in the background while the progress is polled; the row errors are listed.
 */
export function DeviceImportModal({ open, defaultPlatformId, onClose, onImported }: DeviceImportModalProps) {
  const { t } = useTranslation('devices');
  const sites = useSiteOptions(open);
  const [file, setFile] = useState<PickedFile | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [platformId, setPlatformId] = useState<number | undefined>(undefined);
  const [terminalId, setTerminalId] = useState<number | undefined>(undefined);
  const [jobId, setJobId] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setFile(null);
    setFileError(null);
    setJobId(null);
    setPlatformId(defaultPlatformId);
    setTerminalId(undefined);
  }, [open, defaultPlatformId]);

  const terminals = useQuery({
    queryKey: terminalKeys.ofSite(platformId),
    queryFn: () => fetchAllTerminals(platformId),
    enabled: open && platformId !== undefined,
    retry: retryUnlessCancelled,
  });

  const start = useMutation({
    mutationFn: (f: PickedFile) =>
      startDeviceImport({ format: f.format, contentBase64: f.contentBase64, platformId, terminalId }),
    onSuccess: (r) => setJobId(r.jobId),
  });

  const job = useQuery({
    queryKey: deviceKeys.importJob(jobId ?? ''),
    queryFn: () => fetchImportProgress(jobId!),
    enabled: jobId !== null,
    retry: retryUnlessCancelled,
    refetchInterval: (q) => (q.state.data && q.state.data.status !== 'running' ? false : 700),
  });
  const finished = job.data !== undefined && job.data.status !== 'running';

  useEffect(() => {
    if (finished && (job.data?.inserted ?? 0) > 0) onImported();
  }, [finished, job.data?.inserted, onImported]);

  const pick = async (f: File) => {
    setFileError(null);
    const ext = f.name.toLowerCase().split('.').pop();
    if (ext !== 'csv' && ext !== 'xlsx') {
      setFile(null);
      setFileError(t('import.wrongType'));
      return;
    }
    if (f.size > DEVICE_IMPORT_MAX_BYTES) {
      setFile(null);
      setFileError(t('import.tooLarge', { max: MB(DEVICE_IMPORT_MAX_BYTES) }));
      return;
    }
    try {
      setFile({ name: f.name, size: f.size, format: ext, contentBase64: await readBase64(f) });
    } catch {
      setFile(null);
      setFileError(t('import.readFailed'));
    }
  };

  const running = jobId !== null && !finished;
  const percent = job.data && job.data.total > 0 ? Math.floor((job.data.done / job.data.total) * 100) : 0;
  const errors = job.data?.errors ?? [];

  return (
    <Modal
      open={open}
      width={760}
      title={t('import.title')}
      onCancel={onClose}
      mask={{ closable: !running && !start.isPending }}
      footer={
        jobId === null ? (
          <Flex justify="flex-end" gap={8}>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button
              type="primary"
              data-testid="device-import-start"
              disabled={file === null}
              loading={start.isPending}
              onClick={() => file && start.mutate(file)}
            >
              {t('import.start')}
            </Button>
          </Flex>
        ) : (
          <Button type="primary" data-testid="device-import-close" disabled={running} onClick={onClose}>
            {t('import.close')}
          </Button>
        )
      }
    >
      {jobId === null ? (
        <Flex vertical gap={16} style={{ marginTop: 8 }}>
          <Alert
            type="info"
            showIcon
            title={t('import.howTitle')}
            description={
              <Flex vertical gap={4}>
                <span>{t('import.howColumns', { columns: REQUIRED_COLUMNS.join(', ') })}</span>
                <span>{t('import.howDefaults')}</span>
                <span>
                  {t('import.howLimits', { rows: DEVICE_IMPORT_MAX_ROWS, size: MB(DEVICE_IMPORT_MAX_BYTES) })}
                </span>
              </Flex>
            }
          />
          <div>
            <Button icon={<DownloadOutlined />} data-testid="device-import-template" onClick={downloadTemplate}>
              {t('import.template')}
            </Button>
          </div>
          <Row gutter={16}>
            <Col span={12}>
              <Typography.Text type="secondary">{t('import.defaultSite')}</Typography.Text>
              <Select<number>
                id="device-import-site"
                allowClear
                style={{ width: '100%', marginTop: 4 }}
                placeholder={t('import.fromFile')}
                value={platformId}
                loading={sites.isLoading}
                options={sites.options}
                showSearch={{ optionFilterProp: 'label' }}
                onChange={(v) => {
                  setPlatformId(v ?? undefined);
                  setTerminalId(undefined);
                }}
              />
            </Col>
            <Col span={12}>
              <Typography.Text type="secondary">{t('import.defaultTerminal')}</Typography.Text>
              <Select<number>
                id="device-import-terminal"
                allowClear
                style={{ width: '100%', marginTop: 4 }}
                placeholder={t('import.fromFile')}
                disabled={platformId === undefined}
                value={terminalId}
                loading={terminals.isLoading}
                options={(terminals.data ?? []).map((x) => ({ value: x.terminalId, label: `${x.name} (${x.serial})` }))}
                onChange={(v) => setTerminalId(v ?? undefined)}
              />
            </Col>
          </Row>
          <div data-testid="device-import-file">
            <Upload.Dragger
              accept=".csv,.xlsx"
              multiple={false}
              showUploadList={false}
              beforeUpload={(f) => {
                void pick(f);
                return false;
              }}
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p className="ant-upload-text">{file ? file.name : t('import.drop')}</p>
              <p className="ant-upload-hint">
                {file ? t('import.fileSize', { size: (file.size / 1024).toFixed(1) }) : t('import.dropHint')}
              </p>
            </Upload.Dragger>
          </div>
          {fileError ? <Alert type="error" showIcon title={fileError} /> : null}
        </Flex>
      ) : (
        <Flex vertical gap={16} style={{ marginTop: 8 }}>
          <div>
            <Typography.Text>{running ? t('import.running') : t('import.finished')}</Typography.Text>
            <Progress
              data-testid="device-import-progress"
              percent={finished ? 100 : percent}
              status={job.data?.status === 'failed' ? 'exception' : finished ? 'success' : 'active'}
              format={() => `${job.data?.done ?? 0}/${job.data?.total ?? 0}`}
            />
          </div>
          {finished && job.data ? (
            <>
              <Result
                style={{ padding: '8px 0' }}
                status={job.data.status === 'failed' ? 'error' : errors.length ? 'warning' : 'success'}
                title={
                  job.data.status === 'failed'
                    ? t('import.failed')
                    : t('import.summary', { inserted: job.data.inserted, total: job.data.total })
                }
                subTitle={errors.length ? t('import.errorCount', { count: errors.length }) : undefined}
              />
              {errors.length ? (
                <Table<DeviceImportError & { i: number }>
                  size="small"
                  rowKey="i"
                  data-testid="device-import-errors"
                  dataSource={errors.map((e, i) => ({ ...e, i }))}
                  pagination={{ pageSize: 8, hideOnSinglePage: true, showSizeChanger: false }}
                  columns={[
                    { title: t('import.row'), dataIndex: 'row', key: 'row', width: 80 },
                    { title: t('import.field'), dataIndex: 'field', key: 'field', width: 160 },
                    { title: t('import.message'), dataIndex: 'message', key: 'message' },
                  ]}
                />
              ) : null}
            </>
          ) : null}
        </Flex>
      )}
    </Modal>
  );
}
