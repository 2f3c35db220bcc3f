// LimitRange defaults, as upstream's SetDefaults_LimitRangeItem: a
// `type: Container` item's default limit is its max where unset, its
// default request is its default limit, else its min, where unset (an
// empty result is left out, as Go's empty maps are omitted).

import type { ResourceDef } from '../../../generated/api-types.ts';
import type { Obj } from '../../storage/interface.ts';
import type { Strategy } from '../strategy.ts';

export function defaultLimitRangeItem(item: Obj): void {
  if (!item || typeof item !== 'object' || item.type !== 'Container') return;
  const def: Obj = { ...(item.default ?? {}) };
  const req: Obj = { ...(item.defaultRequest ?? {}) };
  for (const [k, v] of Object.entries(item.max ?? {})) if (!(k in def)) def[k] = v;
  for (const [k, v] of Object.entries(def)) if (!(k in req)) req[k] = v;
  for (const [k, v] of Object.entries(item.min ?? {})) if (!(k in req)) req[k] = v;
  if (Object.keys(def).length) item.default = def;
  if (Object.keys(req).length) item.defaultRequest = req;
}

export function limitRangeStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    defaults(obj) {
      base.defaults?.(obj);
      if (Array.isArray(obj.spec?.limits)) for (const item of obj.spec.limits) defaultLimitRangeItem(item);
    },
  };
}
