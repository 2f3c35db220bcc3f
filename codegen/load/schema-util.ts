// The schema helpers codegen's loader and emitters use; they live in the
// schema module shared with the runtime (runtime/schema/util.ts).
export { isIntOrString, isObject, properties, QUANTITY, rawRef, REF_PREFIX, refName, schemaType, sortKeysDeep } from '../../runtime/schema/util.ts';
