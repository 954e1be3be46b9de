/** Public surface of this feature: other features and the app shell import it only through this file (lint rule geosentry/feature-boundaries). */
import { lazy } from 'react';

// The notification screens, declared in the alert group's route table (alerts/routes.tsx); loaded with their route.
export const ContactsPage = lazy(() => import('./ContactsPage.tsx'));
export const GroupsPage = lazy(() => import('./GroupsPage.tsx'));
export const LevelsPage = lazy(() => import('./LevelsPage.tsx'));
export const TemplatesPage = lazy(() => import('./TemplatesPage.tsx'));
