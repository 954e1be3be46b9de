import { useEffect, useMemo, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Card, Empty, Flex, Input, Popconfirm, Spin, Tag, Tooltip, Tree, Typography, message } from 'antd';
import type { TreeDataNode } from 'antd';
import { DeleteOutlined, EditOutlined, GlobalOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { REGION_LEVELS, type RegionNode } from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { deleteRegion, regionKeys, useRegionTree } from './regionsApi.ts';
import { RegionFormModal, type RegionEdit } from './RegionFormModal.tsx';

const MAX_LEVEL = REGION_LEVELS[REGION_LEVELS.length - 1] ?? 4;
const LEVEL_COLORS = ['', 'magenta', 'geekblue', 'cyan', 'green'];

interface Node extends TreeDataNode {
  key: string;
  region: RegionNode;
  children?: Node[];
}

/** Keeps the regions whose name or code matches, with their ancestors. */
function filterTree(nodes: RegionNode[], q: string): RegionNode[] {
  if (!q) return nodes;
  const out: RegionNode[] = [];
  for (const n of nodes) {
    const kids = filterTree(n.children ?? [], q);
    const hit = [n.name, n.nameEn, n.nameZh, n.nameKo, n.code].some((s) => s.toLowerCase().includes(q));
    if (hit || kids.length) out.push({ ...n, children: hit && !kids.length ? n.children : kids });
  }
  return out;
}

const toNodes = (nodes: RegionNode[]): Node[] =>
  nodes.map((r) => ({ key: r.code, region: r, children: r.children?.length ? toNodes(r.children) : undefined }));

const allKeys = (nodes: RegionNode[]): string[] => nodes.flatMap((n) => [n.code, ...allKeys(n.children ?? [])]);

/**
 * The administrative region tree (country > province > city > county/district) that sites are placed in:
 * add below, rename, delete (refused while a region has regions below it or sites). Role system:data.
 * Test hooks: region-add-root, region-tree, region-add-child, region-edit, region-delete(-confirm), region-save.
 */
export default function RegionsPage() {
  const { t } = useTranslation('regions');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [treeTop, height] = useTableScrollY(40);
  const tree = useRegionTree();
  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const [edit, setEdit] = useState<RegionEdit | null>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const [reveal, setReveal] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: regionKeys.all });

  const q = search.trim().toLowerCase();
  const shown = useMemo(() => filterTree(tree.data ?? [], q), [tree.data, q]);
  const data = useMemo(() => toNodes(shown), [shown]);
  // Countries and provinces open by default; a search opens everything it keeps.
  const defaultExpanded = useMemo(
    () => (q ? allKeys(shown) : shown.flatMap((c) => [c.code, ...(c.children ?? []).map((p) => p.code)])),
    [shown, q],
  );

  // Bring a region just added into view once the tree shows it (the tree renders it a moment after the data).
  useEffect(() => {
    if (!reveal) return;
    let tries = 0;
    const timer = window.setInterval(() => {
      const el = boxRef.current?.querySelector(`[data-testid="region-${CSS.escape(reveal)}"]`);
      if (el) el.scrollIntoView({ block: 'center' });
      if (el || ++tries > 30) {
        window.clearInterval(timer);
        setReveal(null);
      }
    }, 100);
    return () => window.clearInterval(timer);
  }, [reveal]);

  const remove = useMutation({
    mutationFn: (code: string) => deleteRegion(code),
    onSuccess: () => {
      void msg.success(t('messages.deleted'));
      void refresh();
    },
  });

  const title = (n: Node) => {
    const r = n.region;
    return (
      <Flex align="center" gap={8} className="gs-region-row" data-testid={`region-${r.code}`}>
        <Typography.Text strong={r.level <= 2}>{r.name}</Typography.Text>
        <Tag color={LEVEL_COLORS[r.level]} bordered={false}>
          {t(`levels.${r.level}`)}
        </Tag>
        <Typography.Text type="secondary" code>
          {r.code}
        </Typography.Text>
        <Flex gap={0} style={{ marginLeft: 'auto' }} onClick={(e) => e.stopPropagation()}>
          {r.level < MAX_LEVEL ? (
            <Tooltip title={t('actions.addChild', { level: t(`levels.${r.level + 1}`) })}>
              <Button
                type="text"
                size="small"
                icon={<PlusOutlined />}
                data-testid="region-add-child"
                aria-label={t('actions.addChild', { level: t(`levels.${r.level + 1}`) })}
                onClick={() => setEdit({ mode: 'add', parent: r, siblings: r.children?.length ?? 0 })}
              />
            </Tooltip>
          ) : null}
          <Tooltip title={t('actions.edit')}>
            <Button
              type="text"
              size="small"
              icon={<EditOutlined />}
              data-testid="region-edit"
              aria-label={t('actions.edit')}
              onClick={() => setEdit({ mode: 'edit', region: r })}
            />
          </Tooltip>
          <Popconfirm
            title={t('confirm.deleteTitle', { name: r.name })}
            description={t('confirm.deleteContent')}
            okText={t('actions.delete')}
            okButtonProps={{ danger: true, 'data-testid': 'region-delete-confirm' }}
            cancelText={t('form.cancel')}
            onConfirm={() => remove.mutateAsync(r.code).catch(() => undefined)}
          >
            <Button
              type="text"
              size="small"
              danger
              icon={<DeleteOutlined />}
              data-testid="region-delete"
              aria-label={t('actions.delete')}
            />
          </Popconfirm>
        </Flex>
      </Flex>
    );
  };

  return (
    <Flex vertical gap={16}>
      {msgHolder}
      <PageHeaderCard icon={<GlobalOutlined />} title={t('title')} description={t('description')} />
      <Card variant="borderless">
        <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 16 }}>
          <Input.Search
            allowClear
            data-testid="region-search"
            style={{ width: 300 }}
            placeholder={t('filters.keyword')}
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setExpanded(null);
            }}
          />
          <Flex gap={8}>
            <Tooltip title={t('actions.reload')}>
              <Button icon={<ReloadOutlined />} aria-label={t('actions.reload')} onClick={() => void refresh()} />
            </Tooltip>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              data-testid="region-add-root"
              onClick={() => setEdit({ mode: 'add', parent: null, siblings: tree.data?.length ?? 0 })}
            >
              {t('actions.addRoot')}
            </Button>
          </Flex>
        </Flex>
        <div ref={treeTop}>
          {tree.isLoading ? (
            <Flex justify="center" style={{ padding: 48 }}>
              <Spin />
            </Flex>
          ) : data.length === 0 ? (
            <Empty description={q ? t('list.noMatch') : t('list.empty')} />
          ) : (
            <div ref={boxRef} style={{ maxHeight: height, overflow: 'auto' }}>
              <Tree<Node>
                data-testid="region-tree"
                blockNode
                showLine
                selectable={false}
                virtual={false}
                treeData={data}
                expandedKeys={expanded ?? defaultExpanded}
                onExpand={(keys) => setExpanded(keys as string[])}
                titleRender={title}
              />
            </div>
          )}
        </div>
      </Card>
      <RegionFormModal
        edit={edit}
        onClose={() => setEdit(null)}
        onSaved={(added, code, parentCode) => {
          void msg.success(t(added ? 'messages.added' : 'messages.saved'));
          setEdit(null);
          if (added) {
            // Open the parent and bring the new region into view once the tree has it.
            if (parentCode) setExpanded((keys) => [...new Set([...(keys ?? defaultExpanded), parentCode])]);
            setReveal(code);
          }
          void refresh();
        }}
      />
    </Flex>
  );
}
