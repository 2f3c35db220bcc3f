// The versions one object has a form in, as the ownership engine sees them:
// each manager's field set is recorded in the apiVersion it wrote through,
// so comparing a write against that set (conflicts, fields it removed,
// pruning a last applied configuration) needs the object in that version,
// typed by that version's schema (structured-merge-diff's version converter).
// A version the object has no form in (not served, unknown) is read in the
// writer's version, as if the sets shared its field paths.
// Boundary: the conversion itself is the caller's (ObjectVersions); this
// module only resolves forms and converts between them.
import type { TypeRef } from '../../../generated/api-types.ts';
import type { SchemaView } from '../schema/resolve.ts';
import type { Obj } from '../value/json.ts';

/** How the caller converts the objects of one resource between its versions. */
export interface ObjectVersions {
  /** The merge-schema type of the object in `apiVersion`; undefined when it has no form there. */
  typeName(apiVersion: string): string | undefined;
  /** `obj` (in `from`, not changed) in `to`. */
  convert(obj: Obj, from: string, to: string): Obj;
}

/** One version's form: its apiVersion and the type of the object there. */
export interface VersionForm {
  version: string;
  ref: TypeRef;
}

/** The forms an updater compares in: its own (the writer's) and, given ObjectVersions, the other versions'. */
export class VersionForms {
  readonly own: VersionForm;
  private readonly others = new Map<string, VersionForm>();

  constructor(
    private readonly view: SchemaView,
    own: VersionForm,
    private readonly versions?: ObjectVersions,
  ) {
    this.own = own;
  }

  /** The form of `apiVersion`: the writer's own for its version and for a version without a form. */
  of(apiVersion: string): VersionForm {
    if (!this.versions || apiVersion === this.own.version) return this.own;
    let f = this.others.get(apiVersion);
    if (!f) {
      const name = this.versions.typeName(apiVersion);
      f = name !== undefined && this.view.hasType(name) ? { version: apiVersion, ref: { named: name } } : this.own;
      this.others.set(apiVersion, f);
    }
    return f;
  }

  /** `obj` of form `from` in form `to` (the same object when they are one form). */
  convert(obj: Obj, from: VersionForm, to: VersionForm): Obj {
    if (from === to || !this.versions) return obj;
    return this.versions.convert(obj, from.version, to.version);
  }
}
