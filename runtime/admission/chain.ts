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
// costs no promise per plugin. A write whose request deadline passed
// while its admission ran is refused (504) rather than stored after its
// client was answered: upstream's storage call fails on the request's
// expired context.

import type { AdmissionAttributes, AdmissionStage } from '../registry/write-services.ts';
import { isPromise } from '../api/maybe.ts';
import { errors } from '../api/errors.ts';

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

/** Told how long each plugin and each half took (the admission latency metrics). */
export interface AdmissionObserver {
  plugin(name: string, step: 'admit' | 'validate', operation: string, rejected: boolean, seconds: number): void;
  step(step: 'admit' | 'validate', operation: string, rejected: boolean, seconds: number): void;
}

/** Refuses a write whose request deadline has passed (its client was answered 504 already). */
function checkDeadline(attrs: AdmissionAttributes, now: () => number = Date.now): void {
  if (attrs.deadline !== undefined && now() >= attrs.deadline) throw errors.timeout('Timeout: request did not complete within the allotted timeout');
}

export class AdmissionChain implements AdmissionStage {
  private observer?: AdmissionObserver;

  constructor(private readonly plugins: AdmissionPlugin[] = []) {}

  add(plugin: AdmissionPlugin): void {
    this.plugins.push(plugin);
  }

  /** Times every plugin run and every half from now on. */
  observe(observer: AdmissionObserver): void {
    this.observer = observer;
  }

  /** The mutating half: every plugin's admit, in order; a second round when one asked for it. */
  async admit(attrs: AdmissionAttributes): Promise<void> {
    const ctx = (attrs.reinvocation ??= { isReinvoke: false, shouldReinvoke: false, values: new Map() });
    const observer = this.observer;
    const start = observer ? performance.now() : 0;
    let rejected = true;
    try {
      const first = this.round('admit', attrs, 0);
      if (first) await first;
      if (ctx.shouldReinvoke && !ctx.isReinvoke) {
        ctx.isReinvoke = true;
        const second = this.round('admit', attrs, 0);
        if (second) await second;
      }
      rejected = false;
    } finally {
      observer?.step('admit', attrs.operation, rejected, (performance.now() - start) / 1000);
    }
    checkDeadline(attrs);
  }

  /** The validating half: every plugin's validate, in order. */
  async validate(attrs: AdmissionAttributes): Promise<void> {
    const observer = this.observer;
    const start = observer ? performance.now() : 0;
    let rejected = true;
    try {
      const round = this.round('validate', attrs, 0);
      if (round) await round;
      rejected = false;
    } finally {
      observer?.step('validate', attrs.operation, rejected, (performance.now() - start) / 1000);
    }
    checkDeadline(attrs);
  }

  get size(): number {
    return this.plugins.length;
  }

  /**
   * One pass over the plugins from index `from` that handle the request:
   * synchronous while they answer at once; from the first that answers with
   * a promise on, the rest run after it settles (the returned promise).
   */
  private round(step: 'admit' | 'validate', attrs: AdmissionAttributes, from: number): Promise<void> | undefined {
    const plugins = this.plugins;
    for (let i = from; i < plugins.length; i++) {
      const p = plugins[i];
      if (!p[step] || (p.handles && !p.handles(attrs))) continue;
      const r = this.run(p, step, attrs);
      if (isPromise(r)) return r.then(() => this.round(step, attrs, i + 1));
    }
    return undefined;
  }

  /** One plugin's half, timed when observed (upstream times the plugins a request reaches). */
  private run(p: AdmissionPlugin, step: 'admit' | 'validate', attrs: AdmissionAttributes): void | Promise<void> {
    const observer = this.observer;
    if (!observer) return p[step]!(attrs);
    const start = performance.now();
    const done = (rejected: boolean) => observer.plugin(p.name, step, attrs.operation, rejected, (performance.now() - start) / 1000);
    let r: void | Promise<void>;
    try {
      r = p[step]!(attrs);
    } catch (err) {
      done(true);
      throw err;
    }
    if (!isPromise(r)) {
      done(false);
      return;
    }
    return r.then(
      () => done(false),
      (err: unknown) => {
        done(true);
        throw err;
      },
    );
  }
}
