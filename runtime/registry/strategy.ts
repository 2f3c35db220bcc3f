// Per-resource behaviour of the generic registry store, as small hooks in the
// manner of k8s.io/apiserver's RESTCreateStrategy/RESTUpdateStrategy:
// prepare (clear or carry over fields), validate, canonicalize, warnings.
// defaultStrategy() gives every resource the common rules (metadata, status
// split, and metadata.generation as the kind's rule in generation.ts);
// resource-specific strategies (runtime/registry/strategies/*) wrap it and
// are looked up by group and kind.

import type { ResourceDef } from '../../generated/api-types.ts';
import type { Obj } from '../storage/interface.ts';
import { type FieldError, fieldErrors } from '../api/field-errors.ts';
import { validateName } from '../api/validation.ts';
import { validateObjectMetaUpdate } from './metadata.ts';
import { generationOnCreate, generationOnUpdate, generationRule } from './generation.ts';

export interface Strategy {
  /**
   * What upstream's Go defaulters set (and the v1 decoding's conversions):
   * applied to every object a write decodes, with the spec's declared
   * defaults and before field ownership and admission, so the writer owns
   * them. Must be idempotent (it also runs on objects already defaulted).
   */
  defaults?(obj: Obj): void;
  /**
   * Loads what this kind's hooks need and start-up should not (a CRD's rules
   * need the CEL module); awaited before the defaults of every write.
   */
  load?(): Promise<void>;
  /** Called on create before validation: clear status and server-owned fields. */
  prepareForCreate(obj: Obj): void;
  /** Called on update of the main resource: carry over what it may not change. */
  prepareForUpdate(obj: Obj, old: Obj): void;
  validate(obj: Obj): FieldError[];
  validateUpdate(obj: Obj, old: Obj): FieldError[];
  /**
   * An update runs validateUpdate() alone (upstream's ValidateUpdate of a kind
   * whose create rules do not hold on update: Event); without it an update
   * runs validate() too, each error reported once.
   */
  updateRulesOnly?: boolean;
  /**
   * Fields the schema marks required that validate()/validateUpdate() check
   * themselves, with their own text (kube-apiserver has no schema check for
   * built-in kinds: its validation functions give the texts). Paths as the
   * schema check reports them, with `[*]` for any list index
   * (`webhooks[*].sideEffects`); the schema check leaves an absent one to
   * the strategy.
   */
  reportsRequired?: ReadonlySet<string>;
  /** Normalise the object before it is stored. */
  canonicalize(obj: Obj): void;
  warningsOnCreate(obj: Obj): string[];
  warningsOnUpdate(obj: Obj, old: Obj): string[];
  allowCreateOnUpdate: boolean;
  /**
   * Top-level fields that writes of the main resource cannot change (the
   * strategy resets them: `status` when there is a status subresource); no
   * writer ever owns them through the main resource (upstream's
   * GetResetFields).
   */
  resetFields: string[];
  /** An update without metadata.resourceVersion is accepted (last write wins). */
  allowUnconditionalUpdate: boolean;
  /** Subresource strategies of this kind, added to or replacing the generic ones (namespaces/finalize, a kind's status rules). */
  subresources?: Record<string, SubresourceStrategy>;
  /** Finalizers outside metadata.finalizers that keep an object being deleted (a namespace's spec.finalizers). */
  hasPendingFinalizers?(obj: Obj): boolean;
  /**
   * Called on a copy of the live object when a delete marks it for deletion
   * (deletionTimestamp set, finalizers pending); may change it (a namespace
   * turns Terminating) or throw an ApiError to refuse.
   */
  prepareForGracefulDelete?(obj: Obj, alreadyDeleting: boolean): void;
  /** Called with the live object before every delete (graceful or not, dry runs too); throws an ApiError to refuse. */
  validateDelete?(live: Obj): void;
  /**
   * Reserves what a main-resource write needs (cluster IPs, node ports) once
   * the object is valid; may fill fields of obj and throw an ApiError (422).
   * The store commits the reservation after the write is stored and rolls it
   * back when the write fails, is retried, or is a dry run.
   */
  allocate?(obj: Obj, old: Obj | null, ctx: { dryRun: boolean }): Allocation | undefined | Promise<Allocation | undefined>;
  /** Called after an object is gone from storage (release what it held). */
  afterDelete?(obj: Obj): void | Promise<void>;
}

/** A reservation made by Strategy.allocate. */
export interface Allocation {
  /** The write is stored: keep what was reserved and release what the old object held and the new one does not. */
  commit(stored: Obj): void | Promise<void>;
  /** The write did not happen: give back what was reserved. */
  rollback(): void | Promise<void>;
}

/** The strategy for writes through a subresource such as status. */
export interface SubresourceStrategy {
  /** Top-level fields that writes through this subresource cannot change, so never own (see Strategy.resetFields). */
  resetFields: string[];
  /** Build what is stored from the request's object and the live one. */
  prepareForUpdate(obj: Obj, old: Obj): void;
  validateUpdate(obj: Obj, old: Obj): FieldError[];
}

export function hasStatus(def: ResourceDef): boolean {
  return def.subresources.some((s) => s.name === 'status');
}

export function defaultStrategy(def: ResourceDef): Strategy {
  const withStatus = hasStatus(def);
  const generation = generationRule(def);
  return {
    allowCreateOnUpdate: def.allowCreateOnUpdate,
    resetFields: withStatus ? ['status'] : [],
    allowUnconditionalUpdate: true,
    prepareForCreate(obj) {
      if (withStatus) delete obj.status;
      generationOnCreate(generation, obj);
    },
    prepareForUpdate(obj, old) {
      if (withStatus) {
        if (old.status === undefined) delete obj.status;
        else obj.status = old.status;
      }
      generationOnUpdate(generation, obj, old);
    },
    validate(obj) {
      const errs: FieldError[] = [];
      const name: string | undefined = obj.metadata?.name;
      if (name) {
        for (const msg of validateName(def.nameRule, name)) errs.push(fieldErrors.invalid('metadata.name', name, msg));
      }
      return errs;
    },
    validateUpdate(obj, old) {
      return validateObjectMetaUpdate(obj.metadata ?? {}, old.metadata ?? {});
    },
    canonicalize() {},
    warningsOnCreate() {
      return [];
    },
    warningsOnUpdate() {
      return [];
    },
  };
}

/**
 * The scale subresource: the handler builds the whole object from the live
 * one; only the replica count differs. Upstream writes it through the
 * kind's own update, so the kind's generation rule applies.
 */
export function scaleStrategy(def: ResourceDef): SubresourceStrategy {
  const generation = generationRule(def);
  return {
    resetFields: [],
    prepareForUpdate(obj, old) {
      generationOnUpdate(generation, obj, old);
    },
    validateUpdate() {
      return [];
    },
  };
}

/** What a status write cannot change: everything but status. */
export const STATUS_RESET_FIELDS = ['spec', 'metadata'];

/** The status subresource: only status changes; everything else stays as stored. */
export function statusStrategy(): SubresourceStrategy {
  return {
    resetFields: STATUS_RESET_FIELDS,
    prepareForUpdate(obj, old) {
      const status = obj.status;
      const managedFields = obj.metadata?.managedFields;
      for (const k of Object.keys(obj)) delete obj[k];
      Object.assign(obj, structuredClone(old));
      if (status === undefined) delete obj.status;
      else obj.status = status;
      // field ownership is the field manager's, computed for this write
      if (managedFields === undefined) delete obj.metadata.managedFields;
      else obj.metadata.managedFields = managedFields;
    },
    validateUpdate() {
      return [];
    },
  };
}
