// flowcontrol.apiserver.k8s.io PriorityLevelConfiguration defaults, as the
// Go defaulters of each version set them: in v1 a limited level without
// nominalConcurrencyShares gets 30 (an explicit 0 stays 0), lendablePercent
// 0, and queuing 64 queues, hand size 8, queue length limit 50; an exempt
// level gets 0 shares and 0 lendable. In v1beta3 the field is not a pointer,
// so 0 means unset and becomes 30 unless the object carries the annotation
// that asks to keep a zero: that default is declared with the version's
// conversion in its spec (x-specserver-conversions) and set before these.

import type { ResourceDef } from '../../../generated/api-types.ts';
import type { Obj } from '../../storage/interface.ts';
import type { Strategy } from '../strategy.ts';

export const DEFAULT_NOMINAL_CONCURRENCY_SHARES = 30;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function defaultPriorityLevel(obj: Obj, version: string): void {
  const spec = obj.spec;
  if (!isObj(spec)) return;
  const limited = spec.limited;
  if (isObj(limited)) {
    if (version !== 'v1beta3' && (limited.nominalConcurrencyShares === undefined || limited.nominalConcurrencyShares === null)) {
      limited.nominalConcurrencyShares = DEFAULT_NOMINAL_CONCURRENCY_SHARES;
    }
    limited.lendablePercent ??= 0;
    const queuing = limited.limitResponse?.queuing;
    if (isObj(queuing)) {
      if (!queuing.handSize) queuing.handSize = 8;
      if (!queuing.queues) queuing.queues = 64;
      if (!queuing.queueLengthLimit) queuing.queueLengthLimit = 50;
    }
  }
  const exempt = spec.exempt;
  if (isObj(exempt)) {
    exempt.nominalConcurrencyShares ??= 0;
    exempt.lendablePercent ??= 0;
  }
}

/** The version a write was sent in: the object's own apiVersion, else the stored one. */
function versionOf(obj: Obj, def: ResourceDef): string {
  const av = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const slash = av.lastIndexOf('/');
  return slash >= 0 ? av.slice(slash + 1) : def.version;
}

export function priorityLevelStrategy(def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    defaults(obj) {
      base.defaults?.(obj);
      defaultPriorityLevel(obj, versionOf(obj, def));
    },
  };
}
