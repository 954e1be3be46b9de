import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Badge, Empty, Spin, Tree, type TreeDataNode } from 'antd';
import { FolderOutlined, VideoCameraOutlined } from '@ant-design/icons';
import type { Camera, CameraGroupNode } from '@geosentry/contract';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { cameraKeys, fetchGroupTree } from './camerasApi.ts';

export function useGroupTree() {
  return useQuery({ queryKey: cameraKeys.tree, queryFn: fetchGroupTree, retry: retryUnlessCancelled });
}

/** Every group id of a tree, depth first. */
export function groupIds(nodes: CameraGroupNode[]): number[] {
  return nodes.flatMap((n) => [n.id, ...groupIds(n.children)]);
}

export const groupKey = (id: number) => `g${id}`;
export const cameraKey = (id: number) => `c${id}`;

const names = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
/** Cameras by name as people number them: "Dam 2" before "Dam 10" (the server sorts text as text). */
export const byCameraName = (a: Camera, b: Camera): number => names.compare(a.name, b.name) || a.id - b.id;

function toData(
  nodes: CameraGroupNode[],
  cameras: Camera[] | undefined,
  countOf: (n: CameraGroupNode) => number,
): TreeDataNode[] {
  return nodes.map((n) => ({
    key: groupKey(n.id),
    title: (
      <span data-testid={`group-${n.id}`} style={{ whiteSpace: 'nowrap' }}>
        {n.name} <Badge count={countOf(n)} size="small" color="#8c8c8c" showZero={false} />
      </span>
    ),
    icon: <FolderOutlined />,
    children: [
      ...toData(n.children, cameras, countOf),
      ...(cameras ?? [])
        .filter((c) => c.groupId === n.id)
        .sort(byCameraName)
        .map((c) => ({
          key: cameraKey(c.id),
          title: <span data-testid={`tree-camera-${c.id}`}>{c.name}</span>,
          icon: <VideoCameraOutlined />,
          isLeaf: true,
        })),
    ],
  }));
}

/**
 * The camera groups (levels 1 to 3) as a tree, with the count of cameras in each group and below; with
 * `cameras`, each camera under its group (the live view's picker).
 */
export function GroupTree({
  selected,
  onSelect,
  cameras,
  checkable,
  checked,
  onCheck,
  height,
}: {
  selected?: string | undefined;
  onSelect?: (key: string | undefined) => void;
  cameras?: Camera[] | undefined;
  checkable?: boolean;
  checked?: string[];
  onCheck?: (keys: string[]) => void;
  height?: number;
}) {
  const { t } = useTranslation('cameras');
  const tree = useGroupTree();
  const data = useMemo(() => {
    const total = (n: CameraGroupNode): number => n.cameraCount + n.children.reduce((s, c) => s + total(c), 0);
    return toData(tree.data ?? [], cameras, total);
  }, [tree.data, cameras]);
  const expanded = useMemo(() => groupIds(tree.data ?? []).map(groupKey), [tree.data]);
  if (tree.isLoading) return <Spin />;
  if (!data.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('groups.empty')} />;
  return (
    <Tree
      data-testid="camera-group-tree"
      showIcon
      blockNode
      defaultExpandedKeys={expanded}
      key={expanded.join(',')}
      treeData={data}
      selectedKeys={selected ? [selected] : []}
      onSelect={(keys) => onSelect?.(keys[0] === undefined ? undefined : String(keys[0]))}
      {...(height ? { height } : {})}
      {...(checkable
        ? {
            checkable: true,
            checkStrictly: true,
            checkedKeys: checked ?? [],
            onCheck: (v) => onCheck?.((Array.isArray(v) ? v : v.checked).map(String)),
          }
        : {})}
    />
  );
}
