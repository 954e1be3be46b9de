// What other modules may use of the roles module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export {
  assertMayGrantRole,
  assertMayGrantScope,
  assertMayManageUser,
  beyond,
  roleReach,
  sameScope,
} from './roles.grants.ts';
export type { RoleReach, Scope } from './roles.grants.ts';
