import {
  CAMERA_SORT_FIELDS,
  cameraListQuery,
  cameraRoutes,
  cameraTaskListQuery,
  rolesRoutes,
  snapshotQuery,
  type CameraTaskKind,
  type LiveQuality,
} from '@geosentry/contract';
import type { z } from 'zod';
import { call } from '../../shared/api.ts';
import { change, picker } from '../../shared/query.ts';

export { CAMERA_SORT_FIELDS };

export type CameraListParams = z.output<typeof cameraListQuery>;
export type TaskListParams = z.output<typeof cameraTaskListQuery>;
export type SnapshotParams = z.output<typeof snapshotQuery>;

export const cameraKeys = {
  all: ['cameras'] as const,
  tree: ['cameras', 'tree'] as const,
  list: (p: CameraListParams) => ['cameras', 'list', p] as const,
  tasks: (p: TaskListParams) => ['cameras', 'tasks', p] as const,
  snapshots: (p: Partial<SnapshotParams>) => ['cameras', 'snapshots', p] as const,
  roles: ['cameras', 'roles'] as const,
  roleConfig: (roleId: number) => ['cameras', 'roleConfig', roleId] as const,
  presets: (cameraId: number) => ['cameras', 'presets', cameraId] as const,
};

export const fetchGroupTree = () => call(cameraRoutes.groupTree, {}, picker);
export const addGroup = (name: string, parentId?: number) =>
  call(cameraRoutes.groupAdd, { name, ...(parentId ? { parentId } : {}) }, change);
export const editGroup = (id: number, name: string) => call(cameraRoutes.groupEdit, { id, name }, change);
export const deleteGroup = (id: number) => call(cameraRoutes.groupDelete, { id }, change);

export const fetchCameras = (p: Partial<CameraListParams>) => call(cameraRoutes.list, { ...p }, picker);
export type CameraForm = z.input<typeof cameraRoutes.add.body>;
export const addCamera = (v: CameraForm) => call(cameraRoutes.add, v, change);
export const editCamera = (id: number, v: CameraForm) => call(cameraRoutes.edit, { id, ...v }, change);
export const deleteCamera = (id: number) => call(cameraRoutes.delete, { id }, change);

export const fetchRoles = () => call(rolesRoutes.all, {}, picker);
export const fetchRoleConfig = (roleId: number) => call(cameraRoutes.roleConfig, { roleId }, picker);
export const saveRoleConfig = (roleId: number, restricted: boolean, groupIds: number[], cameraIds: number[]) =>
  call(
    cameraRoutes.roleSetConfig,
    { roleId, restricted, groupIds: groupIds.join(','), cameraIds: cameraIds.join(',') },
    change,
  );

// Live streams: many tiles open at once, so no call cancels another.
export const openLive = (cameraId: number, quality: LiveQuality = 'main') =>
  call(cameraRoutes.liveOpen, { cameraId, quality }, { ...change, silent: true });
export const closeLive = (streamId: string) => call(cameraRoutes.liveClose, { streamId }, { ...change, silent: true });
export const liveStatus = (streamId: string) =>
  call(cameraRoutes.liveStatus, { streamId }, { ...change, silent: true });

export const ptzMove = (cameraId: number, direction: string, speed: string) =>
  call(cameraRoutes.ptzMove, { cameraId, direction, speed } as never, change);
export const ptzStop = (cameraId: number) => call(cameraRoutes.ptzStop, { cameraId }, change);
export const fetchPresets = (cameraId: number) => call(cameraRoutes.ptzPresets, { cameraId }, picker);
export const gotoPreset = (cameraId: number, presetToken: string, speed: string) =>
  call(cameraRoutes.ptzGoto, { cameraId, presetToken, speed } as never, change);

export const fetchTasks = (p: TaskListParams) => call(cameraRoutes.taskList, { ...p });
export type TaskForm = {
  name: string;
  cameraIds: number[];
  times: string[];
  retentionDays: number;
  enabled: boolean;
  kind: CameraTaskKind;
  /** Seconds a recording lasts (sent for a recording only). */
  durationSec?: number | undefined;
};
const taskBody = (v: TaskForm) => ({
  name: v.name.trim(),
  cameraIds: v.cameraIds.join(','),
  times: v.times.join(','),
  retentionDays: v.retentionDays,
  enabled: v.enabled,
  kind: v.kind,
  ...(v.kind === 'recording' ? { durationSec: v.durationSec } : {}),
});
export const addTask = (v: TaskForm) => call(cameraRoutes.taskAdd, taskBody(v), change);
export const editTask = (id: number, v: TaskForm) => call(cameraRoutes.taskEdit, { id, ...taskBody(v) }, change);
export const deleteTask = (id: number) => call(cameraRoutes.taskDelete, { id }, change);

export const fetchSnapshots = (p: Partial<SnapshotParams>) => call(cameraRoutes.snapshotList, { ...p }, picker);
export const takeSnapshot = (cameraId: number) => call(cameraRoutes.snapshotTake, { cameraId }, change);
/** The address of a snapshot's JPEG or clip (<img src>, <video src>: the token in the query, as downloads do). */
export const snapshotHref = (id: number, token: string | null): string =>
  `${cameraRoutes.snapshotFile.path}?id=${id}&token=${encodeURIComponent(token ?? '')}`;
