import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Badge, Button, Drawer, Flex, Typography, message } from 'antd';
import { BlockOutlined } from '@ant-design/icons';
import type { MapLayerRow } from '@geosentry/contract';
import { DeleteAction } from '../../shared/table/DeleteAction.tsx';
import { SimpleTable } from '../../shared/ui/SimpleTable.tsx';
import { usePermission } from '../../shared/session.ts';
import { FileButton } from './FileButton.tsx';
import { deleteLayer, fetchLayers, importLayer, mapsKeys } from './mapsApi.ts';

/**
 * A site's own map layers (KML, KMZ, GeoJSON: places, lines and polygons with their names and styles): a button
 * that opens their list, with import and delete for holders of the module map. `onChanged` redraws the map.
 * Test hooks: site-layers, site-layer-import(-input), site-layer-table.
 */
export function SiteLayersButton({ platformId, onChanged }: { platformId: number; onChanged: () => void }) {
  const { t } = useTranslation('maps');
  const qc = useQueryClient();
  const [msg, holder] = message.useMessage();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const mayEdit = usePermission('monitor:moduleMap');
  const layers = useQuery({ queryKey: mapsKeys.layers(platformId), queryFn: () => fetchLayers(platformId) });
  const done = (): void => {
    void qc.invalidateQueries({ queryKey: mapsKeys.layers(platformId) });
    onChanged();
  };
  const importOne = useMutation({
    mutationFn: (f: File) => importLayer(f, platformId),
    onSuccess: (l) => {
      setError(null);
      void msg.success(t('layers.imported', { name: l.name }));
      done();
    },
    onError: (e) => setError(e instanceof Error ? e.message : String(e)),
  });
  return (
    <>
      {holder}
      <Badge count={layers.data?.length ?? 0} size="small" color="#1677ff">
        <Button icon={<BlockOutlined />} onClick={() => setOpen(true)} data-testid="site-layers">
          {t('siteLayers.button')}
        </Button>
      </Badge>
      <Drawer open={open} onClose={() => setOpen(false)} title={t('siteLayers.title')} size={560}>
        <Flex vertical gap={12}>
          <Typography.Text type="secondary">{t('siteLayers.help')}</Typography.Text>
          {error ? <Alert type="error" showIcon title={error} closable onClose={() => setError(null)} /> : null}
          {mayEdit ? (
            <div>
              <FileButton
                accept=".kml,.kmz,.geojson,.json"
                onFile={(f) => importOne.mutate(f)}
                testId="site-layer-import"
                loading={importOne.isPending}
              >
                {t('layers.import')}
              </FileButton>
            </div>
          ) : null}
          <SimpleTable<MapLayerRow>
            data-testid="site-layer-table"
            rows={layers.data ?? []}
            rowKey={(r) => r.id}
            empty={<Typography.Text type="secondary">{t('layers.none')}</Typography.Text>}
            columns={[
              { key: 'name', title: t('layers.name'), render: (r) => r.name },
              { key: 'format', title: t('tileSets.format'), render: (r) => r.format.toUpperCase() },
              {
                key: 'count',
                title: t('layers.features'),
                render: (r) => t('layers.counts', { points: r.points, lines: r.lines, polygons: r.polygons }),
              },
              ...(mayEdit
                ? [
                    {
                      key: 'del',
                      title: '',
                      render: (r: MapLayerRow) => (
                        <DeleteAction
                          title={t('layers.confirmDelete')}
                          label={t('delete')}
                          onDelete={() => deleteLayer(r.id)}
                          success={t('deleted')}
                          onDone={done}
                        />
                      ),
                    },
                  ]
                : []),
            ]}
          />
        </Flex>
      </Drawer>
    </>
  );
}
