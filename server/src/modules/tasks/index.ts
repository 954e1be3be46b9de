// What other modules and app.ts may use of the tasks module (see server/src/platform/imports.unit.test.ts).
export { registerTasks } from './tasks.routes.ts';
export { TasksService, type TaskAlert, type TasksDeps } from './tasks.service.ts';
