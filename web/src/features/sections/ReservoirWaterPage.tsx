import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, Col, Empty, Flex, Row, Select, Typography } from 'antd';
import { LineChartOutlined } from '@ant-design/icons';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { SitePicker } from './SitePicker.tsx';
import { WaterLevelPanel } from './WaterLevelPanel.tsx';
import { CapacityTableEditor } from './CapacityTableEditor.tsx';
import { fetchSectionsOfSite, sectionKeys } from './sectionsApi.ts';

const SITE_TABLE = 0;

/**
 * Reservoir water elevation: for a reservoir, the capacity (storage) table of the whole reservoir or of a
 * section, and a section's water level source (automatic from a water-level device, or a manual level).
 * Test hooks: reservoir-site, reservoir-section, plus those of the capacity and water level editors.
 */
export default function ReservoirWaterPage() {
  const { t } = useTranslation('sections');
  const queryClient = useQueryClient();
  const [platformId, setPlatformId] = useState<number | undefined>(undefined);
  const [segmentId, setSegmentId] = useState<number>(SITE_TABLE);
  const sections = useQuery({
    queryKey: sectionKeys.ofSite(platformId ?? 0),
    queryFn: () => fetchSectionsOfSite(platformId ?? 0),
    enabled: platformId !== undefined,
  });
  const section = sections.data?.find((s) => s.segmentId === segmentId) ?? null;

  return (
    <Flex vertical gap={16}>
      <PageHeaderCard
        icon={<LineChartOutlined />}
        title={t('reservoir.title')}
        description={t('reservoir.description')}
      />
      <Card variant="borderless">
        <Flex gap={12} wrap align="center">
          <SitePicker
            data-testid="reservoir-site"
            kinds={['reservoir']}
            style={{ width: 280 }}
            placeholder={t('reservoir.pickSite')}
            value={platformId}
            onChange={(id) => {
              setPlatformId(id);
              setSegmentId(SITE_TABLE);
            }}
          />
          <Select<number>
            data-testid="reservoir-section"
            style={{ width: 280 }}
            disabled={platformId === undefined}
            loading={sections.isFetching}
            value={segmentId}
            onChange={setSegmentId}
            options={[
              { value: SITE_TABLE, label: t('reservoir.siteTable') },
              ...(sections.data ?? []).map((s) => ({ value: s.segmentId, label: s.name })),
            ]}
          />
        </Flex>
      </Card>
      {platformId === undefined ? (
        <Card variant="borderless">
          <Empty description={t('reservoir.noSite')} />
        </Card>
      ) : (
        <Row gutter={16}>
          <Col xs={24} xl={10}>
            <Card variant="borderless" title={t('reservoir.waterLevel')}>
              {section ? (
                <WaterLevelPanel
                  section={section}
                  onSaved={() => void queryClient.invalidateQueries({ queryKey: sectionKeys.all })}
                />
              ) : (
                <Typography.Text type="secondary">{t('reservoir.pickSection')}</Typography.Text>
              )}
            </Card>
          </Col>
          <Col xs={24} xl={14}>
            <Card
              variant="borderless"
              title={section ? t('reservoir.capacityOf', { name: section.name }) : t('reservoir.capacitySite')}
            >
              <CapacityTableEditor
                key={`${platformId}-${segmentId}`}
                platformId={platformId}
                segmentId={segmentId === SITE_TABLE ? undefined : segmentId}
              />
            </Card>
          </Col>
        </Row>
      )}
    </Flex>
  );
}
