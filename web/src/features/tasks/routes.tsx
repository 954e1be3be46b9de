import { lazy } from 'react';
import {
  AuditOutlined,
  BarChartOutlined,
  HistoryOutlined,
  InboxOutlined,
  ScheduleOutlined,
  SearchOutlined,
  SendOutlined,
} from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

const R = 'task:receivetask';
const A = 'task:assignedtask';
const V = 'task:reviewtask';
const list = lazy(() => import('./TaskListPage.tsx').then((m) => ({ default: m.ReceivedTasksPage })));
const assigned = lazy(() => import('./TaskListPage.tsx').then((m) => ({ default: m.AssignedTasksPage })));
const review = lazy(() => import('./TaskListPage.tsx').then((m) => ({ default: m.ReviewTasksPage })));
const query = lazy(() => import('./TaskListPage.tsx').then((m) => ({ default: m.TaskQueryPage })));
const detail = lazy(() => import('./TaskDetailPage.tsx'));

/**
 * /task (spec §2): my tasks (receivetask, default), assigned tasks, tasks to review; task query, task evaluation and
 * daily history; hidden: createtask and basicinfo (basicinfo1 from assigned tasks, basicinfo2 from review).
 */
export const taskRoutes: AppRoute[] = [
  {
    path: '/task',
    titleKey: 'tasks:menu',
    icon: <ScheduleOutlined />,
    roles: ['task'],
    redirect: '/task/receivetask',
    children: [
      { path: 'receivetask', titleKey: 'tasks:screens.receive', icon: <InboxOutlined />, roles: [R], element: list },
      {
        path: 'assignedtask',
        titleKey: 'tasks:screens.assigned',
        icon: <SendOutlined />,
        roles: [A],
        element: assigned,
      },
      { path: 'reviewtask', titleKey: 'tasks:screens.review', icon: <AuditOutlined />, roles: [V], element: review },
      {
        path: 'taskQuery',
        titleKey: 'tasks:screens.query',
        icon: <SearchOutlined />,
        roles: [R, A, V],
        element: query,
      },
      {
        path: 'taskEvaluation',
        titleKey: 'tasks:screens.evaluation',
        icon: <BarChartOutlined />,
        roles: [R, A, V],
        element: lazy(() => import('./TaskEvaluationPage.tsx')),
      },
      {
        path: 'dailyHistory',
        titleKey: 'tasks:screens.history',
        icon: <HistoryOutlined />,
        roles: [R, A, V],
        element: lazy(() => import('./DailyHistoryPage.tsx')),
      },
      {
        path: 'createtask',
        titleKey: 'tasks:screens.create',
        hidden: true,
        noCache: true,
        roles: [A],
        element: lazy(() => import('./TaskFormPage.tsx')),
      },
      {
        path: 'basicinfo',
        titleKey: 'tasks:screens.detail',
        hidden: true,
        noCache: true,
        roles: [R, A, V],
        element: detail,
      },
      {
        path: 'basicinfo1',
        titleKey: 'tasks:screens.detail',
        hidden: true,
        noCache: true,
        roles: [A],
        element: detail,
      },
      {
        path: 'basicinfo2',
        titleKey: 'tasks:screens.detail',
        hidden: true,
        noCache: true,
        roles: [V],
        element: detail,
      },
    ],
  },
];
