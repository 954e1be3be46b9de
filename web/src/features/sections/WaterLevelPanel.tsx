import { useEffect, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Descriptions, Flex, InputNumber, Radio, Tag, Typography, message } from 'antd';
import { MIN_UPSTREAM_COORDS, type SectionRow, type WaterLevelSource } from '@geosentry/contract';
import { setWaterLevel } from './sectionsApi.ts';

/**
 * Where a section's water level comes from: automatic (a water-level device of the site) or a manual level.
 * The server checks the order of things (upstream coordinates first, a water-level device for automatic,
 * a manual level within the section) and its messages are shown as they come.
 * Test hooks: water-source (radio group), #water-level, water-save.
 */
export function WaterLevelPanel({ section, onSaved }: { section: SectionRow; onSaved: () => void }) {
  const { t } = useTranslation('sections');
  const [msg, msgHolder] = message.useMessage();
  const [source, setSource] = useState<WaterLevelSource>(section.waterLevelSource);
  const [level, setLevel] = useState<number | null>(section.manualWaterLevel);

  useEffect(() => {
    setSource(section.waterLevelSource);
    setLevel(section.manualWaterLevel);
  }, [section.segmentId, section.waterLevelSource, section.manualWaterLevel]);

  const save = useMutation({
    mutationFn: () => setWaterLevel(section.segmentId, source, level ?? undefined),
    onSuccess: () => {
      void msg.success(t('messages.waterSaved'));
      onSaved();
    },
  });

  const tops = section.upstreamCoords.map((p) => p.elevation).filter((e): e is number => typeof e === 'number');
  const top = tops.length ? Math.max(...tops) : null;
  const coordsMissing = section.upstreamCoords.length < MIN_UPSTREAM_COORDS;

  return (
    <Flex vertical gap={16}>
      {msgHolder}
      <Descriptions
        size="small"
        column={2}
        bordered
        items={[
          {
            key: 'source',
            label: t('water.current'),
            children: (
              <Tag color={section.waterLevelSource === 'auto' ? 'green' : 'blue'}>
                {t(`water.sources.${section.waterLevelSource}`)}
              </Tag>
            ),
          },
          {
            key: 'level',
            label: t('water.manualLevel'),
            children:
              section.manualWaterLevel !== null ? `${section.manualWaterLevel} ${t('units.m')}` : t('water.notSet'),
          },
          {
            key: 'bottom',
            label: t('fields.bottomElevation'),
            children:
              section.bottomElevation !== null ? `${section.bottomElevation} ${t('units.m')}` : t('water.notSet'),
          },
          {
            key: 'top',
            label: t('water.top'),
            children: top !== null ? `${top} ${t('units.m')}` : t('water.notSet'),
          },
        ]}
      />
      {coordsMissing ? <Alert type="info" showIcon title={t('water.coordsFirst')} /> : null}
      <Radio.Group
        data-testid="water-source"
        value={source}
        onChange={(e) => setSource(e.target.value as WaterLevelSource)}
        options={[
          { value: 'auto', label: t('water.sources.auto') },
          { value: 'manual', label: t('water.sources.manual') },
        ]}
      />
      <Typography.Text type="secondary">{t(source === 'auto' ? 'water.autoHint' : 'water.manualHint')}</Typography.Text>
      {source === 'manual' ? (
        <InputNumber<number>
          id="water-level"
          style={{ width: 240 }}
          prefix={t('water.level')}
          suffix={t('units.m')}
          precision={3}
          value={level}
          onChange={setLevel}
        />
      ) : null}
      <Flex justify="flex-end">
        <Button
          type="primary"
          data-testid="water-save"
          loading={save.isPending}
          disabled={source === 'manual' && level === null}
          onClick={() => save.mutate()}
        >
          {t('actions.saveWater')}
        </Button>
      </Flex>
    </Flex>
  );
}
