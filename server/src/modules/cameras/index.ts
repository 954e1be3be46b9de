// What other modules may use of the cameras module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { registerCameras, type CamerasModule } from './cameras.routes.ts';
export { siteSnapshots, snapshotPicture, type SitePictureSnapshot } from './cameras.pictures.ts';
