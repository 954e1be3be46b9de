import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Flex, Input, Modal, Popconfirm, Table, Tag, Tooltip, Typography, message } from 'antd';
import type { ButtonProps, TableColumnsType, TableProps } from 'antd';
import { BankOutlined, LinkOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { EnterpriseRow, EnterpriseVariant, PlatformType } from '@geosentry/contract';
import { orgWord } from '../../shared/wording.ts';
import { useSession } from '../../shared/session.ts';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { formatTime } from '../../shared/time.ts';
import {
  ENTERPRISE_SORT_FIELDS,
  deleteEnterprise,
  enterpriseKeys,
  fetchEnterprises,
  unbindPlatform,
  type EnterpriseListParams,
  type EnterpriseSortField,
} from './enterprisesApi.ts';
import { EnterpriseFormDrawer } from './EnterpriseFormDrawer.tsx';
import { BindSiteModal } from './BindSiteModal.tsx';

const PAGE_SIZES = [10, 20, 50, 100];
const isSortField = (v: unknown): v is EnterpriseSortField =>
  typeof v === 'string' && (ENTERPRISE_SORT_FIELDS as readonly string[]).includes(v);
const dash = <Typography.Text type="secondary">-</Typography.Text>;
const KIND_COLORS: Record<PlatformType, string> = {
  disaster: 'volcano',
  sideslope: 'orange',
  tailings: 'gold',
  reservoir: 'blue',
  river: 'cyan',
  bridge: 'purple',
};

/**
 * Enterprises / management organisations (spec §3) of one variant: server-paged list, add, edit, delete,
 * bind and unbind sites. The wording (enterprise or management organisation) follows the platform type
 * kept at login (spec §1). Test hooks: enterprise-add, enterprise-search, enterprise-table, enterprise-edit,
 * enterprise-bind, enterprise-unbind, enterprise-delete(-confirm).
 */
export function EnterprisesPage({ variant }: { variant: EnterpriseVariant }) {
  const { t } = useTranslation('enterprises');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [modal, modalHolder] = Modal.useModal();
  const [tableTop, scrollY] = useTableScrollY();
  const { platformType } = useSession();
  const isEnterprise = orgWord(platformType) === 'common:wording.enterprise';
  const org = t(orgWord(platformType));
  const titleKey = `${variant}.${isEnterprise ? 'titleEnterprise' : 'titleOrganisation'}`;

  const [params, setParams] = useState<EnterpriseListParams>({ pageNum: 1, pageSize: 20 });
  const [keywordInput, setKeywordInput] = useState('');
  const [editing, setEditing] = useState<EnterpriseRow | null | undefined>(undefined);
  const [binding, setBinding] = useState<EnterpriseRow | null>(null);

  const list = useQuery({
    queryKey: enterpriseKeys.list(variant, params),
    queryFn: () => fetchEnterprises(variant, params),
    placeholderData: keepPreviousData,
  });
  // Bindings change the sites' lists too.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: enterpriseKeys.all }),
      queryClient.invalidateQueries({ queryKey: ['platforms'] }),
    ]);

  const remove = useMutation({
    mutationFn: (id: number) => deleteEnterprise(variant, id),
    onSuccess: () => {
      void msg.success(t('messages.deleted'));
      if ((list.data?.list.length ?? 0) <= 1 && params.pageNum > 1)
        setParams((p) => ({ ...p, pageNum: p.pageNum - 1 }));
      void refresh();
    },
  });
  const unbind = useMutation({
    mutationFn: (v: { enterpriseId: number; platformId: number }) =>
      unbindPlatform(variant, v.enterpriseId, v.platformId),
    onSuccess: () => {
      void msg.success(t('messages.unbound'));
      void refresh();
    },
  });

  const onUnbind = (row: EnterpriseRow, site: EnterpriseRow['platforms'][number]) => {
    void modal.confirm({
      title: t('confirm.unbindTitle', { site: site.name, name: row.name }),
      okText: t('actions.unbind'),
      okButtonProps: { danger: true, 'data-testid': 'enterprise-unbind-confirm' } as ButtonProps,
      cancelText: t('form.cancel'),
      onOk: () =>
        unbind.mutateAsync({ enterpriseId: row.enterpriseId, platformId: site.platformId }).catch(() => undefined),
    });
  };

  const onTableChange: TableProps<EnterpriseRow>['onChange'] = (pagination, _filters, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const field = s?.order && isSortField(s.columnKey) ? s.columnKey : undefined;
    setParams((p) => {
      const sortChanged = field !== p.sortField || (field ? s?.order : undefined) !== p.sortOrder;
      const pageSize = pagination.pageSize ?? p.pageSize;
      return {
        ...p,
        sortField: field,
        sortOrder: field ? (s?.order ?? undefined) : undefined,
        pageSize,
        pageNum: sortChanged || pageSize !== p.pageSize ? 1 : (pagination.current ?? 1),
      };
    });
  };
  const sortOrderOf = (field: EnterpriseSortField) => (params.sortField === field ? (params.sortOrder ?? null) : null);

  const columns: TableColumnsType<EnterpriseRow> = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      key: 'name',
      width: 220,
      fixed: 'left',
      sorter: true,
      sortOrder: sortOrderOf('name'),
      render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
    },
    {
      title: t('fields.code'),
      dataIndex: 'code',
      key: 'code',
      width: 130,
      sorter: true,
      sortOrder: sortOrderOf('code'),
      render: (v: string | null) => v ?? dash,
    },
    {
      title: t('fields.parent'),
      dataIndex: 'parentName',
      key: 'parentName',
      width: 180,
      ellipsis: true,
      render: (v: string | null) => v ?? dash,
    },
    {
      title: t('fields.sites'),
      key: 'sites',
      width: 300,
      render: (_v, row) =>
        row.platforms.length ? (
          <Flex gap={4} wrap>
            {row.platforms.map((p) => (
              <Tooltip key={p.platformId} title={t(`kinds.${p.type}`)}>
                <Tag
                  color={KIND_COLORS[p.type]}
                  closable
                  closeIcon={<span data-testid="enterprise-unbind">×</span>}
                  onClose={(e) => {
                    e.preventDefault();
                    onUnbind(row, p);
                  }}
                >
                  {p.name}
                </Tag>
              </Tooltip>
            ))}
          </Flex>
        ) : (
          <Typography.Text type="secondary">{t('list.noSites')}</Typography.Text>
        ),
    },
    {
      title: t('fields.address'),
      dataIndex: 'address',
      key: 'address',
      width: 200,
      ellipsis: true,
      render: (v: string | null) => v ?? dash,
    },
    {
      title: t('fields.description'),
      dataIndex: 'description',
      key: 'description',
      width: 220,
      ellipsis: true,
      render: (v: string | null) => v ?? dash,
    },
    {
      title: t('fields.createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 170,
      sorter: true,
      sortOrder: sortOrderOf('createdAt'),
      render: (v: string) => formatTime(v),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 200,
      fixed: 'right',
      render: (_v, row) => (
        <Flex gap={0} wrap={false}>
          <Button type="link" size="small" data-testid="enterprise-edit" onClick={() => setEditing(row)}>
            {t('actions.edit')}
          </Button>
          <Button type="link" size="small" data-testid="enterprise-bind" onClick={() => setBinding(row)}>
            {t('actions.bind')}
          </Button>
          <Popconfirm
            title={t('confirm.deleteTitle', { name: row.name })}
            description={t('confirm.deleteContent')}
            okText={t('actions.delete')}
            okButtonProps={{ danger: true, 'data-testid': 'enterprise-delete-confirm' }}
            cancelText={t('form.cancel')}
            onConfirm={() => remove.mutateAsync(row.enterpriseId).catch(() => undefined)}
          >
            <Button type="link" size="small" danger data-testid="enterprise-delete">
              {t('actions.delete')}
            </Button>
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  return (
    <Flex vertical gap={16}>
      {msgHolder}
      {modalHolder}
      <PageHeaderCard icon={<BankOutlined />} title={t(titleKey)} description={t(`${variant}.description`, { org })} />
      <Card variant="borderless" styles={{ body: { paddingBottom: 8 } }}>
        <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 16 }}>
          <Flex gap={12} wrap align="center">
            <Input.Search
              allowClear
              data-testid="enterprise-search"
              style={{ width: 280 }}
              placeholder={t('filters.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => setParams((p) => ({ ...p, keyword: v.trim() || undefined, pageNum: 1 }))}
            />
          </Flex>
          <Flex gap={8}>
            <Tooltip title={t('actions.reload')}>
              <Button icon={<ReloadOutlined />} aria-label={t('actions.reload')} onClick={() => void refresh()} />
            </Tooltip>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              data-testid="enterprise-add"
              onClick={() => setEditing(null)}
            >
              {t('actions.add', { org })}
            </Button>
          </Flex>
        </Flex>
        <div ref={tableTop}>
          <Table<EnterpriseRow>
            rowKey="enterpriseId"
            size="middle"
            data-testid="enterprise-table"
            columns={columns}
            dataSource={list.data?.list ?? []}
            loading={list.isFetching}
            onChange={onTableChange}
            scroll={{ x: 1600, y: scrollY }}
            pagination={{
              current: params.pageNum,
              pageSize: params.pageSize,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              pageSizeOptions: PAGE_SIZES,
              showTotal: (total) => t('list.total', { count: total }),
            }}
          />
        </div>
        <Typography.Text type="secondary">
          <LinkOutlined /> {t('list.bindHint')}
        </Typography.Text>
      </Card>
      <EnterpriseFormDrawer
        variant={variant}
        org={org}
        open={editing !== undefined}
        enterprise={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={(added) => {
          void msg.success(t(added ? 'messages.added' : 'messages.saved'));
          setEditing(undefined);
          void refresh();
        }}
      />
      <BindSiteModal
        variant={variant}
        enterprise={binding}
        onClose={() => setBinding(null)}
        onBound={() => {
          void msg.success(t('messages.bound'));
          setBinding(null);
          void refresh();
        }}
      />
    </Flex>
  );
}
