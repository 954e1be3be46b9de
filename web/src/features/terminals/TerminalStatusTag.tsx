import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TerminalStatus } from '@geosentry/contract';

const COLORS: Record<TerminalStatus, string> = { normal: 'green', vibration: 'orange', collapse: 'red' };

/** A terminal's status (spec §4): normal, vibration, collapse. */
export function TerminalStatusTag({ status }: { status: TerminalStatus }) {
  const { t } = useTranslation('terminals');
  return (
    <Tag color={COLORS[status]} data-status={status}>
      {t(`status.${status}`)}
    </Tag>
  );
}
