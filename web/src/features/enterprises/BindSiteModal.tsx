import { useEffect, useMemo, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Form, Modal, Segmented, Select, Typography } from 'antd';
import type { EnterpriseRow, EnterpriseVariant, PlatformType } from '@geosentry/contract';
import { useSession } from '../../shared/session.ts';
import { KIND_SCREENS } from '../platforms/index.ts';
import { fetchPlatformChoices, platformKeys } from '../platforms/index.ts';
import { VARIANT_KINDS, bindPlatform } from './enterprisesApi.ts';

export interface BindSiteModalProps {
  variant: EnterpriseVariant;
  enterprise: EnterpriseRow | null;
  onClose: () => void;
  onBound: () => void;
}

const roleOf = (kind: PlatformType) => KIND_SCREENS.find((s) => s.kind === kind)?.role ?? '';

/**
 * Binds a site of an allowed kind to an enterprise (POST bindPlatform {enterpriseId, platformId}); a site
 * bound elsewhere moves to this one. Only kinds the user may manage are offered.
 * Test hooks: enterprise-bind-kind, #enterprise-bind-site, enterprise-bind-save.
 */
export function BindSiteModal({ variant, enterprise, onClose, onBound }: BindSiteModalProps) {
  const { t } = useTranslation('enterprises');
  const { permissions } = useSession();
  const kinds = useMemo(
    () => VARIANT_KINDS[variant].filter((k) => permissions === null || permissions.includes(roleOf(k))),
    [variant, permissions],
  );
  const [kind, setKind] = useState<PlatformType | undefined>(kinds[0]);
  const [keyword, setKeyword] = useState('');
  const [siteId, setSiteId] = useState<number | undefined>(undefined);
  const open = enterprise !== null;

  useEffect(() => {
    if (!open) return;
    setKind(kinds[0]);
    setKeyword('');
    setSiteId(undefined);
  }, [open, kinds]);

  const sites = useQuery({
    queryKey: platformKeys.pick(kind ?? 'disaster', keyword),
    queryFn: () => fetchPlatformChoices(kind ?? 'disaster', keyword),
    enabled: open && kind !== undefined,
  });
  const chosen = sites.data?.find((s) => s.platformId === siteId);
  const bind = useMutation({
    mutationFn: (platformId: number) => bindPlatform(variant, enterprise?.enterpriseId ?? 0, platformId),
    onSuccess: onBound,
  });

  return (
    <Modal
      open={open}
      title={t('bind.title', { name: enterprise?.name ?? '' })}
      onCancel={onClose}
      okText={t('bind.ok')}
      cancelText={t('form.cancel')}
      okButtonProps={{ disabled: siteId === undefined, loading: bind.isPending, 'data-testid': 'enterprise-bind-save' }}
      onOk={() => (siteId !== undefined ? bind.mutate(siteId) : undefined)}
      destroyOnHidden
    >
      {kinds.length === 0 ? (
        <Alert type="warning" showIcon title={t('bind.noKinds')} />
      ) : (
        <Form layout="vertical">
          {kinds.length > 1 ? (
            <Form.Item label={t('bind.kind')}>
              <Segmented<PlatformType>
                data-testid="enterprise-bind-kind"
                value={kind}
                onChange={(k) => {
                  setKind(k);
                  setSiteId(undefined);
                  setKeyword('');
                }}
                options={kinds.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
              />
            </Form.Item>
          ) : null}
          <Form.Item label={t('bind.site')} htmlFor="enterprise-bind-site">
            <Select<number>
              id="enterprise-bind-site"
              data-testid="enterprise-bind-site"
              showSearch={{ filterOption: false, onSearch: (v) => setKeyword(v.trim()) }}
              allowClear
              loading={sites.isFetching}
              placeholder={t('bind.sitePlaceholder')}
              value={siteId}
              onChange={(v) => setSiteId(v ?? undefined)}
              options={(sites.data ?? []).map((s) => ({
                value: s.platformId,
                label: s.name,
                disabled: s.enterpriseId === enterprise?.enterpriseId,
              }))}
              notFoundContent={sites.isFetching ? undefined : t('bind.noSites')}
            />
          </Form.Item>
          {chosen?.enterpriseName && chosen.enterpriseId !== enterprise?.enterpriseId ? (
            <Typography.Text type="warning">{t('bind.moves', { name: chosen.enterpriseName })}</Typography.Text>
          ) : null}
        </Form>
      )}
    </Modal>
  );
}
