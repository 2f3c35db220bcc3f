// Server-side apply and managedFields: the public API of runtime/apply.
// FieldManager maintains metadata.managedFields on every write and performs
// apply-patch merges with conflict detection; the rest is exported for tests,
// tools and callers that need field sets directly.
// Boundary: no HTTP, storage or admission; callers pass plain JSON objects.
export {
  FieldManager, FieldManagerError,
  type FieldManagerOptions, type WriteOptions, type ApplyOptions,
} from './manager/field-manager.ts';
export { ApplyConflictError, printManager } from './merge/conflicts.ts';
export { managerFromUserAgent } from './manager/user-agent.ts';
export {
  decodeManagedFields, encodeManagedFields, managerIdentifier, isResetManagedFields, ManagedFieldsError,
} from './manager/managed-fields.ts';
export { LAST_APPLIED, BEFORE_FIRST_APPLY, ANCIENT_CHANGES, MAX_UPDATE_MANAGERS } from './manager/layers.ts';
export { FieldSet } from './fieldpath/set.ts';
export { setToFieldsV1, fieldsV1ToSet } from './fieldpath/serialize.ts';
export { pathToString, fieldPath } from './fieldpath/element.ts';
export type { Obj } from './value/json.ts';
