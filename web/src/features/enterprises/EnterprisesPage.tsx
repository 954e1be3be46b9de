import { useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Input, Modal, Tag, Tooltip, Typography, message } from 'antd';
import type { ButtonProps } from 'antd';
import { BankOutlined, LinkOutlined, PlusOutlined } from '@ant-design/icons';
import type { EnterpriseRow, EnterpriseVariant, PlatformType } from '@geosentry/contract';
import { orgWord } from '../../shared/wording.ts';
import { useSession } from '../../shared/session.ts';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { formatTime } from '../../shared/time.ts';
import { useServerTable } from '../../shared/table/serverTable.ts';
import {
  ENTERPRISE_SORT_FIELDS,
  deleteEnterprise,
  enterpriseKeys,
  fetchEnterprises,
  unbindPlatform,
  type EnterpriseListParams,
} from './enterprisesApi.ts';
import { EnterpriseFormDrawer } from './EnterpriseFormDrawer.tsx';
import { BindSiteModal } from './BindSiteModal.tsx';

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
  const { platformType } = useSession();
  const isEnterprise = orgWord(platformType) === 'common:wording.enterprise';
  const org = t(orgWord(platformType));
  const titleKey = `${variant}.${isEnterprise ? 'titleEnterprise' : 'titleOrganisation'}`;

  const table = useServerTable<EnterpriseListParams>({ pageNum: 1, pageSize: 20 }, ENTERPRISE_SORT_FIELDS, {
    filters: { keyword: 'string' },
  });
  const { params } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
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

  const columns: ServerColumn<EnterpriseRow>[] = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      key: 'name',
      width: 220,
      fixed: 'left',
      hideable: false,
      sorter: true,
      sortOrder: table.sortOrderOf('name'),
      render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
    },
    {
      title: t('fields.code'),
      dataIndex: 'code',
      key: 'code',
      width: 130,
      sorter: true,
      sortOrder: table.sortOrderOf('code'),
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
      sortOrder: table.sortOrderOf('createdAt'),
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
          <DeleteAction
            title={t('confirm.deleteTitle', { name: row.name })}
            description={t('confirm.deleteContent')}
            label={t('actions.delete')}
            data-testid="enterprise-delete"
            onDelete={() => deleteEnterprise(variant, row.enterpriseId)}
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
    <ListPage icon={<BankOutlined />} title={t(titleKey)} description={t(`${variant}.description`, { org })}>
      {msgHolder}
      {modalHolder}
      <ServerTable<EnterpriseRow>
        tableId={`enterprises.${variant}`}
        rowKey="enterpriseId"
        data-testid="enterprise-table"
        footer={110}
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(total) => t('list.total', { count: total })}
        filters={
          <>
            <Input.Search
              allowClear
              data-testid="enterprise-search"
              style={{ width: 280 }}
              placeholder={t('filters.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => table.setFilter({ keyword: v.trim() || undefined })}
            />
          </>
        }
        actions={
          <>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              data-testid="enterprise-add"
              onClick={() => setEditing(null)}
            >
              {t('actions.add', { org })}
            </Button>
          </>
        }
      />
      <Typography.Text type="secondary">
        <LinkOutlined /> {t('list.bindHint')}
      </Typography.Text>
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
    </ListPage>
  );
}
