import { useState, type ReactElement } from 'react';
import { useNavigate } from 'react-router-dom';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Form, Input, Modal, Progress, Select, Typography, Upload, message } from 'antd';
import { AimOutlined, EyeOutlined, PictureOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { panoramasRoutes, type PanoramaRow } from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { SiteFilter } from '../../shared/table/SiteFilter.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { useSiteOptions } from '../../shared/sites.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { formatTime } from '../../shared/time.ts';
import { uploadForm } from '../threeD/index.ts';
import {
  PANORAMA_SORT_FIELDS,
  deletePanorama,
  fetchPanoramas,
  panoKeys,
  renamePanorama,
  type PanoramaListParams,
} from './panoramasApi.ts';
import { HotspotEditor } from './HotspotEditor.tsx';

/** /vrManage (hidden): the panoramas of the caller's sites: upload, rename, delete, place hotspots. */
export default function PanoramaManagePage(): ReactElement {
  const { t } = useTranslation('panoramas');
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [msg, holder] = message.useMessage();
  const sites = useSiteOptions();
  const table = useServerTable<PanoramaListParams>({ pageNum: 1, pageSize: 10 }, PANORAMA_SORT_FIELDS, {
    filters: { platformId: 'number', keyword: 'string' },
  });
  const { params } = table;
  const [keyword, setKeyword] = useState(params.keyword ?? '');
  const [uploading, setUploading] = useState(false);
  const [renaming, setRenaming] = useState<PanoramaRow | null>(null);
  const [editing, setEditing] = useState<PanoramaRow | null>(null);
  const list = useQuery({
    queryKey: panoKeys.list(params),
    queryFn: () => fetchPanoramas(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const refresh = () => qc.invalidateQueries({ queryKey: panoKeys.all });

  const columns: ServerColumn<PanoramaRow>[] = [
    { key: 'name', title: t('fields.name'), dataIndex: 'name', width: 200, sortable: true, hideable: false },
    { key: 'platformName', title: t('fields.site'), dataIndex: 'platformName', width: 180, sortable: true },
    {
      key: 'size',
      title: t('fields.size'),
      width: 170,
      optional: true,
      render: (_v, r) =>
        `${r.width} × ${r.height} · ${r.size < 1024 * 1024 ? `${Math.ceil(r.size / 1024)} KB` : `${(r.size / 1024 / 1024).toFixed(1)} MB`}`,
    },
    { key: 'hotspots', title: t('fields.hotspots'), dataIndex: 'hotspots', width: 100 },
    {
      key: 'createdAt',
      title: t('fields.createdAt'),
      dataIndex: 'createdAt',
      width: 170,
      sortable: true,
      render: (v: string) => formatTime(v),
    },
    {
      key: 'actions',
      title: t('fields.actions'),
      width: 330,
      fixed: 'right',
      render: (_v, r) => (
        <Flex wrap={false}>
          <Button
            type="link"
            size="small"
            icon={<AimOutlined />}
            data-testid="pano-hotspots"
            onClick={() => setEditing(r)}
          >
            {t('actions.hotspots')}
          </Button>
          <Button
            type="link"
            size="small"
            icon={<EyeOutlined />}
            onClick={() => navigate(`/vr?platformId=${r.platformId}&id=${r.id}`)}
          >
            {t('actions.view')}
          </Button>
          <Button type="link" size="small" onClick={() => setRenaming(r)}>
            {t('actions.rename')}
          </Button>
          <DeleteAction
            title={t('confirm.deleteTitle', { name: r.name })}
            description={t('confirm.deleteContent')}
            label={t('actions.delete')}
            onDelete={() => deletePanorama(r.id)}
            success={t('messages.deleted')}
            onDone={() => {
              table.afterDelete(list.data?.list.length ?? 0);
              void refresh();
            }}
          />
        </Flex>
      ),
    },
  ];

  return (
    <ListPage icon={<PictureOutlined />} title={t('manage.title')} description={t('manage.description')}>
      {holder}
      <ServerTable<PanoramaRow>
        tableId="panoramas"
        rowKey="id"
        data-testid="pano-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(total) => t('list.total', { count: total })}
        filters={
          <>
            <SiteFilter
              sites={sites.sites}
              loading={sites.isLoading}
              value={params.platformId}
              onChange={(platformId) => table.setFilter({ platformId })}
              placeholder={t('fields.site')}
            />
            <Input.Search
              allowClear
              style={{ width: 240 }}
              placeholder={t('filters.keyword')}
              value={keyword}
              onChange={(e) => setKeyword(e.target.value)}
              onSearch={(v) => table.setFilter({ keyword: v.trim() || undefined })}
            />
          </>
        }
        actions={
          <Button type="primary" icon={<PlusOutlined />} data-testid="pano-add" onClick={() => setUploading(true)}>
            {t('actions.upload')}
          </Button>
        }
      />
      <UploadModal
        open={uploading}
        sites={sites.options}
        defaultSite={params.platformId}
        onClose={() => setUploading(false)}
        onDone={() => {
          setUploading(false);
          void msg.success(t('messages.uploaded'));
          void refresh();
        }}
      />
      <RenameModal
        row={renaming}
        onClose={() => setRenaming(null)}
        onDone={() => {
          setRenaming(null);
          void msg.success(t('messages.saved'));
          void refresh();
        }}
      />
      {editing ? (
        <HotspotEditor
          panorama={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            void msg.success(t('messages.hotspotsSaved'));
            void refresh();
          }}
        />
      ) : null}
    </ListPage>
  );
}

function UploadModal(props: {
  open: boolean;
  sites: ReturnType<typeof useSiteOptions>['options'];
  defaultSite: number | undefined;
  onClose: () => void;
  onDone: () => void;
}): ReactElement {
  const { t } = useTranslation('panoramas');
  const [form] = Form.useForm<{ platformId: number; name?: string }>();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const submit = async (): Promise<void> => {
    const v = await form.validateFields();
    if (!file) {
      setError(t('validation.file'));
      return;
    }
    setError(null);
    setProgress(0);
    try {
      await uploadForm(
        panoramasRoutes.upload.path,
        { platformId: String(v.platformId), name: v.name?.trim() ?? '' },
        file,
        setProgress,
      );
      form.resetFields();
      setFile(null);
      props.onDone();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setProgress(null);
    }
  };
  return (
    <Modal
      open={props.open}
      title={t('upload.title')}
      okText={t('upload.ok')}
      onOk={() => void submit()}
      confirmLoading={progress !== null}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ platformId: props.defaultSite }}>
        <Form.Item
          name="platformId"
          label={t('fields.site')}
          rules={[{ required: true, message: t('validation.site') }]}
        >
          <Select options={props.sites} showSearch={{ optionFilterProp: 'label' }} data-testid="pano-upload-site" />
        </Form.Item>
        <Form.Item name="name" label={t('fields.name')} extra={t('upload.nameHint')}>
          <Input maxLength={100} data-testid="pano-upload-name" />
        </Form.Item>
        <Form.Item label={t('upload.file')} extra={t('upload.fileHint')} required>
          <Upload
            accept=".jpg,.jpeg,.png"
            maxCount={1}
            beforeUpload={(f) => {
              setFile(f);
              return false;
            }}
            onRemove={() => setFile(null)}
            fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
          >
            <Button icon={<UploadOutlined />} data-testid="pano-upload-file">
              {t('upload.choose')}
            </Button>
          </Upload>
        </Form.Item>
        {progress !== null ? <Progress percent={progress} size="small" /> : null}
        {error ? (
          <Typography.Text type="danger" data-testid="pano-upload-error">
            {error}
          </Typography.Text>
        ) : null}
      </Form>
    </Modal>
  );
}

function RenameModal({ row, onClose, onDone }: { row: PanoramaRow | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('panoramas');
  const [form] = Form.useForm<{ name: string }>();
  return (
    <Modal
      open={row !== null}
      title={t('rename.title')}
      onCancel={onClose}
      destroyOnHidden
      onOk={async () => {
        const v = await form.validateFields();
        await renamePanorama(row!.id, v.name.trim());
        onDone();
      }}
    >
      <Form form={form} layout="vertical" initialValues={{ name: row?.name }} preserve={false}>
        <Form.Item
          name="name"
          label={t('fields.name')}
          rules={[{ required: true, whitespace: true, message: t('validation.name') }]}
        >
          <Input maxLength={100} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
