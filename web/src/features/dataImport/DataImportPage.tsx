import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Form, Radio, Select, Space, Steps, Table, Typography, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  IMPORT_TIME_FORMATS,
  IMPORT_ZONE_FROM_VALUE,
  type DryRunResult,
  type ImportFile,
  type ImportMapping,
  type ImportResult,
  type ImportTarget,
  type Job,
} from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { JobProgress, useJob } from '../../shared/jobs/index.ts';
import { useMonitorTypes } from '../../shared/catalogue.ts';
import { useMonitorSites, useSiteDevices } from '../../shared/monitorSites.ts';
import { useTimeZone } from '../../shared/useTimeZone.ts';
import { allTimeZones, formatInZone } from '../../shared/time.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { checkFile, previewFile, startDryRun, startImport, uploadImportFile } from './dataImportApi.ts';

const num = (v: string | null): number | null => {
  const n = Number(v);
  return v && Number.isInteger(n) && n > 0 ? n : null;
};

interface MappingForm {
  target: ImportTarget;
  sheet?: string;
  timeColumn?: number;
  timeFormat: (typeof IMPORT_TIME_FORMATS)[number];
  timeZone: string;
  moduleId?: number;
  deviceMode: 'column' | 'fixed';
  deviceColumn?: number;
  deviceKey: 'number' | 'name';
  platformId?: number;
  deviceId?: number;
  quantities: Record<string, number | undefined>;
  sectionColumn?: number;
  elevationColumn?: number;
}

/**
 * /data/dataImport (role monitor:dataImport): readings of devices, or manual water levels of sections, from a
 * csv or xlsx file. Steps: upload (type and size checked here, content by the server), preview of the first rows,
 * the column mapping, the dry run (rows to add, duplicates, errors by line), the import with live progress. The
 * file, the dry run and the import job are in the address (?fileId, ?dryRun, ?import): a refresh keeps the step.
 * Test hooks: data-testid import-upload, import-preview, import-dryrun, import-errors, import-run, import-result.
 */
export default function DataImportPage() {
  const { t } = useTranslation('dataImport');
  const [search, setSearch] = useSearchParams();
  const fileId = search.get('fileId');
  const sheetParam = search.get('sheet') ?? undefined;
  const dryRunId = num(search.get('dryRun'));
  const importId = num(search.get('import'));
  const { zone } = useTimeZone();
  const types = useMonitorTypes();
  const { sites } = useMonitorSites();
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [form] = Form.useForm<MappingForm>();
  const target = Form.useWatch('target', form) ?? 'readings';
  const moduleId = Form.useWatch('moduleId', form);
  const deviceMode = Form.useWatch('deviceMode', form) ?? 'column';
  const platformId = Form.useWatch('platformId', form);
  const devices = useSiteDevices(platformId);

  const setParams = (next: Record<string, string | null>) =>
    setSearch(
      (p) => {
        const n = new URLSearchParams(p);
        for (const [k, v] of Object.entries(next))
          if (v === null) n.delete(k);
          else n.set(k, v);
        return n;
      },
      { replace: false },
    );

  const preview = useQuery({
    queryKey: ['dataImport', 'preview', fileId, sheetParam ?? null],
    queryFn: () => previewFile(fileId!, sheetParam),
    enabled: !!fileId,
    retry: retryUnlessCancelled,
    staleTime: Infinity,
  });
  const file: ImportFile | undefined = preview.data;

  const upload = useMutation({
    mutationFn: uploadImportFile,
    onSuccess: (f) => {
      setUploadError(null);
      setParams({ fileId: f.fileId, sheet: f.sheet, dryRun: null, import: null });
    },
    onError: (e) => setUploadError((e as Error).message),
  });

  const dry = useMutation({
    mutationFn: startDryRun,
    onSuccess: (j) => setParams({ dryRun: String(j.id), import: null }),
  });
  const run = useMutation({
    mutationFn: startImport,
    onSuccess: (j) => setParams({ import: String(j.id) }),
  });
  const dryJob = useJob(dryRunId);
  const dryResult = dryJob.job?.state === 'done' ? (dryJob.job.result as DryRunResult | null) : null;

  const columns = useMemo(
    () => (file?.header ?? []).map((h, i) => ({ value: i, label: `${i + 1}. ${h || '-'}` })),
    [file?.header],
  );

  const submit = (v: MappingForm) => {
    if (!fileId) return;
    const quantities: Record<string, number> = {};
    for (const [k, c] of Object.entries(v.quantities ?? {})) if (c !== undefined && c !== null) quantities[k] = c;
    const m = {
      fileId,
      sheet: file?.sheet ?? undefined,
      target: v.target,
      timeColumn: v.timeColumn,
      timeFormat: v.timeFormat,
      timeZone: v.timeZone,
      ...(v.target === 'readings'
        ? v.deviceMode === 'column'
          ? { deviceColumn: v.deviceColumn, deviceKey: v.deviceKey, quantities }
          : { deviceId: v.deviceId, quantities }
        : { sectionColumn: v.sectionColumn, elevationColumn: v.elevationColumn }),
    } as ImportMapping;
    dry.mutate(m);
  };

  const step = importId ? 4 : dryRunId ? 3 : file ? 2 : 0;
  const zones = useMemo(
    () => [
      { value: IMPORT_ZONE_FROM_VALUE, label: t('map.zoneFromValue') },
      ...allTimeZones().map((z) => ({ value: z, label: z })),
    ],
    [t],
  );

  return (
    <div className="gs-data-import">
      <PageHeaderCard title={t('title')} description={t('description')} />
      <Card size="small" style={{ marginTop: 12 }}>
        <Steps
          size="small"
          current={step}
          items={[
            { title: t('steps.upload') },
            { title: t('steps.preview') },
            { title: t('steps.map') },
            { title: t('steps.dryRun') },
            { title: t('steps.import') },
          ]}
        />
      </Card>

      <Card size="small" title={t('upload.title')} style={{ marginTop: 12 }}>
        <Upload.Dragger
          accept=".csv,.xlsx"
          multiple={false}
          showUploadList={false}
          beforeUpload={(f) => {
            const bad = checkFile(f);
            if (bad) setUploadError(bad);
            else upload.mutate(f);
            return false;
          }}
          disabled={upload.isPending}
          data-testid="import-upload"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p>{upload.isPending ? t('upload.sending') : t('upload.hint')}</p>
        </Upload.Dragger>
        {uploadError && (
          <Alert
            style={{ marginTop: 8 }}
            type="error"
            showIcon
            message={uploadError}
            data-testid="import-upload-error"
          />
        )}
        {preview.error ? (
          <Alert style={{ marginTop: 8 }} type="error" showIcon message={(preview.error as Error).message} />
        ) : null}
      </Card>

      {file && (
        <Card
          size="small"
          style={{ marginTop: 12 }}
          title={t('preview.title', { name: file.name })}
          extra={
            file.sheets.length > 1 && (
              <Select
                size="small"
                style={{ width: 200 }}
                value={file.sheet ?? undefined}
                options={file.sheets.map((s) => ({ value: s, label: s }))}
                onChange={(s: string) => setParams({ sheet: s, dryRun: null, import: null })}
              />
            )
          }
        >
          <Table
            size="small"
            bordered
            data-testid="import-preview"
            pagination={false}
            scroll={{ x: 'max-content', y: 260 }}
            rowKey="line"
            dataSource={file.rows}
            columns={[
              { title: t('preview.line'), dataIndex: 'line', width: 64, fixed: 'left' as const },
              ...file.header.map((h, i) => ({
                key: i,
                title: h || `#${i + 1}`,
                render: (_: unknown, r: ImportFile['rows'][number]) => r.cells[i] ?? '',
              })),
            ]}
          />
        </Card>
      )}

      {file && (
        <Card size="small" title={t('map.title')} style={{ marginTop: 12 }}>
          <Form<MappingForm>
            form={form}
            layout="vertical"
            onFinish={submit}
            initialValues={{
              target: 'readings',
              timeFormat: 'iso',
              timeZone: zone,
              deviceMode: 'column',
              deviceKey: 'number',
              quantities: {},
            }}
            onValuesChange={() => dry.reset()}
          >
            <Space wrap align="start" size={16}>
              <Form.Item name="target" label={t('map.target')}>
                <Radio.Group
                  optionType="button"
                  options={[
                    { value: 'readings', label: t('target.readings') },
                    { value: 'waterLevel', label: t('target.waterLevel') },
                  ]}
                />
              </Form.Item>
              <Form.Item name="timeColumn" label={t('map.timeColumn')} rules={[{ required: true }]}>
                <Select style={{ width: 200 }} options={columns} data-testid="map-time" />
              </Form.Item>
              <Form.Item name="timeFormat" label={t('map.timeFormat')}>
                <Select
                  style={{ width: 220 }}
                  options={IMPORT_TIME_FORMATS.map((f) => ({ value: f, label: t(`timeFormat.${f}`) }))}
                />
              </Form.Item>
              <Form.Item name="timeZone" label={t('map.timeZone')}>
                <Select showSearch style={{ width: 240 }} options={zones} />
              </Form.Item>
            </Space>
            {target === 'readings' ? (
              <>
                <Space wrap align="start" size={16}>
                  <Form.Item name="deviceMode" label={t('map.device')}>
                    <Radio.Group
                      options={[
                        { value: 'column', label: t('map.deviceColumn') },
                        { value: 'fixed', label: t('map.deviceFixed') },
                      ]}
                    />
                  </Form.Item>
                  {deviceMode === 'column' ? (
                    <>
                      <Form.Item name="deviceColumn" label={t('map.deviceColumnPick')} rules={[{ required: true }]}>
                        <Select style={{ width: 200 }} options={columns} data-testid="map-device" />
                      </Form.Item>
                      <Form.Item name="deviceKey" label={t('map.deviceKey')}>
                        <Select
                          style={{ width: 160 }}
                          options={[
                            { value: 'number', label: t('map.byNumber') },
                            { value: 'name', label: t('map.byName') },
                          ]}
                        />
                      </Form.Item>
                    </>
                  ) : (
                    <>
                      <Form.Item name="platformId" label={t('map.site')} rules={[{ required: true }]}>
                        <Select
                          showSearch
                          optionFilterProp="label"
                          style={{ width: 220 }}
                          options={sites.map((s) => ({ value: s.platformId, label: s.name }))}
                        />
                      </Form.Item>
                      <Form.Item name="deviceId" label={t('map.fixedDevice')} rules={[{ required: true }]}>
                        <Select
                          showSearch
                          optionFilterProp="label"
                          style={{ width: 220 }}
                          options={(devices.data ?? [])
                            .filter((d) => moduleId === undefined || d.moduleId === moduleId)
                            .map((d) => ({ value: d.deviceId, label: `${d.deviceName} (${d.number})` }))}
                        />
                      </Form.Item>
                    </>
                  )}
                  <Form.Item name="moduleId" label={t('map.monitorType')} rules={[{ required: true }]}>
                    <Select
                      showSearch
                      optionFilterProp="label"
                      style={{ width: 240 }}
                      options={types.options}
                      data-testid="map-type"
                    />
                  </Form.Item>
                </Space>
                {moduleId !== undefined && (
                  <Space wrap align="start" size={16}>
                    {types.quantities(moduleId).map((q) => (
                      <Form.Item
                        key={q.key}
                        name={['quantities', q.key]}
                        label={q.unit ? `${q.text} (${q.unit})` : q.text}
                      >
                        <Select allowClear style={{ width: 180 }} options={columns} data-testid={`map-q-${q.key}`} />
                      </Form.Item>
                    ))}
                  </Space>
                )}
              </>
            ) : (
              <Space wrap align="start" size={16}>
                <Form.Item name="sectionColumn" label={t('map.sectionColumn')} rules={[{ required: true }]}>
                  <Select style={{ width: 200 }} options={columns} />
                </Form.Item>
                <Form.Item name="elevationColumn" label={t('map.elevationColumn')} rules={[{ required: true }]}>
                  <Select style={{ width: 200 }} options={columns} />
                </Form.Item>
              </Space>
            )}
            {dry.error && <Alert type="error" showIcon message={dry.error.message} style={{ marginBottom: 8 }} />}
            <Button type="primary" htmlType="submit" loading={dry.isPending} data-testid="import-dryrun">
              {t('dryRun.start')}
            </Button>
          </Form>
        </Card>
      )}

      {dryRunId && (
        <Card size="small" title={t('dryRun.title')} style={{ marginTop: 12 }}>
          <JobProgress jobId={dryRunId} renderResult={(j) => <DryRunSummary job={j} zone={zone} />} />
          {dryResult && (
            <Space style={{ marginTop: 12 }}>
              <Button
                type="primary"
                disabled={dryResult.errorCount > 0 || dryResult.toAdd === 0 || !!importId}
                loading={run.isPending}
                onClick={() => run.mutate(dryRunId)}
                data-testid="import-run"
              >
                {t('run.start', { count: dryResult.toAdd })}
              </Button>
              {dryResult.errorCount > 0 && <Typography.Text type="danger">{t('run.fixFirst')}</Typography.Text>}
            </Space>
          )}
          {run.error && <Alert type="error" showIcon message={run.error.message} style={{ marginTop: 8 }} />}
        </Card>
      )}

      {importId && (
        <Card size="small" title={t('run.title')} style={{ marginTop: 12 }}>
          <JobProgress jobId={importId} renderResult={(j) => <ImportSummary job={j} />} />
        </Card>
      )}
    </div>
  );
}

function DryRunSummary({ job, zone }: { job: Job; zone: string }) {
  const { t } = useTranslation('dataImport');
  const r = job.result as DryRunResult | null;
  if (!r) return null;
  return (
    <div data-testid="import-dryrun-result">
      <Descriptions size="small" bordered column={3}>
        <Descriptions.Item label={t('dryRun.rows')}>{r.rows}</Descriptions.Item>
        <Descriptions.Item label={t('dryRun.toAdd')}>{r.toAdd}</Descriptions.Item>
        <Descriptions.Item label={t('dryRun.duplicatesStored')}>{r.duplicatesStored}</Descriptions.Item>
        <Descriptions.Item label={t('dryRun.duplicatesInFile')}>{r.duplicatesInFile}</Descriptions.Item>
        <Descriptions.Item label={t('dryRun.errors')}>{r.errorCount}</Descriptions.Item>
        <Descriptions.Item label={t('dryRun.targets')}>{r.targets}</Descriptions.Item>
        <Descriptions.Item label={t('dryRun.span')} span={3}>
          {r.from ? `${formatInZone(r.from, zone)} – ${formatInZone(r.to, zone)} (${zone})` : '-'}
        </Descriptions.Item>
      </Descriptions>
      {r.errors.length > 0 && (
        <Table
          size="small"
          bordered
          style={{ marginTop: 8 }}
          data-testid="import-errors"
          rowKey={(e) => `${e.line}:${e.column ?? ''}:${e.reason}`}
          dataSource={r.errors}
          pagination={{ pageSize: 20, showSizeChanger: false, size: 'small' }}
          columns={[
            { title: t('errors.line'), dataIndex: 'line', width: 80 },
            { title: t('errors.reason'), dataIndex: 'reason', render: (v: string) => t(`rowError.${v}`) },
            { title: t('errors.column'), dataIndex: 'column', render: (v: string | null) => v ?? '' },
            { title: t('errors.value'), dataIndex: 'value', render: (v: string | null) => v ?? '' },
          ]}
        />
      )}
    </div>
  );
}

function ImportSummary({ job }: { job: Job }) {
  const { t } = useTranslation('dataImport');
  const r = job.result as ImportResult | null;
  if (!r) return null;
  return (
    <div data-testid="import-result">
      <Descriptions size="small" bordered column={3}>
        <Descriptions.Item label={t('run.rows')}>{r.rows}</Descriptions.Item>
        <Descriptions.Item label={t('run.added')}>{r.added}</Descriptions.Item>
        <Descriptions.Item label={t('run.duplicates')}>{r.duplicates}</Descriptions.Item>
        <Descriptions.Item label={t('run.silent')}>{r.silent}</Descriptions.Item>
        <Descriptions.Item label={t('run.evaluated')}>{r.evaluated}</Descriptions.Item>
      </Descriptions>
      {r.target === 'readings' && (
        <Link to="/monitor/historyData" style={{ display: 'inline-block', marginTop: 8 }}>
          {t('run.toHistory')}
        </Link>
      )}
    </div>
  );
}
