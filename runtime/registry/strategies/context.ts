// What the binding of a store tells a kind's strategy beyond its
// ResourceDef: for a resource served in several versions of different
// shapes, how an object of any of them looks in the stored version (a
// strategy whose rules read the stored shape, as upstream's read the
// internal object, uses it: Event, HorizontalPodAutoscaler); and the
// server's feature gates, for rules a gate changes.

import type { FeatureGates } from '../../features/feature-gates.ts';
import type { Obj } from '../../storage/interface.ts';

export interface StrategyContext {
  /** The object (not changed) in the storage version's shape; absent when the versions share one shape. */
  toStorage?: (obj: Obj) => Obj;
  /** The server's feature gates; absent: every gate at its default. */
  features?: Pick<FeatureGates, 'enabled'>;
}
