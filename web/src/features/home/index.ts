/** Public surface of this feature: other features and the app shell import it only through this file (lint rule geosentry/feature-boundaries). */
import { lazy } from 'react';

/** The home screen, loaded with its route. */
export const HomePage = lazy(() => import('./HomePage.tsx').then((m) => ({ default: m.HomePage })));
