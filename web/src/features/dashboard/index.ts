/** Public surface of this feature: other features and the app shell import it only through this file (lint rule geosentry/feature-boundaries). */
import { lazy } from 'react';
import { loadCatalogues } from '../../shared/i18n.ts';

/** The big screen (/digitalGallery, /digitalGallery-xqh), loaded with its route and the catalogues beyond the boot ones (its `bigScreen` namespace). */
export const BigScreenPage = lazy(() =>
  Promise.all([import('./bigScreen/BigScreenPage.tsx'), loadCatalogues()]).then(([m]) => ({
    default: m.BigScreenPage,
  })),
);

/** The home screen (/home), loaded with its route (its `home` catalogue loads with the console). */
export const HomePage = lazy(() => import('./home/HomePage.tsx').then((m) => ({ default: m.HomePage })));
