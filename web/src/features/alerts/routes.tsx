import { lazy } from 'react';
import {
  AlertOutlined,
  ApartmentOutlined,
  BarChartOutlined,
  BgColorsOutlined,
  ContactsOutlined,
  FileTextOutlined,
  ProfileOutlined,
  SlidersOutlined,
  TeamOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';
import { ContactsPage, GroupsPage, LevelsPage, TemplatesPage } from '../alertNotifications/index.ts';

/**
 * The /alert screens (spec §2; role keys spec §6). alertContract and alertGroup carry no role of their own: they
 * use the parent key 'alert-predict' (the API asks alert-predict:alert-contract). The notification screens live in
 * the alertNotifications feature and are declared here so the group keeps the spec's order.
 */
export const alertRoutes: AppRoute[] = [
  {
    path: '/alert',
    titleKey: 'alerts:menu.group',
    icon: <WarningOutlined />,
    roles: ['alert-predict'],
    redirect: '/alert/alert',
    children: [
      {
        path: 'alert',
        titleKey: 'alerts:list.title',
        icon: <AlertOutlined />,
        roles: ['alert-predict:alert'],
        element: lazy(() => import('./AlertsPage.tsx')),
      },
      {
        path: 'alertReport',
        titleKey: 'alerts:report.title',
        icon: <BarChartOutlined />,
        roles: ['alert-predict:report'],
        element: lazy(() => import('./AlertReportPage.tsx')),
      },
      {
        path: 'setalert',
        titleKey: 'alerts:rules.title',
        icon: <SlidersOutlined />,
        roles: ['alert-predict:alert-value'],
        element: lazy(() => import('./AlertValuesPage.tsx')),
      },
      {
        path: 'alertRelation',
        titleKey: 'alerts:relations.title',
        icon: <ApartmentOutlined />,
        roles: ['alert-predict:alert-value'],
        element: lazy(() => import('./AlertRelationPage.tsx')),
      },
      {
        path: 'criteria',
        titleKey: 'alerts:criteria.title',
        icon: <ProfileOutlined />,
        roles: ['alert-predict:alert-value'],
        element: lazy(() => import('./CriteriaPage.tsx')),
      },
      {
        path: 'alertContract',
        titleKey: 'alertNotifications:contacts.title',
        icon: <ContactsOutlined />,
        // The spec gives contacts and groups no key of their own; their API asks for alert-contract.
        roles: ['alert-predict:alert-contract'],
        element: ContactsPage,
      },
      {
        path: 'alertGroup',
        titleKey: 'alertNotifications:groups.title',
        icon: <TeamOutlined />,
        roles: ['alert-predict:alert-contract'],
        element: GroupsPage,
      },
      {
        path: 'AlertConfigure',
        titleKey: 'alertNotifications:levels.title',
        icon: <BgColorsOutlined />,
        roles: ['alert-predict:alert-setting'],
        element: LevelsPage,
      },
      {
        path: 'AlertTemplate',
        titleKey: 'alertNotifications:templates.title',
        icon: <FileTextOutlined />,
        roles: ['alert-predict:alert-template'],
        element: TemplatesPage,
      },
    ],
  },
];
