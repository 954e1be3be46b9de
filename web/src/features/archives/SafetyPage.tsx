import { useMemo, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import {
  Button,
  Col,
  DatePicker,
  Drawer,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Row,
  Select,
  Table,
  Tooltip,
  Tree,
  Typography,
  message,
} from 'antd';
import type { DataNode } from 'antd/es/tree';
import {
  DeleteOutlined,
  FileProtectOutlined,
  FolderAddOutlined,
  FolderOutlined,
  HistoryOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import {
  DEFAULT_REMIND_DAYS,
  EXPIRING_DOC_TYPES,
  EXPIRY_STATUSES,
  MAX_REMIND_DAYS,
  SAFETY_DOC_TYPES,
  type ExpiryStatus,
  type SafetyDocType,
  type SafetyDocument,
  type SafetyDocumentVersion,
  type SafetyFolder,
} from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { SiteFilter } from '../../shared/table/SiteFilter.tsx';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { formatTime } from '../../shared/time.ts';
import { UploadField } from '../files/index.ts';
import {
  SAFETY_SORT_FIELDS,
  addDocument,
  addDocumentVersion,
  addFolder,
  archivesKeys,
  deleteDocument,
  deleteFolder,
  editDocument,
  fetchContacts,
  fetchDocumentVersions,
  fetchDocuments,
  fetchFolders,
  fetchSites,
  type DocumentListParams,
} from './archivesApi.ts';
import { DAY, FileLinks, StatusTag, fromDay, toDay } from './shared.tsx';

interface DocShape {
  folderId?: number | null;
  name?: string;
  docType?: SafetyDocType;
  expiresOn?: Dayjs | null;
  contactId?: number | null;
  remindDays?: number | null;
  files?: string[];
  note?: string;
}

const ROOT = 'root';

function folderTree(folders: readonly SafetyFolder[], parentId: number | null): DataNode[] {
  return folders
    .filter((f) => f.parentId === parentId)
    .map((f) => ({
      key: String(f.id),
      title: `${f.name} (${f.documents})`,
      icon: <FolderOutlined />,
      children: folderTree(folders, f.id),
    }));
}

/** Safety supervision > security file management: each site's folders and documents, with versions. */
export default function SafetyPage() {
  const { t } = useTranslation('archives');
  const queryClient = useQueryClient();
  const [msg, holder] = message.useMessage();
  const table = useServerTable<DocumentListParams>({ pageNum: 1, pageSize: 10 }, SAFETY_SORT_FIELDS, {
    filters: { platformId: 'number', folderId: 'number', docType: 'string', expiry: 'string', keyword: 'string' },
  });
  const { params, setFilter } = table;
  const [keyword, setKeyword] = useState(params.keyword ?? '');
  const [editing, setEditing] = useState<SafetyDocument | null | undefined>(undefined);
  const [history, setHistory] = useState<SafetyDocument | null>(null);
  const [newVersion, setNewVersion] = useState<SafetyDocument | null>(null);
  const [folderName, setFolderName] = useState<string | null>(null);
  const [form] = Form.useForm<DocShape>();
  const [versionForm] = Form.useForm<{ files?: string[]; note?: string }>();
  const docType = Form.useWatch('docType', form);
  const platformId = params.platformId;

  const sites = useQuery({ queryKey: archivesKeys.sites, queryFn: fetchSites, staleTime: 30_000 });
  const contacts = useQuery({ queryKey: archivesKeys.contacts, queryFn: fetchContacts, staleTime: 30_000 });
  const folders = useQuery({
    queryKey: archivesKeys.folders(platformId ?? 0),
    queryFn: () => fetchFolders(platformId ?? 0),
    enabled: platformId !== undefined,
    retry: retryUnlessCancelled,
  });
  const list = useQuery({
    queryKey: archivesKeys.documents(params),
    queryFn: () => fetchDocuments(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const versions = useQuery({
    queryKey: archivesKeys.versions(history?.id ?? 0),
    queryFn: () => fetchDocumentVersions(history?.id ?? 0),
    enabled: history !== null,
  });
  const tree = useMemo(() => folderTree(folders.data ?? [], null), [folders.data]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: archivesKeys.all });

  const save = useMutation({
    mutationFn: (v: DocShape) => {
      const w = {
        folderId: v.folderId ?? undefined,
        name: v.name ?? '',
        docType: v.docType ?? 'other',
        expiresOn: toDay(v.expiresOn),
        contactId: v.contactId ?? undefined,
        remindDays: v.remindDays ?? undefined,
      };
      return editing
        ? editDocument(editing.id, w).then(() => null)
        : addDocument(platformId ?? 0, w, v.files?.[0] ?? '', v.note);
    },
    onSuccess: () => {
      void msg.success(t(editing ? 'common.saved' : 'safety.uploaded'));
      setEditing(undefined);
      void refresh();
    },
  });
  const saveVersion = useMutation({
    mutationFn: (v: { files?: string[]; note?: string }) =>
      addDocumentVersion(newVersion?.id ?? 0, v.files?.[0] ?? '', v.note),
    onSuccess: () => {
      void msg.success(t('safety.uploaded'));
      setNewVersion(null);
      void refresh();
    },
  });
  const makeFolder = useMutation({
    mutationFn: (name: string) => addFolder(platformId ?? 0, name, params.folderId),
    onSuccess: () => {
      setFolderName(null);
      void refresh();
    },
  });
  const removeFolder = useMutation({
    mutationFn: (id: number) => deleteFolder(id),
    onSuccess: () => {
      setFilter({ folderId: undefined });
      void refresh();
    },
  });
  const openForm = (d: SafetyDocument | null) => {
    form.resetFields();
    form.setFieldsValue(
      d
        ? {
            folderId: d.folderId,
            name: d.name,
            docType: d.docType,
            expiresOn: fromDay(d.expiresOn),
            contactId: d.contactId,
            remindDays: d.remindDays,
          }
        : { folderId: params.folderId ?? null, docType: 'certificate', remindDays: DEFAULT_REMIND_DAYS, files: [] },
    );
    setEditing(d);
  };
  const folderOptions = (folders.data ?? []).map((f) => ({ value: f.id, label: f.name }));

  const columns: ServerColumn<SafetyDocument>[] = [
    {
      key: 'name',
      title: t('fields.documentName'),
      dataIndex: 'name',
      width: 190,
      sortable: true,
      hideable: false,
      render: (v: string, row) => (
        <Flex vertical>
          <Typography.Text strong>{v}</Typography.Text>
          <FileLinks files={[row.file]} testId="document-file" />
        </Flex>
      ),
    },
    {
      key: 'docType',
      title: t('fields.docType'),
      dataIndex: 'docType',
      width: 110,
      sortable: true,
      render: (d: SafetyDocType) => t(`docTypes.${d}`),
    },
    {
      key: 'folder',
      title: t('fields.folder'),
      width: 150,
      optional: 2,
      render: (_v, row) =>
        `${platformId === undefined ? `${row.platformName} / ` : ''}${row.folderName ?? t('safety.top')}`,
    },
    {
      key: 'version',
      title: t('fields.version'),
      dataIndex: 'version',
      width: 90,
      sortable: true,
      render: (v: number) => `v${v}`,
    },
    {
      key: 'expiresOn',
      title: t('fields.expiresOn'),
      dataIndex: 'expiresOn',
      width: 170,
      sortable: true,
      render: (v: string | null, row) =>
        v ? (
          <Flex gap={4} align="center">
            {v} <StatusTag status={row.expiry} kind="expiry" />
          </Flex>
        ) : (
          '-'
        ),
    },
    {
      key: 'uploadedBy',
      title: t('fields.uploadedBy'),
      dataIndex: 'uploadedBy',
      width: 120,
      sortable: true,
      optional: 1,
    },
    {
      key: 'updatedAt',
      title: t('fields.uploadedAt'),
      dataIndex: 'updatedAt',
      width: 160,
      sortable: true,
      optional: 3,
      render: (v: string) => formatTime(v),
    },
    {
      key: 'actions',
      title: t('fields.actions'),
      width: 170,
      render: (_v, row) => (
        <Flex gap={0}>
          <Tooltip title={t('safety.versions')}>
            <Button
              type="link"
              size="small"
              icon={<HistoryOutlined />}
              aria-label={t('safety.versions')}
              onClick={() => setHistory(row)}
              data-testid="document-versions"
            />
          </Tooltip>
          <Tooltip title={t('safety.newVersion')}>
            <Button
              type="link"
              size="small"
              icon={<UploadOutlined />}
              aria-label={t('safety.newVersion')}
              data-testid="document-new-version"
              onClick={() => {
                versionForm.resetFields();
                setNewVersion(row);
              }}
            />
          </Tooltip>
          <Button type="link" size="small" onClick={() => openForm(row)}>
            {t('common.edit')}
          </Button>
          <DeleteAction
            title={t('safety.deleteTitle', { name: row.name })}
            description={t('safety.deleteContent')}
            label={t('common.delete')}
            onDelete={() => deleteDocument(row.id)}
            success={t('common.deleted')}
            onDone={() => {
              table.afterDelete(list.data?.list.length ?? 0);
              void refresh();
            }}
          />
        </Flex>
      ),
    },
  ];

  const folderPanel = (
    <div
      style={{ width: 180, flex: 'none', borderRight: '1px solid rgba(5,5,5,0.06)', paddingRight: 12 }}
      data-testid="folder-panel"
    >
      <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
        <Typography.Text strong>{t('safety.folders')}</Typography.Text>
        <Flex gap={4}>
          <Button
            size="small"
            icon={<FolderAddOutlined />}
            disabled={platformId === undefined}
            aria-label={t('safety.addFolder')}
            onClick={() => setFolderName('')}
            data-testid="folder-add"
          />
          <Popconfirm
            title={t('safety.deleteFolderConfirm')}
            okText={t('common.delete')}
            cancelText={t('common.cancel')}
            onConfirm={() => params.folderId && removeFolder.mutate(params.folderId)}
          >
            <Button
              size="small"
              icon={<DeleteOutlined />}
              disabled={params.folderId === undefined}
              aria-label={t('safety.deleteFolder')}
            />
          </Popconfirm>
        </Flex>
      </Flex>
      {platformId === undefined ? (
        <Typography.Text type="secondary">{t('safety.chooseSite')}</Typography.Text>
      ) : (
        <Tree
          // Remounted when the folders change, so that new folders show expanded.
          key={(folders.data ?? []).map((f) => f.id).join(',')}
          showIcon
          blockNode
          defaultExpandAll
          selectedKeys={[params.folderId ? String(params.folderId) : ROOT]}
          treeData={[{ key: ROOT, title: t('safety.allFolders'), icon: <FolderOutlined />, children: tree }]}
          onSelect={(keys) => {
            const k = keys[0];
            setFilter({ folderId: k && k !== ROOT ? Number(k) : undefined });
          }}
        />
      )}
    </div>
  );

  return (
    <ListPage icon={<FileProtectOutlined />} title={t('safety.title')} description={t('safety.description')}>
      {holder}
      <Flex gap={12} align="flex-start">
        {folderPanel}
        <div style={{ flex: 1, minWidth: 0 }}>
          <ServerTable<SafetyDocument>
            tableId="archives.safety"
            rowKey="id"
            data-testid="document-table"
            table={table}
            query={list}
            columns={columns}
            onReload={() => void refresh()}
            totalText={(n) => t('common.total', { count: n })}
            filters={
              <>
                <SiteFilter
                  data-testid="safety-site"
                  placeholder={t('filters.allSites')}
                  value={platformId}
                  loading={sites.isFetching}
                  sites={sites.data ?? []}
                  onChange={(id) => setFilter({ platformId: id, folderId: undefined })}
                />
                <Select<SafetyDocType>
                  allowClear
                  style={{ width: 150 }}
                  placeholder={t('filters.allDocTypes')}
                  value={params.docType}
                  options={SAFETY_DOC_TYPES.map((d) => ({ value: d, label: t(`docTypes.${d}`) }))}
                  onChange={(v) => setFilter({ docType: v ?? undefined })}
                />
                <Select<ExpiryStatus>
                  allowClear
                  style={{ width: 140 }}
                  placeholder={t('filters.allExpiry')}
                  value={params.expiry}
                  options={EXPIRY_STATUSES.map((s) => ({ value: s, label: t(`expiry.${s}`) }))}
                  onChange={(v) => setFilter({ expiry: v ?? undefined })}
                />
                <Input.Search
                  allowClear
                  style={{ width: 180 }}
                  placeholder={t('filters.keyword')}
                  value={keyword}
                  onChange={(e) => setKeyword(e.target.value)}
                  onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
                />
              </>
            }
            actions={
              <Button
                type="primary"
                icon={<UploadOutlined />}
                data-testid="document-add"
                disabled={platformId === undefined}
                title={platformId === undefined ? t('safety.chooseSite') : undefined}
                onClick={() => openForm(null)}
              >
                {t('safety.upload')}
              </Button>
            }
          />
        </div>
      </Flex>
      <Modal
        open={editing !== undefined}
        width={620}
        title={editing ? t('safety.editTitle', { name: editing.name }) : t('safety.uploadTitle')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        okButtonProps={{ loading: save.isPending, 'data-testid': 'document-save' }}
        onOk={() => form.submit()}
        onCancel={() => setEditing(undefined)}
        destroyOnHidden
        forceRender
      >
        <Form<DocShape> form={form} layout="vertical" onFinish={(v) => save.mutate(v)} data-testid="document-form">
          {editing ? null : (
            <Form.Item
              name="files"
              label={t('fields.file')}
              rules={[{ required: true, type: 'array', min: 1, message: t('validation.fileRequired') }]}
            >
              <UploadField id="document-file" kind="attachment" max={1} platformId={platformId} />
            </Form.Item>
          )}
          <Row gutter={16}>
            <Col span={14}>
              <Form.Item
                name="name"
                label={t('fields.documentName')}
                rules={[{ required: true, whitespace: true, message: t('validation.nameRequired') }]}
              >
                <Input id="document-name" maxLength={200} />
              </Form.Item>
            </Col>
            <Col span={10}>
              <Form.Item name="folderId" label={t('fields.folder')}>
                <Select id="document-folder" allowClear placeholder={t('safety.top')} options={folderOptions} />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item name="docType" label={t('fields.docType')} rules={[{ required: true }]}>
                <Select
                  id="document-type"
                  options={SAFETY_DOC_TYPES.map((d) => ({ value: d, label: t(`docTypes.${d}`) }))}
                />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="expiresOn"
                label={t('fields.expiresOn')}
                rules={[
                  {
                    required: docType !== undefined && EXPIRING_DOC_TYPES.includes(docType),
                    message: t('validation.expiryRequired'),
                  },
                ]}
              >
                <DatePicker id="document-expires" style={{ width: '100%' }} format={DAY} />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={16}>
            <Col span={16}>
              <Form.Item name="contactId" label={t('fields.contact')} extra={t('safety.contactHint')}>
                <Select
                  id="document-contact"
                  allowClear
                  showSearch={{ optionFilterProp: 'label' }}
                  placeholder={t('fields.contactNone')}
                  options={(contacts.data ?? []).map((c) => ({ value: c.id, label: `${c.name} <${c.email}>` }))}
                />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="remindDays" label={t('fields.remindDays')}>
                <InputNumber min={1} max={MAX_REMIND_DAYS} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
          {editing ? null : (
            <Form.Item name="note" label={t('fields.versionNote')}>
              <Input maxLength={1000} />
            </Form.Item>
          )}
        </Form>
      </Modal>
      <Modal
        open={newVersion !== null}
        title={
          newVersion ? t('safety.newVersionTitle', { name: newVersion.name, version: newVersion.version + 1 }) : ''
        }
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        okButtonProps={{ loading: saveVersion.isPending, 'data-testid': 'document-version-save' }}
        onOk={() => versionForm.submit()}
        onCancel={() => setNewVersion(null)}
        destroyOnHidden
      >
        <Form form={versionForm} layout="vertical" onFinish={(v) => saveVersion.mutate(v)}>
          <Form.Item
            name="files"
            label={t('fields.file')}
            rules={[{ required: true, type: 'array', min: 1, message: t('validation.fileRequired') }]}
          >
            <UploadField kind="attachment" max={1} platformId={newVersion?.platformId} />
          </Form.Item>
          <Form.Item name="note" label={t('fields.versionNote')}>
            <Input maxLength={1000} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={folderName !== null}
        title={t('safety.addFolder')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        okButtonProps={{ loading: makeFolder.isPending, disabled: !folderName?.trim(), 'data-testid': 'folder-save' }}
        onOk={() => folderName && makeFolder.mutate(folderName)}
        onCancel={() => setFolderName(null)}
        destroyOnHidden
      >
        <Input
          data-testid="folder-name"
          maxLength={100}
          placeholder={t('fields.folderName')}
          value={folderName ?? ''}
          onChange={(e) => setFolderName(e.target.value)}
        />
      </Modal>
      <Drawer
        open={history !== null}
        size={720}
        title={history ? t('safety.versionsTitle', { name: history.name }) : ''}
        onClose={() => setHistory(null)}
        destroyOnHidden
      >
        <Table<SafetyDocumentVersion>
          rowKey="id"
          size="small"
          pagination={false}
          loading={versions.isFetching}
          dataSource={versions.data ?? []}
          locale={{ emptyText: <Empty /> }}
          columns={[
            {
              key: 'version',
              title: t('fields.version'),
              dataIndex: 'version',
              width: 70,
              render: (v: number) => `v${v}`,
            },
            { key: 'file', title: t('fields.file'), render: (_: unknown, v) => <FileLinks files={[v.file]} /> },
            { key: 'note', title: t('fields.versionNote'), dataIndex: 'note', render: (s: string | null) => s ?? '-' },
            { key: 'uploadedBy', title: t('fields.uploadedBy'), dataIndex: 'uploadedBy', width: 110 },
            {
              key: 'createdAt',
              title: t('fields.uploadedAt'),
              dataIndex: 'createdAt',
              width: 160,
              render: (v: string) => formatTime(v),
            },
          ]}
        />
      </Drawer>
    </ListPage>
  );
}
