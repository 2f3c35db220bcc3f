// Kubernetes version-string rules for the loader; they live in the schema
// module shared with the runtime (runtime/schema/versions.ts).
export { compareVersionPriority, defaultEnabled, stabilityOf } from '../../runtime/schema/versions.ts';
