// The LimitRanger admission plugin, both halves as upstream's: for a Pod
// being created, the mutating half fills each container's missing requests
// and limits from the namespace's LimitRanges (`type: Container` default
// and defaultRequest) and the validating half enforces their min, max and
// maxLimitRequestRatio per container and per pod; for a
// PersistentVolumeClaim created or updated, the min and max of its storage
// request. A refusal is 403 with upstream's text. Subresources, pod updates
// and objects being deleted are not looked at.
// The LimitRanges are read as upstream reads its lister: from the watch
// cache as it stands; when that has none for the namespace, a live list,
// whose answer serves the namespace's lookups for 30 seconds (upstream's
// live lookup cache), so that a namespace without LimitRanges costs the
// store one read per 30 seconds, not one per Pod.

import { type ApiError, errors } from '../../../api/errors.ts';
import type { ApiIndex } from '../../../registry/served.ts';
import type { Obj } from '../../../storage/interface.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../../chain.ts';
import { cachedList } from '../../lister.ts';
import { aggregate, applyDefaults, claimViolations, podViolations } from './constraints.ts';

/** Where the plugin reads a namespace's LimitRanges. */
export interface LimitRangeSource {
  list(namespace: string): Promise<Obj[]>;
}

/** How long a live list of a namespace's LimitRanges is used when the cache has none (upstream's liveTTL). */
export const LIVE_LOOKUP_TTL_MS = 30_000;
/** Namespaces whose live list is kept at most (upstream's LRU holds 10000). */
const LIVE_LOOKUP_MAX = 10_000;

export function limitRangeSource(api: ApiIndex, now: () => number = Date.now): LimitRangeSource {
  const live = new Map<string, { expires: number; items: Obj[] }>();
  return {
    async list(namespace) {
      const s = api.lookup('', 'v1', 'limitranges')?.store;
      if (!s) return [];
      const cached = await cachedList(s, namespace);
      if (cached.length) return cached;
      const known = live.get(namespace);
      if (known && known.expires > now()) return known.items;
      const items = (await s.list(namespace, {})).items;
      if (live.size >= LIVE_LOOKUP_MAX) live.clear();
      live.set(namespace, { expires: now() + LIVE_LOOKUP_TTL_MS, items });
      return items;
    },
  };
}

type Kind = 'pods' | 'persistentvolumeclaims';

function kindOf(attrs: AdmissionAttributes): Kind | undefined {
  if (attrs.group !== '' || attrs.subresource !== '' || !attrs.object) return undefined;
  if (attrs.operation !== 'CREATE' && attrs.operation !== 'UPDATE') return undefined;
  if (attrs.oldObject?.metadata?.deletionTimestamp) return undefined;
  // containers cannot change after create: pod updates are not looked at
  if (attrs.resource === 'pods') return attrs.operation === 'CREATE' ? 'pods' : undefined;
  return attrs.resource === 'persistentvolumeclaims' ? 'persistentvolumeclaims' : undefined;
}

function forbidden(attrs: AdmissionAttributes, why: string): ApiError {
  const md = attrs.object?.metadata;
  return errors.forbidden({ group: attrs.group, resource: attrs.resource }, attrs.name || md?.name || md?.generateName || 'Unknown', why);
}

export function limitRangerPlugin(source: LimitRangeSource): AdmissionPlugin {
  return {
    name: 'LimitRanger',
    handles: (attrs) => kindOf(attrs) !== undefined,
    async admit(attrs) {
      if (kindOf(attrs) !== 'pods') return;
      for (const lr of await source.list(attrs.namespace)) applyDefaults(lr, attrs.object!);
    },
    async validate(attrs) {
      const kind = kindOf(attrs);
      if (!kind) return;
      for (const lr of await source.list(attrs.namespace)) {
        const why = aggregate(kind === 'pods' ? podViolations(lr, attrs.object!) : claimViolations(lr, attrs.object!));
        if (why) throw forbidden(attrs, why);
      }
    },
  };
}
