import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Button, Card, Flex, List, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { mayUse, readCurrentUser } from '../../shared/currentUser.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { formatTime } from '../../shared/time.ts';
import { fetchAlertTasks, taskKeys, taskPaths } from './tasksApi.ts';
import { StatusTag } from './TaskParts.tsx';

/** On an alert's record: its tasks with their status, and "create task" (prefilled from the alert). */
export function AlertTasks({ alertId }: { alertId: number }) {
  const { t } = useTranslation('tasks');
  const navigate = useNavigate();
  const user = readCurrentUser();
  const canSee = ['task:receivetask', 'task:assignedtask', 'task:reviewtask', 'alert-predict:alert'].some((c) =>
    mayUse(user, c),
  );
  const q = useQuery({
    queryKey: taskKeys.byAlert(alertId),
    queryFn: () => fetchAlertTasks(alertId),
    enabled: canSee && alertId > 0,
    retry: retryUnlessCancelled,
  });
  return (
    <Card
      size="small"
      title={t('alert.title')}
      data-testid="alert-tasks"
      extra={
        mayUse(user, 'task:assignedtask') ? (
          <Button
            size="small"
            type="primary"
            icon={<PlusOutlined />}
            data-testid="alert-create-task"
            onClick={() => void navigate(taskPaths.create(alertId))}
          >
            {t('actions.create')}
          </Button>
        ) : null
      }
    >
      <List
        size="small"
        locale={{ emptyText: t('alert.none') }}
        dataSource={q.data ?? []}
        renderItem={(task) => (
          <List.Item data-testid="alert-task">
            <Flex justify="space-between" style={{ width: '100%' }} gap={8}>
              <Typography.Link onClick={() => void navigate(taskPaths.detail(task.id))}>{task.name}</Typography.Link>
              <Flex gap={8} align="center">
                <Typography.Text type="secondary">
                  {task.assignee} · {formatTime(task.endTime)}
                </Typography.Text>
                <StatusTag status={task.status} />
              </Flex>
            </Flex>
          </List.Item>
        )}
      />
    </Card>
  );
}
