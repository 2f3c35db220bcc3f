// A server's feature gates from its start options (--feature-gates), and
// upstream's start-up refusals of flags their gates switch off:
// --authentication-config needs StructuredAuthenticationConfiguration and
// --authorization-config needs StructuredAuthorizationConfiguration.

import { FeatureGateError, FeatureGates, featureGatesFromFlag } from '../features/feature-gates.ts';

export interface FeatureGateOptions {
  featureGates?: string | Record<string, boolean>;
  authenticationConfig?: string;
  authorizationConfig?: string;
}

/** The gates of these options; throws FeatureGateError as kube-apiserver refuses them at start-up. */
export function serverFeatureGates(o: FeatureGateOptions): FeatureGates {
  const gates = typeof o.featureGates === 'object' ? new FeatureGates(o.featureGates) : featureGatesFromFlag(o.featureGates);
  if (o.authenticationConfig && !gates.enabled('StructuredAuthenticationConfiguration')) {
    throw new FeatureGateError('set --feature-gates=StructuredAuthenticationConfiguration=true to use authentication-config file');
  }
  if (o.authorizationConfig && !gates.enabled('StructuredAuthorizationConfiguration')) {
    throw new FeatureGateError('--authorization-config cannot be used without enabling StructuredAuthorizationConfiguration feature flag');
  }
  return gates;
}
