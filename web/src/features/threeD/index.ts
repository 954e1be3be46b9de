/** Public surface of this feature: other features and the app shell import it only through this file (lint rule geosentry/feature-boundaries). */
export { threeDRoutes } from './routes.tsx';
export { ThreeDLink } from './ThreeDLink.tsx';
export { deviceColour, mainValueText } from './deviceLook.ts';
export { uploadForm } from './threeDApi.ts';
