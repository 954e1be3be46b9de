// What other modules may use of the imageComparison module.
export { registerImageComparison } from './imageComparison.routes.ts';
