// Conversion of objects between the versions of one resource, as a service
// the registry store calls: into the storage version before an object is
// written, and into the version of the request for every answer (get,
// list, watch events, write answers). A resource without a converter (the
// built-in kinds today) keeps the apiVersion rewrite of the HTTP layer.
// `None` only rewrites apiVersion; a webhook converter (webhook.ts) asks
// the CRD's conversion webhook. Conversions are remembered per source
// object and target version, so the watchers of one event in one version
// share a single conversion.

import type { Obj } from '../../storage/interface.ts';

export interface VersionConverter {
  /** Only apiVersion changes (None): the encoded fast paths may rewrite it on the served JSON. */
  readonly nop: boolean;
  /** The objects in `apiVersion` (group/version), in the same order; throws an ApiError when they cannot be converted. */
  convert(objs: Obj[], apiVersion: string): Promise<Obj[]>;
  /** The object in `apiVersion` at once: a converter that needs nothing outside the process (declared rules) has it. */
  convertNow?(obj: Obj, apiVersion: string): Obj;
  /** Lets go of what the converter holds (a webhook's connections). */
  close?(): void;
}

/** `None` conversion: apiVersion is rewritten, nothing else. */
export const noneConverter: VersionConverter = {
  nop: true,
  convert: (objs, apiVersion) => Promise.resolve(objs.map((o) => (o.apiVersion === apiVersion ? o : { ...o, apiVersion }))),
};

/**
 * Wraps a converter so that converting the same object (by identity) to the
 * same version again answers the first conversion: objects of the watch
 * cache are shared by every reader.
 */
export function remembering(inner: VersionConverter): VersionConverter {
  const memo = new WeakMap<Obj, Map<string, Promise<Obj>>>();
  return {
    nop: inner.nop,
    close: () => inner.close?.(),
    convert(objs, apiVersion) {
      const out: Promise<Obj>[] = [];
      const missing: { at: number; obj: Obj }[] = [];
      for (let i = 0; i < objs.length; i++) {
        const o = objs[i];
        if (o.apiVersion === apiVersion) out[i] = Promise.resolve(o);
        else {
          const known = memo.get(o)?.get(apiVersion);
          if (known) out[i] = known;
          else missing.push({ at: i, obj: o });
        }
      }
      if (missing.length) {
        const batch = inner.convert(
          missing.map((m) => m.obj),
          apiVersion,
        );
        missing.forEach((m, j) => {
          const one = batch.then((converted) => converted[j]);
          // a failed conversion is not remembered: the next reader asks again
          one.catch(() => memo.get(m.obj)?.delete(apiVersion));
          let byVersion = memo.get(m.obj);
          if (!byVersion) memo.set(m.obj, (byVersion = new Map()));
          byVersion.set(apiVersion, one);
          out[m.at] = one;
        });
      }
      return Promise.all(out);
    },
  };
}
