// Secret: `type` defaults to Opaque.

import type { ResourceDef } from '../../../generated/api-types.ts';
import type { Strategy } from '../strategy.ts';

export function secretStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    prepareForCreate(obj) {
      base.prepareForCreate(obj);
      if (obj.type === undefined || obj.type === '') obj.type = 'Opaque';
    },
  };
}
