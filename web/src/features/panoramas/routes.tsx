import { lazy } from 'react';
import type { AppRoute } from '../../app/route-types.ts';

/**
 * The hidden /vr panorama route (spec §2) and its management screen: reached from the 3D screens and from each
 * other, not from the menu. The spec gives /vr no role key: the 3D ones stand for it.
 */
export const vrRoutes: AppRoute[] = [
  {
    path: '/vr',
    titleKey: 'panoramas:view.title',
    hidden: true,
    roles: ['threeDimensional:show', 'threeDimensional:manage'],
    element: lazy(() => import('./PanoramaViewerPage.tsx')),
  },
  {
    path: '/vrManage',
    titleKey: 'panoramas:manage.title',
    hidden: true,
    roles: ['threeDimensional:manage'],
    element: lazy(() => import('./PanoramaManagePage.tsx')),
  },
];
