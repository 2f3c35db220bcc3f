// Resource-specific strategies, looked up by group and kind. Each wraps the
// default strategy (runtime/registry/strategy.ts) and adds the rules of its
// resource; a kind without an entry gets the default behaviour.

import type { ResourceDef } from '../../../generated/api-types.ts';
import type { Strategy } from '../strategy.ts';
import { configMapStrategy } from './configmap.ts';
import { namespaceStrategy } from './namespace.ts';
import { secretStrategy } from './secret.ts';
import { serviceStrategy } from './service/strategy.ts';

export type StrategyFactory = (def: ResourceDef, base: Strategy) => Strategy;

const factories: Record<string, StrategyFactory> = {
  '/Namespace': namespaceStrategy,
  '/Secret': secretStrategy,
  '/ConfigMap': configMapStrategy,
  '/Service': serviceStrategy,
};

export function strategyFor(def: ResourceDef, base: Strategy): Strategy {
  const f = factories[`${def.group}/${def.kind}`];
  return f ? f(def, base) : base;
}
