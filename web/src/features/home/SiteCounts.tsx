import type { ReactElement } from 'react';
import { Card, Empty, Skeleton, Tooltip } from 'antd';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { platformsRoutes } from '@geosentry/contract';
import { callAt } from '../../shared/api.ts';
import type { SiteKind } from './site-kinds.tsx';

function countSites(type: string): Promise<number> {
  return callAt(platformsRoutes.list, { type }, { pageNum: 1, pageSize: 1 }, { silent: true }).then((p) => p.total);
}

/**
 * Sites per kind the user may list, each the total of a one-row page (so within the user's data
 * scope). Kinds without the permission are neither shown nor asked for.
 * Test hooks: [data-testid="site-count-<type>"] with the number in [data-testid="site-count-value"].
 */
export function SiteCounts({ kinds }: { kinds: SiteKind[] }): ReactElement {
  const { t } = useTranslation('home');
  const results = useQueries({
    queries: kinds.map((k) => ({
      queryKey: ['home', 'siteCount', k.type],
      queryFn: () => countSites(k.type),
      staleTime: 30_000,
    })),
  });

  if (kinds.length === 0) {
    return (
      <Card title={t('sites.title')} className="gs-home-card">
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sites.none')} data-testid="site-count-none" />
      </Card>
    );
  }

  const loaded = results.every((r) => r.isSuccess);
  const total = results.reduce((sum, r) => sum + (r.data ?? 0), 0);

  return (
    <Card
      title={t('sites.title')}
      className="gs-home-card"
      extra={<span className="gs-muted gs-home-card-extra">{t('sites.scopeNote')}</span>}
    >
      <div className="gs-kind-grid">
        {kinds.map((k, i) => {
          const r = results[i];
          return (
            <div
              key={k.type}
              className="gs-kind"
              data-testid={`site-count-${k.type}`}
              style={{ ['--kind-color' as string]: k.color }}
            >
              <span className="gs-kind-icon">{k.icon}</span>
              <div className="gs-kind-body">
                <div className="gs-kind-label">{t(k.labelKey)}</div>
                <div className="gs-kind-value" data-testid="site-count-value">
                  {!r || r.isPending ? (
                    <Skeleton.Button active size="small" />
                  ) : r.isError ? (
                    <Tooltip title={t('sites.failed')}>
                      <span className="gs-kind-failed">—</span>
                    </Tooltip>
                  ) : (
                    r.data.toLocaleString()
                  )}
                </div>
              </div>
            </div>
          );
        })}
      </div>
      {kinds.length > 1 && loaded ? (
        <div className="gs-kind-total" data-testid="site-count-total">
          {t('sites.total', { count: total })}
        </div>
      ) : null}
    </Card>
  );
}
