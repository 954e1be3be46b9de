import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Col, Drawer, Flex, Form, Input, InputNumber, Row, Spin, Tabs, Tag, Typography, message } from 'antd';
import { SECTION_PLATFORM_TYPES } from '@geosentry/contract';
import { useSession } from '../../shared/session.ts';
import { SitePicker } from './SitePicker.tsx';
import { UpstreamCoordsEditor } from './UpstreamCoordsEditor.tsx';
import { WaterLevelPanel } from './WaterLevelPanel.tsx';
import { CapacityTableEditor } from './CapacityTableEditor.tsx';
import { HeartWallPanel } from './HeartWallPanel.tsx';
import { addSection, editSection, fetchSectionsOfSite, sectionKeys, type SectionFormValues } from './sectionsApi.ts';

/** Which section the drawer shows: a new one (optionally on a chosen site) or an existing one. */
export type SectionTarget =
  { mode: 'add'; platformId?: number | undefined } | { mode: 'edit'; platformId: number; segmentId: number };

interface FormValues extends SectionFormValues {
  platformId?: number;
}

/**
 * Adds or edits a section, then its upstream-face coordinates, water level source, capacity table and core-wall
 * devices (tabs that need a saved section). Test hooks: section-form, #section-platformId, #section-name,
 * #section-bottomElevation, #section-info, section-save, section-tab-<key>.
 */
export function SectionDrawer({
  target,
  onClose,
  onChanged,
}: {
  target: SectionTarget | null;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation('sections');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [form] = Form.useForm<FormValues>();
  const { permissions } = useSession();
  const mayWater = permissions === null || permissions.includes('information:reservoirWater');
  const [current, setCurrent] = useState<{ platformId: number; segmentId: number } | null>(null);
  const [tab, setTab] = useState('basic');
  const open = target !== null;

  // A new target starts over (adjusted while rendering, so the effects below already see it).
  const [seenTarget, setSeenTarget] = useState<SectionTarget | null>(null);
  if (target !== seenTarget) {
    setSeenTarget(target);
    if (target) {
      setTab('basic');
      setCurrent(target.mode === 'edit' ? { platformId: target.platformId, segmentId: target.segmentId } : null);
    }
  }

  const sections = useQuery({
    queryKey: sectionKeys.ofSite(current?.platformId ?? 0),
    queryFn: () => fetchSectionsOfSite(current?.platformId ?? 0),
    enabled: open && current !== null,
    retry: 2,
    // Just added: until the site's list holds the section, ask again each second (a list fetched before the add
    // committed, or a failed fetch, must not leave the other tabs empty).
    refetchInterval: (q) =>
      current !== null && !q.state.data?.some((s) => s.segmentId === current.segmentId) ? 1000 : false,
  });
  const section = sections.data?.find((s) => s.segmentId === current?.segmentId) ?? null;

  // Fill the form when the drawer opens on a section, or empty it for a new one.
  useEffect(() => {
    if (!target) return;
    form.resetFields();
    if (target.mode === 'add') form.setFieldsValue({ platformId: target.platformId });
  }, [target, form]);
  const sectionId = section?.segmentId;
  useEffect(() => {
    if (!section) return;
    form.setFieldsValue({
      platformId: section.platformId,
      name: section.name,
      info: section.info ?? undefined,
      bottomElevation: section.bottomElevation,
    });
    // Only when the drawer opens or shows another section: refreshes must not overwrite what is being typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sectionId, target, form]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: sectionKeys.all });
    onChanged();
  };

  const save = useMutation({
    mutationFn: async (v: FormValues) => {
      if (current) {
        await editSection(current.segmentId, v);
        return current;
      }
      const platformId = v.platformId ?? 0;
      const r = await addSection(platformId, v);
      return { platformId, segmentId: r.segmentId };
    },
    onSuccess: (saved) => {
      void msg.success(t(current ? 'messages.saved' : 'messages.addedNext'));
      setCurrent(saved);
      refresh();
    },
  });

  const needsSection = current === null;
  // A tab of a section saved a moment ago, while the site's list does not hold it yet.
  const waiting = current ? (
    <Flex justify="center" style={{ padding: 48 }}>
      <Spin data-testid="section-loading" />
    </Flex>
  ) : null;
  const tabLabel = (key: string) => <span data-testid={`section-tab-${key}`}>{t(`tabs.${key}`)}</span>;

  return (
    <Drawer
      open={open}
      size={900}
      title={
        section ? (
          <Flex gap={8} align="center">
            {t('form.editTitle', { name: section.name })}
            <Tag>{section.platformName}</Tag>
          </Flex>
        ) : (
          t('form.addTitle')
        )
      }
      onClose={onClose}
      mask={{ closable: !save.isPending }}
      destroyOnHidden
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={onClose}>{t('form.close')}</Button>
          {tab === 'basic' ? (
            <Button type="primary" data-testid="section-save" loading={save.isPending} onClick={() => form.submit()}>
              {t('form.save')}
            </Button>
          ) : null}
        </Flex>
      }
    >
      {msgHolder}
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: 'basic',
            label: tabLabel('basic'),
            forceRender: true,
            children: (
              <Form<FormValues>
                form={form}
                name="section"
                layout="vertical"
                onFinish={(v) => save.mutate(v)}
                data-testid="section-form"
              >
                <Row gutter={16}>
                  <Col span={12}>
                    <Form.Item
                      name="platformId"
                      htmlFor="section-platformId"
                      label={t('fields.site')}
                      rules={[{ required: true, message: t('validation.siteRequired') }]}
                      extra={current ? undefined : t('form.siteHint')}
                    >
                      <SitePicker
                        id="section-platformId"
                        kinds={SECTION_PLATFORM_TYPES}
                        disabled={current !== null}
                        placeholder={t('form.sitePlaceholder')}
                      />
                    </Form.Item>
                  </Col>
                  <Col span={12}>
                    <Form.Item
                      name="name"
                      htmlFor="section-name"
                      label={t('fields.name')}
                      rules={[{ required: true, whitespace: true, message: t('validation.nameRequired') }]}
                    >
                      <Input id="section-name" maxLength={100} />
                    </Form.Item>
                  </Col>
                  <Col span={12}>
                    <Form.Item
                      name="bottomElevation"
                      htmlFor="section-bottomElevation"
                      label={t('fields.bottomElevation')}
                    >
                      <InputNumber<number>
                        id="section-bottomElevation"
                        style={{ width: '100%' }}
                        precision={3}
                        suffix={t('units.m')}
                      />
                    </Form.Item>
                  </Col>
                </Row>
                <Form.Item name="info" htmlFor="section-info" label={t('fields.info')}>
                  <Input.TextArea id="section-info" maxLength={2000} autoSize={{ minRows: 3, maxRows: 8 }} />
                </Form.Item>
                {needsSection ? <Typography.Text type="secondary">{t('form.moreAfterSave')}</Typography.Text> : null}
              </Form>
            ),
          },
          {
            key: 'upstream',
            label: tabLabel('upstream'),
            disabled: needsSection,
            children: section ? <UpstreamCoordsEditor section={section} onSaved={refresh} /> : waiting,
          },
          ...(mayWater
            ? [
                {
                  key: 'water',
                  label: tabLabel('water'),
                  disabled: needsSection,
                  children: section ? <WaterLevelPanel section={section} onSaved={refresh} /> : waiting,
                },
                {
                  key: 'capacity',
                  label: tabLabel('capacity'),
                  disabled: needsSection,
                  children: section ? (
                    <CapacityTableEditor platformId={section.platformId} segmentId={section.segmentId} />
                  ) : (
                    waiting
                  ),
                },
              ]
            : []),
          {
            key: 'heartWall',
            label: tabLabel('heartWall'),
            disabled: needsSection,
            children: section ? (
              <HeartWallPanel segmentId={section.segmentId} platformId={section.platformId} />
            ) : (
              waiting
            ),
          },
        ]}
      />
    </Drawer>
  );
}
