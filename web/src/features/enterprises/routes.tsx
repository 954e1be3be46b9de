import { lazy } from 'react';
import { BankOutlined, DatabaseOutlined, GoldOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

const GeneralPage = lazy(() =>
  import('./EnterprisesPage.tsx').then((m) => ({
    default: function GeneralEnterprisesPage() {
      return <m.EnterprisesPage variant="general" />;
    },
  })),
);
const TailingsPage = lazy(() =>
  import('./EnterprisesPage.tsx').then((m) => ({
    default: function TailingsEnterprisesPage() {
      return <m.EnterprisesPage variant="tailings" />;
    },
  })),
);

/** Information > enterprise management, two variants (spec §2, §6), merged into the '/information' group. */
export const informationEnterpriseRoutes: AppRoute[] = [
  {
    path: '/information',
    titleKey: 'platforms:menu.information',
    roles: ['information'],
    icon: <DatabaseOutlined />,
    redirect: 'enterpriseManagement',
    children: [
      {
        path: 'enterpriseManagement',
        titleKey: 'enterprises:menu.general',
        roles: ['information:enterprise'],
        icon: <BankOutlined />,
        element: GeneralPage,
      },
      {
        path: 'enterpriseManagementTailings',
        titleKey: 'enterprises:menu.tailings',
        roles: ['information:enterprise:tailings'],
        icon: <GoldOutlined />,
        element: TailingsPage,
      },
    ],
  },
];
