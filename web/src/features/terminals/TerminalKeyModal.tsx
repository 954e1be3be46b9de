import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Descriptions, Flex, Modal, Typography, message } from 'antd';
import { CheckOutlined, CopyOutlined, KeyOutlined } from '@ant-design/icons';
import type { TerminalKeyAnswer } from '@geosentry/contract';

export interface TerminalKeyModalProps {
  /** The key to show (once), with the terminal's name; null when closed. */
  shown: (TerminalKeyAnswer & { name: string; rotated: boolean }) | null;
  onClose: () => void;
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API unavailable (plain http): select a temporary text area and copy.
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.appendChild(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    return ok;
  }
}

/** Shows a terminal's new key this once, with a copy button: the server keeps only a salted hash of it. */
export function TerminalKeyModal({ shown, onClose }: TerminalKeyModalProps) {
  const { t } = useTranslation('terminals');
  const [msg, msgHolder] = message.useMessage();
  const [copied, setCopied] = useState(false);

  const close = () => {
    setCopied(false);
    onClose();
  };

  return (
    <Modal
      open={shown !== null}
      width={560}
      title={
        <Flex gap={8} align="center">
          <KeyOutlined />
          {shown?.rotated ? t('key.rotatedTitle', { name: shown.name }) : t('key.title', { name: shown?.name ?? '' })}
        </Flex>
      }
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      onCancel={close}
      footer={
        <Button type="primary" data-testid="terminal-key-done" onClick={close}>
          {t('key.done')}
        </Button>
      }
    >
      {msgHolder}
      <Flex vertical gap={16} style={{ marginTop: 8 }}>
        <Alert type="warning" showIcon title={t('key.onceTitle')} description={t('key.onceContent')} />
        <Descriptions
          column={1}
          size="small"
          bordered
          items={[
            { key: 'id', label: t('key.terminalId'), children: shown?.terminalId },
            {
              key: 'key',
              label: t('key.key'),
              children: (
                <Flex gap={8} align="center" wrap={false}>
                  <Typography.Text code data-testid="terminal-key" style={{ wordBreak: 'break-all', fontSize: 13 }}>
                    {shown?.key}
                  </Typography.Text>
                  <Button
                    size="small"
                    icon={copied ? <CheckOutlined /> : <CopyOutlined />}
                    data-testid="terminal-key-copy"
                    onClick={() => {
                      if (!shown) return;
                      void copyText(shown.key).then((ok) => {
                        setCopied(ok);
                        if (ok) void msg.success(t('key.copied'));
                        else void msg.error(t('key.copyFailed'));
                      });
                    }}
                  >
                    {copied ? t('key.copiedShort') : t('key.copy')}
                  </Button>
                </Flex>
              ),
            },
          ]}
        />
        <Typography.Text type="secondary">{t('key.usage')}</Typography.Text>
      </Flex>
    </Modal>
  );
}
