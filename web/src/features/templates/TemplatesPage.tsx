import { useMemo, useState } from 'react';
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Col, Empty, Flex, Input, Popover, Row, Select, Tag, Tooltip, Typography, message } from 'antd';
import { LinkOutlined, PlusOutlined, ProfileOutlined } from '@ant-design/icons';
import type { TemplateRow } from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { BoundFilter } from '../../shared/table/BoundFilter.tsx';
import { formatTime } from '../../shared/time.ts';
import { MessageBoard } from '../comments/index.ts';
import { TemplateFormModal } from './TemplateFormModal.tsx';
import { OwnerValuesCard } from './OwnerValuesCard.tsx';
import {
  INFO_TEMPLATE_SORT_FIELDS,
  bindTemplate,
  deleteTemplate,
  fetchOwnerData,
  fetchOwners,
  fetchSites,
  fetchTemplatePage,
  fetchTemplates,
  readableKinds,
  retryUnlessCancelled,
  templateKeys,
  unbindTemplate,
  type TemplateListParams,
} from './templatesApi.ts';

const OWNER_PATTERN = /^[A-Za-z0-9_.:-]{1,100}$/;

/** The owners a template is bound to, in a popover; picking one opens it. */
function OwnersPopover({ row, onPick }: { row: TemplateRow; onPick: (owner: string) => void }) {
  const { t } = useTranslation('templates');
  const [open, setOpen] = useState(false);
  const owners = useQuery({
    queryKey: templateKeys.owners(row.menuId),
    queryFn: () => fetchOwners(row.menuId),
    enabled: open,
    retry: retryUnlessCancelled,
  });
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      title={t('owner.boundTo')}
      content={
        <Flex vertical gap={4} style={{ maxWidth: 280 }}>
          {owners.isLoading ? <Typography.Text type="secondary">…</Typography.Text> : null}
          {(owners.data ?? []).map((o) => (
            <Typography.Link
              key={o.owner}
              onClick={() => {
                setOpen(false);
                onPick(o.owner);
              }}
            >
              {o.owner}
            </Typography.Link>
          ))}
          {owners.data && owners.data.length === 0 ? (
            <Typography.Text type="secondary">{t('owner.noneVisible')}</Typography.Text>
          ) : null}
        </Flex>
      }
    >
      <Button size="small" type="link" disabled={row.ownerCount === 0} data-testid="template-owners">
        {t('list.owners', { count: row.ownerCount })}
      </Button>
    </Popover>
  );
}

/**
 * Information > Info templates (spec §3, §7): templates with their fields in the shared ServerTable (paged,
 * sorted and filtered by the server, the state in the address); binding them to owners (a site, platform:<id>,
 * or another identifier); the owner's values, with uploads for file and image fields; and the owner's message
 * board.
 */
export default function TemplatesPage() {
  const { t } = useTranslation('templates');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [editing, setEditing] = useState<TemplateRow | null | undefined>(undefined);
  const [owner, setOwner] = useState<string | null>(null);
  const [ownerInput, setOwnerInput] = useState('');
  const [ownerError, setOwnerError] = useState<string | null>(null);
  const [toBind, setToBind] = useState<number | undefined>(undefined);

  const table = useServerTable<TemplateListParams>({ pageNum: 1, pageSize: 20 }, INFO_TEMPLATE_SORT_FIELDS, {
    filters: { keyword: 'string', bound: 'boolean' },
  });
  const { params, setFilter } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
  const list = useQuery({
    queryKey: templateKeys.page(params),
    queryFn: () => fetchTemplatePage(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const kinds = useMemo(readableKinds, []);
  const siteLists = useQueries({
    queries: kinds.map((k) => ({
      queryKey: templateKeys.sites(k),
      queryFn: () => fetchSites(k),
      retry: retryUnlessCancelled,
      staleTime: 60_000,
    })),
  });
  const siteOptions = kinds
    .map((k, i) => ({
      label: t(`siteKinds.${k}`),
      title: k,
      options: (siteLists[i]?.data ?? []).map((s) => ({ value: `platform:${s.platformId}`, label: s.name })),
    }))
    .filter((g) => g.options.length > 0);
  const siteName = (o: string) => siteOptions.flatMap((g) => g.options).find((x) => x.value === o)?.label;

  const data = useQuery({
    queryKey: templateKeys.data(owner ?? ''),
    queryFn: () => fetchOwnerData(owner ?? ''),
    enabled: owner !== null,
    retry: retryUnlessCancelled,
  });

  // Every template, for the open owner's bind picker.
  const all = useQuery({
    queryKey: templateKeys.list,
    queryFn: fetchTemplates,
    enabled: owner !== null,
    retry: retryUnlessCancelled,
  });

  const refresh = () => queryClient.invalidateQueries({ queryKey: templateKeys.all });
  const bind = useMutation({
    mutationFn: (v: { menuId: number; owner: string }) => bindTemplate(v.menuId, v.owner),
    onSuccess: () => {
      void msg.success(t('messages.bound'));
      setToBind(undefined);
      void refresh();
    },
  });
  const unbind = useMutation({
    mutationFn: (v: { menuId: number; owner: string }) => unbindTemplate(v.menuId, v.owner),
    onSuccess: () => {
      void msg.success(t('messages.unbound'));
      void refresh();
    },
  });

  const openOwner = (o: string) => {
    const v = o.trim();
    if (!OWNER_PATTERN.test(v)) {
      setOwnerError(t('validation.owner'));
      return;
    }
    setOwnerError(null);
    setOwnerInput(v);
    setOwner(v);
  };

  const bound = new Set((data.data ?? []).map((d) => d.menuId));
  const bindable = (all.data ?? []).filter((r) => !bound.has(r.menuId));

  const columns: ServerColumn<TemplateRow>[] = [
    {
      title: t('fields.menuName'),
      dataIndex: 'menuName',
      key: 'menuName',
      width: 230,
      sortable: true,
      hideable: false,
      ellipsis: false,
      render: (v: string, row) => (
        <Flex vertical>
          <Typography.Text strong>{v}</Typography.Text>
          {row.menuCode ? <Typography.Text type="secondary">{row.menuCode}</Typography.Text> : null}
          {row.menuContext ? (
            <Typography.Text type="secondary" ellipsis={{ tooltip: row.menuContext }} style={{ maxWidth: 220 }}>
              {row.menuContext}
            </Typography.Text>
          ) : null}
        </Flex>
      ),
    },
    {
      title: t('fields.directoryName'),
      dataIndex: 'directoryName',
      key: 'directoryName',
      width: 150,
      sortable: true,
    },
    {
      title: t('fields.fields'),
      key: 'fields',
      width: 260,
      ellipsis: false,
      render: (_v, row) =>
        row.fields.length === 0 ? (
          <Typography.Text type="secondary">-</Typography.Text>
        ) : (
          <Flex gap={4} wrap>
            {row.fields.map((f) => (
              <Tag key={f.name} color={f.kind === 'text' ? 'default' : f.kind === 'image' ? 'purple' : 'blue'}>
                {f.name}
              </Tag>
            ))}
          </Flex>
        ),
    },
    {
      title: t('fields.owners'),
      key: 'ownerCount',
      width: 120,
      sortable: true,
      render: (_v, row) => <OwnersPopover row={row} onPick={openOwner} />,
    },
    {
      title: t('fields.updatedAt'),
      dataIndex: 'updatedAt',
      key: 'updatedAt',
      width: 170,
      sortable: true,
      optional: true,
      render: (v: string) => formatTime(v),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 130,
      render: (_v, row) => (
        <Flex>
          <Button type="link" size="small" data-testid="template-edit" onClick={() => setEditing(row)}>
            {t('actions.edit')}
          </Button>
          {row.ownerCount > 0 ? (
            <Tooltip title={t('list.inUse', { count: row.ownerCount })}>
              <Button type="link" size="small" danger disabled>
                {t('actions.delete')}
              </Button>
            </Tooltip>
          ) : (
            <DeleteAction
              title={t('confirm.deleteTitle', { name: row.menuName })}
              description={t('confirm.deleteContent')}
              label={t('actions.delete')}
              data-testid="template-delete"
              onDelete={() => deleteTemplate(row.menuId)}
              success={t('messages.deleted')}
              onDone={() => {
                table.afterDelete(list.data?.list.length ?? 0);
                void refresh();
              }}
            />
          )}
        </Flex>
      ),
    },
  ];

  return (
    <Flex vertical gap={16}>
      {msgHolder}
      <PageHeaderCard icon={<ProfileOutlined />} title={t('title')} description={t('description')} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xxl={13}>
          <Card variant="borderless" title={t('list.title')} styles={{ body: { paddingBottom: 8 } }}>
            <ServerTable<TemplateRow>
              tableId="templates"
              rowKey="menuId"
              data-testid="template-table"
              table={table}
              query={list}
              columns={columns}
              onReload={() => void refresh()}
              empty={t('list.empty')}
              totalText={(total) => t('list.total', { count: total })}
              filters={
                <>
                  <Input.Search
                    allowClear
                    data-testid="template-search"
                    style={{ width: 240 }}
                    placeholder={t('filters.keyword')}
                    value={keywordInput}
                    onChange={(e) => setKeywordInput(e.target.value)}
                    onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
                  />
                  <BoundFilter
                    data-testid="template-filter-bound"
                    width={170}
                    value={params.bound}
                    onChange={(bound) => setFilter({ bound })}
                    labels={{
                      placeholder: t('filters.bound'),
                      bound: t('filters.onlyBound'),
                      unbound: t('filters.onlyUnbound'),
                    }}
                  />
                  <Button
                    onClick={() => {
                      setKeywordInput('');
                      table.resetFilters();
                    }}
                  >
                    {t('filters.reset')}
                  </Button>
                </>
              }
              actions={
                <Button
                  type="primary"
                  icon={<PlusOutlined />}
                  data-testid="template-add"
                  onClick={() => setEditing(null)}
                >
                  {t('actions.add')}
                </Button>
              }
            />
          </Card>
        </Col>
        <Col xs={24} xxl={11}>
          <Card variant="borderless" title={t('owner.title')}>
            <Flex vertical gap={12}>
              <Typography.Text type="secondary">{t('owner.hint')}</Typography.Text>
              <Flex gap={8} wrap>
                <Select<string>
                  showSearch={{ optionFilterProp: 'label' }}
                  allowClear
                  data-testid="owner-site"
                  style={{ flex: 1, minWidth: 220 }}
                  placeholder={kinds.length > 0 ? t('owner.pickSite') : t('owner.noSiteAccess')}
                  disabled={kinds.length === 0}
                  loading={siteLists.some((q) => q.isLoading)}
                  value={owner && siteName(owner) ? owner : undefined}
                  options={siteOptions}
                  onChange={(v) => (v ? openOwner(v) : undefined)}
                />
                <Input.Search
                  data-testid="owner-input"
                  style={{ flex: 1, minWidth: 220 }}
                  placeholder={t('owner.typePlaceholder')}
                  enterButton={t('actions.open')}
                  status={ownerError ? 'error' : undefined}
                  value={ownerInput}
                  onChange={(e) => setOwnerInput(e.target.value)}
                  onSearch={openOwner}
                />
              </Flex>
              {ownerError ? <Typography.Text type="danger">{ownerError}</Typography.Text> : null}
            </Flex>
          </Card>
          {owner ? (
            <Flex vertical gap={16} style={{ marginTop: 16 }}>
              <Card
                variant="borderless"
                data-testid="owner-panel"
                title={
                  <Flex gap={8} align="center" wrap>
                    <LinkOutlined />
                    <span>{siteName(owner) ?? owner}</span>
                    <Tag>{owner}</Tag>
                  </Flex>
                }
              >
                <Flex gap={8} wrap style={{ marginBottom: 16 }}>
                  <Select<number>
                    data-testid="bind-select"
                    style={{ flex: 1, minWidth: 200 }}
                    placeholder={t('owner.pickTemplate')}
                    value={toBind}
                    onChange={setToBind}
                    options={bindable.map((r) => ({ value: r.menuId, label: r.menuName }))}
                    notFoundContent={t('owner.nothingToBind')}
                  />
                  <Button
                    type="primary"
                    disabled={toBind === undefined}
                    loading={bind.isPending}
                    data-testid="bind-submit"
                    onClick={() => toBind !== undefined && bind.mutate({ menuId: toBind, owner })}
                  >
                    {t('actions.bind')}
                  </Button>
                </Flex>
                {data.isLoading ? null : (data.data ?? []).length === 0 ? (
                  <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('owner.noTemplates')} />
                ) : (
                  <Flex vertical gap={12}>
                    {(data.data ?? []).map((d) => (
                      <OwnerValuesCard
                        key={`${d.menuId}-${data.dataUpdatedAt}`}
                        template={d}
                        onSaved={() => {
                          void msg.success(t('messages.saved'));
                          void refresh();
                        }}
                        onUnbind={() => unbind.mutateAsync({ menuId: d.menuId, owner })}
                      />
                    ))}
                  </Flex>
                )}
              </Card>
              <Card variant="borderless" title={t('owner.board')}>
                <MessageBoard topicId={owner} />
              </Card>
            </Flex>
          ) : null}
        </Col>
      </Row>
      <TemplateFormModal
        open={editing !== undefined}
        template={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={(added) => {
          void msg.success(t(added ? 'messages.added' : 'messages.saved'));
          setEditing(undefined);
          void refresh();
        }}
      />
    </Flex>
  );
}
