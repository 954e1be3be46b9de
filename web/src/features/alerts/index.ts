/** Public surface of this feature: other features and the app shell import it only through this file (lint rule geosentry/feature-boundaries). */
export { alertRoutes } from './routes.tsx';
export { AlertPopup } from './AlertPopup.tsx';
export { fmtTime, levelHex, levelInk, LevelTag, StatusTag } from './alertUi.tsx';
