import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { App, Button, Popconfirm, Tooltip } from 'antd';

export interface DeleteActionProps {
  /** Confirmation title, e.g. t('confirm.deleteTitle', { name }). */
  title: ReactNode;
  description?: ReactNode;
  /** The delete call; a rejection is shown by the API layer and leaves the row. */
  onDelete: () => Promise<unknown>;
  /** Shown after a delete (e.g. t('messages.deleted')). */
  success: string;
  /** After a delete: refetch the list, and go back a page when it emptied the last one (table.afterDelete). */
  onDone: () => unknown;
  /** Button text (default: common "Delete"). */
  label?: ReactNode;
  /** Disabled, with this reason as tooltip. */
  disabledReason?: ReactNode;
  'data-testid'?: string;
}

/**
 * The Delete link of a table row: asks to confirm, calls the server, says it is done and refreshes the list.
 *   <DeleteAction title={t('confirm.deleteTitle', { name: row.name })} onDelete={() => deleteRole(row.id)}
 *     success={t('messages.deleted')} onDone={() => { table.afterDelete(rows.length); void refresh(); }} />
 * The confirm button carries data-testid `${data-testid}-confirm`.
 */
export function DeleteAction({
  title,
  description,
  onDelete,
  success,
  onDone,
  label,
  disabledReason,
  'data-testid': testId,
}: DeleteActionProps) {
  const { t } = useTranslation('common');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const text = label ?? t('table.delete');
  if (disabledReason)
    return (
      <Tooltip title={disabledReason}>
        <Button type="link" size="small" danger disabled data-testid={testId}>
          {text}
        </Button>
      </Tooltip>
    );
  return (
    <Popconfirm
      title={title}
      description={description}
      okText={text}
      okButtonProps={{ danger: true, loading: busy, ...(testId ? { 'data-testid': `${testId}-confirm` } : {}) }}
      cancelText={t('table.cancel')}
      onConfirm={async () => {
        setBusy(true);
        try {
          await onDelete();
          void message.success(success);
          onDone();
        } catch {
          // The API layer has shown the error.
        } finally {
          setBusy(false);
        }
      }}
    >
      <Button type="link" size="small" danger data-testid={testId}>
        {text}
      </Button>
    </Popconfirm>
  );
}
