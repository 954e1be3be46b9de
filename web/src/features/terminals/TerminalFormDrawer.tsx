import { useEffect, useMemo } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AutoComplete, Button, Col, Divider, Drawer, Flex, Form, Input, InputNumber, Row, Select } from 'antd';
import {
  TERMINAL_PROTOCOL_SUGGESTIONS,
  TERMINAL_STATUSES,
  terminalFields,
  type TerminalKeyAnswer,
  type TerminalRow,
} from '@geosentry/contract';
import { useSiteOptions } from '../../shared/sites.ts';
import { nn, retryUnlessCancelled } from '../../shared/query.ts';
import { addTerminal, editTerminal, fetchAllTerminals, terminalKeys, type TerminalFormValues } from './terminalsApi.ts';

export interface TerminalFormDrawerProps {
  open: boolean;
  /** The terminal to edit, or null to add one. */
  terminal: TerminalRow | null;
  onClose: () => void;
  /** Saved; on add, the answer carries the key to show once. */
  onSaved: (added: TerminalKeyAnswer | null, name: string) => void;
}

const serialSchema = terminalFields.serial;

/** Adds or edits a terminal (data logger): site, name, serial, maker, model, protocol, port, type, parent, status. */
export function TerminalFormDrawer({ open, terminal, onClose, onSaved }: TerminalFormDrawerProps) {
  const { t } = useTranslation('terminals');
  const [form] = Form.useForm<TerminalFormValues>();
  const isEdit = terminal !== null;
  const platformId = Form.useWatch('platformId', form);
  const sites = useSiteOptions(open);

  const siblings = useQuery({
    queryKey: terminalKeys.ofSite(platformId),
    queryFn: () => fetchAllTerminals(platformId),
    enabled: open && platformId !== undefined,
    retry: retryUnlessCancelled,
  });
  const parentOptions = useMemo(
    () =>
      (siblings.data ?? [])
        .filter((x) => x.terminalId !== terminal?.terminalId)
        .map((x) => ({ value: x.terminalId, label: `${x.name} (${x.serial})` })),
    [siblings.data, terminal],
  );

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (terminal) {
      form.setFieldsValue({
        platformId: terminal.platformId,
        name: terminal.name,
        serial: terminal.serial,
        manufacturer: nn(terminal.manufacturer),
        model: nn(terminal.model),
        protocolType: terminal.protocolType,
        port: terminal.port,
        type: nn(terminal.type),
        parentId: terminal.parentId,
        status: terminal.status,
      });
    } else {
      form.setFieldsValue({ status: 'normal', protocolType: 'MQTT' });
    }
  }, [open, terminal, form]);

  const save = useMutation({
    mutationFn: async (v: TerminalFormValues) => {
      if (terminal) {
        await editTerminal(terminal.terminalId, v);
        return null;
      }
      return addTerminal(v);
    },
    onSuccess: (answer, v) => onSaved(answer, v.name.trim()),
  });

  return (
    <Drawer
      open={open}
      size={600}
      title={isEdit ? t('form.editTitle', { name: terminal.name }) : t('form.addTitle')}
      onClose={onClose}
      mask={{ closable: !save.isPending }}
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" data-testid="terminal-save" loading={save.isPending} onClick={() => form.submit()}>
            {t('common.save')}
          </Button>
        </Flex>
      }
    >
      <Form<TerminalFormValues>
        form={form}
        layout="vertical"
        onFinish={(v) => save.mutate(v)}
        data-testid="terminal-form"
      >
        <Divider titlePlacement="start" plain style={{ marginTop: 0 }}>
          {t('form.sectionBasics')}
        </Divider>
        <Form.Item
          name="platformId"
          label={t('fields.site')}
          rules={[{ required: true, message: t('validation.siteRequired') }]}
          extra={isEdit && terminal.deviceCount > 0 ? t('form.siteLocked') : undefined}
        >
          <Select<number>
            id="terminal-site"
            loading={sites.isLoading}
            placeholder={t('placeholders.site')}
            options={sites.options}
            showSearch={{ optionFilterProp: 'label' }}
            notFoundContent={t('noSites')}
            disabled={isEdit && terminal.deviceCount > 0}
            onChange={() => form.setFieldValue('parentId', undefined)}
          />
        </Form.Item>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item
              name="name"
              label={t('fields.name')}
              rules={[{ required: true, whitespace: true, message: t('validation.nameRequired') }]}
            >
              <Input id="terminal-name" maxLength={100} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="serial"
              label={t('fields.serial')}
              extra={t('form.serialHint')}
              rules={[
                { required: true, whitespace: true, message: t('validation.serialRequired') },
                {
                  validator: (_r, v: string | undefined) =>
                    !v || serialSchema.safeParse(v).success
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('validation.serialPattern'))),
                },
              ]}
            >
              <Input id="terminal-serial" maxLength={64} autoComplete="off" />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="manufacturer" label={t('fields.manufacturer')}>
              <Input id="terminal-manufacturer" maxLength={100} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="model" label={t('fields.model')}>
              <Input id="terminal-model" maxLength={100} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="type" label={t('fields.type')}>
              <Input id="terminal-type" maxLength={50} placeholder={t('placeholders.type')} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="status" label={t('fields.status')}>
              <Select
                id="terminal-status"
                options={TERMINAL_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
              />
            </Form.Item>
          </Col>
        </Row>
        <Divider titlePlacement="start" plain>
          {t('form.sectionCommunication')}
        </Divider>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item
              name="protocolType"
              label={t('fields.protocolType')}
              rules={[{ required: true, whitespace: true, message: t('validation.protocolRequired') }]}
            >
              <AutoComplete
                id="terminal-protocol"
                options={TERMINAL_PROTOCOL_SUGGESTIONS.map((p) => ({ value: p }))}
                maxLength={50}
              />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="port"
              label={t('fields.port')}
              rules={[
                {
                  validator: (_r, v: number | null | undefined) =>
                    v === null || v === undefined || (Number.isInteger(v) && v >= 1 && v <= 65535)
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('validation.portInvalid'))),
                },
              ]}
            >
              <InputNumber id="terminal-port" style={{ width: '100%' }} precision={0} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="parentId" label={t('fields.parent')} extra={t('form.parentHint')}>
          <Select<number>
            id="terminal-parent"
            allowClear
            disabled={platformId === undefined}
            loading={siblings.isLoading}
            placeholder={t('placeholders.parent')}
            options={parentOptions}
            showSearch={{ optionFilterProp: 'label' }}
          />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
