// Server-side apply and managedFields: the public API of runtime/apply.
// FieldManager maintains metadata.managedFields on every write and performs
// apply-patch merges with conflict detection. Callers that need field sets
// or managedFields codecs import the module that defines them.
// Boundary: no HTTP, storage or admission; callers pass plain JSON objects.
export { FieldManager, FieldManagerError, type FieldManagerOptions } from './manager/field-manager.ts';
export { ApplyConflictError } from './merge/conflicts.ts';
export type { ObjectVersions } from './merge/versions.ts';
export { managerFromUserAgent } from './manager/user-agent.ts';
export type { Obj } from './value/json.ts';
