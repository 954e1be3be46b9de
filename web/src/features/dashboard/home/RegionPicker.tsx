import { lazy, Suspense, useMemo, useState, type ReactElement } from 'react';
import { CloseCircleFilled, DownOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { RegionNode } from '@geosentry/contract';
import type { RegionOption } from './RegionTree.tsx';

const RegionTree = lazy(() => import('./RegionTree.tsx'));

const toOptions = (nodes: readonly RegionNode[]): RegionOption[] =>
  nodes.map((n) => ({
    value: n.code,
    title: n.name,
    ...(n.children?.length ? { children: toOptions(n.children) } : {}),
  }));

function nameOf(nodes: readonly RegionNode[], code: string): string | undefined {
  for (const n of nodes) {
    if (n.code === code) return n.name;
    const below = n.children ? nameOf(n.children, code) : undefined;
    if (below) return below;
  }
  return undefined;
}

/**
 * Regional screening: a stand-in that looks like the picker (the chosen region's name, a clear button) until the user
 * opens it; then the tree picker loads (RegionTree) and opens. Test hooks: home-region, home-region-clear.
 */
export function RegionPicker({
  regions,
  value,
  onChange,
}: {
  regions: readonly RegionNode[] | undefined;
  value: string | undefined;
  onChange: (code: string | undefined) => void;
}): ReactElement {
  const { t } = useTranslation();
  const [used, setUsed] = useState(false);
  const options = useMemo(() => toOptions(regions ?? []), [regions]);
  const name = value ? (nameOf(regions ?? [], value) ?? value) : undefined;
  const stub = (
    <span className="gs-home-region gs-home-region-stub" data-testid="home-region">
      <button
        type="button"
        className="gs-home-region-open"
        aria-label={t('home:region.label')}
        aria-haspopup="tree"
        onClick={() => setUsed(true)}
        disabled={!regions}
      >
        <span className={name ? '' : 'gs-home-region-placeholder'}>{name ?? t('home:region.all')}</span>
        <DownOutlined />
      </button>
      {value ? (
        <button
          type="button"
          className="gs-home-region-clear"
          data-testid="home-region-clear"
          aria-label={t('home:region.clear')}
          onClick={() => onChange(undefined)}
        >
          <CloseCircleFilled />
        </button>
      ) : null}
    </span>
  );
  if (!used) return stub;
  return (
    <Suspense fallback={stub}>
      <RegionTree options={options} value={value} onChange={onChange} open />
    </Suspense>
  );
}
