// Admission: the stage between authorization and storage where plugins may
// mutate and validate an object about to be written. The two halves run at
// different places of the registry's write pipeline: mutating admission
// before the strategy prepares and validates the object, validating
// admission after, on the object as it will be stored. Plugins are
// registered at start-up; each half runs them in order, and a refusal is
// the Status error the plugin chose. When a plugin asks for reinvocation
// (a mutating webhook changed the object) the mutating half runs once more,
// as upstream's reinvoker does; plugins are idempotent. A plugin may say
// which requests it handles (upstream's Handles, here on the whole request):
// the chain skips it for the others without calling it, and awaits only
// plugins that answer with a promise, so that a write no plugin is about
// costs no promise per plugin.

import type { AdmissionAttributes, AdmissionStage } from '../registry/write-services.ts';
import { isPromise } from '../api/maybe.ts';

export type { AdmissionAttributes };

export interface AdmissionPlugin {
  name: string;
  /** Whether admit or validate could do anything for this request (false: neither is called); absent: every request. */
  handles?(attrs: AdmissionAttributes): boolean;
  /** May change attrs.object in place. */
  admit?(attrs: AdmissionAttributes): void | Promise<void>;
  /** Throws an ApiError to refuse. */
  validate?(attrs: AdmissionAttributes): void | Promise<void>;
}

export class AdmissionChain implements AdmissionStage {
  constructor(private readonly plugins: AdmissionPlugin[] = []) {}

  add(plugin: AdmissionPlugin): void {
    this.plugins.push(plugin);
  }

  /** The mutating half: every plugin's admit, in order; a second round when one asked for it. */
  async admit(attrs: AdmissionAttributes): Promise<void> {
    const ctx = (attrs.reinvocation ??= { isReinvoke: false, shouldReinvoke: false, values: new Map() });
    await this.admitRound(attrs);
    if (!ctx.shouldReinvoke || ctx.isReinvoke) return;
    ctx.isReinvoke = true;
    await this.admitRound(attrs);
  }

  private async admitRound(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) {
      if (!p.admit || (p.handles && !p.handles(attrs))) continue;
      const r = p.admit(attrs);
      if (isPromise(r)) await r;
    }
  }

  /** The validating half: every plugin's validate, in order. */
  async validate(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) {
      if (!p.validate || (p.handles && !p.handles(attrs))) continue;
      const r = p.validate(attrs);
      if (isPromise(r)) await r;
    }
  }

  get size(): number {
    return this.plugins.length;
  }
}
