import type { ReactElement } from 'react';
import { TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';

export interface RegionOption {
  value: string;
  title: string;
  children?: RegionOption[];
}

/**
 * The region tree picker (antd TreeSelect, searchable). Loaded when the user first opens the picker (RegionPicker):
 * antd's Select and Tree are about 20 KiB of compressed script home does not need for its first paint.
 */
export default function RegionTree({
  options,
  value,
  onChange,
  open,
}: {
  options: RegionOption[];
  value: string | undefined;
  onChange: (code: string | undefined) => void;
  /** Opened at once (the user clicked the stand-in). */
  open: boolean;
}): ReactElement {
  const { t } = useTranslation();
  return (
    <TreeSelect<string>
      data-testid="home-region"
      className="gs-home-region"
      popupMatchSelectWidth={280}
      allowClear
      showSearch
      autoFocus={open}
      defaultOpen={open}
      treeNodeFilterProp="title"
      placeholder={t('home:region.all')}
      treeData={options}
      treeDefaultExpandedKeys={options.map((n) => n.value)}
      value={value}
      onChange={(v) => onChange(v || undefined)}
      aria-label={t('home:region.label')}
    />
  );
}
