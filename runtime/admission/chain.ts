// Admission: the stage between authorization and storage where plugins may
// mutate and validate an object about to be written. The two halves run at
// different places of the registry's write pipeline: mutating admission
// before the strategy prepares and validates the object, validating
// admission after, on the object as it will be stored. Plugins are
// registered at start-up; each half runs them in order, and a refusal is
// the Status error the plugin chose. When a plugin asks for reinvocation
// (a mutating webhook changed the object) the mutating half runs once more,
// as upstream's reinvoker does; plugins are idempotent. A write whose
// request deadline passed while its admission ran is refused (504) rather
// than stored after its client was answered: upstream's storage call fails
// on the request's expired context.

import type { AdmissionAttributes, AdmissionStage } from '../registry/write-services.ts';
import { errors } from '../api/errors.ts';

export type { AdmissionAttributes };

export interface AdmissionPlugin {
  name: string;
  /** May change attrs.object in place. */
  admit?(attrs: AdmissionAttributes): void | Promise<void>;
  /** Throws an ApiError to refuse. */
  validate?(attrs: AdmissionAttributes): void | Promise<void>;
}

/** Refuses a write whose request deadline has passed (its client was answered 504 already). */
function checkDeadline(attrs: AdmissionAttributes, now: () => number = Date.now): void {
  if (attrs.deadline !== undefined && now() >= attrs.deadline) throw errors.timeout('Timeout: request did not complete within the allotted timeout');
}

export class AdmissionChain implements AdmissionStage {
  constructor(private readonly plugins: AdmissionPlugin[] = []) {}

  add(plugin: AdmissionPlugin): void {
    this.plugins.push(plugin);
  }

  /** The mutating half: every plugin's admit, in order; a second round when one asked for it. */
  async admit(attrs: AdmissionAttributes): Promise<void> {
    const ctx = (attrs.reinvocation ??= { isReinvoke: false, shouldReinvoke: false, values: new Map() });
    for (const p of this.plugins) if (p.admit) await p.admit(attrs);
    if (ctx.shouldReinvoke && !ctx.isReinvoke) {
      ctx.isReinvoke = true;
      for (const p of this.plugins) if (p.admit) await p.admit(attrs);
    }
    checkDeadline(attrs);
  }

  /** The validating half: every plugin's validate, in order. */
  async validate(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) if (p.validate) await p.validate(attrs);
    checkDeadline(attrs);
  }

  get size(): number {
    return this.plugins.length;
  }
}
