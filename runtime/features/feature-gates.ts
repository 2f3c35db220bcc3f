// --feature-gates: parsing the flag as component-base's featuregate does
// (`Name=bool,...`, Go's ParseBool; AllAlpha and AllBeta set every gate of
// that stage), its refusals with upstream's texts (unrecognized gate, a
// locked gate set to its other value, a value that is no boolean) and its
// start-up warnings for deprecated and GA gates. A FeatureGates is one
// server's gates: every server built in one process has its own (nothing
// global), and every layer reads them through this module.

import { GATES, type GateSpec } from './gates.ts';

/** A --feature-gates value kube-apiserver would refuse at start-up. */
export class FeatureGateError extends Error {}

const ALL_ALPHA = 'AllAlpha';
const ALL_BETA = 'AllBeta';

/** Go's strconv.ParseBool. */
function parseBool(k: string, v: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  throw new FeatureGateError(`invalid value of ${k}=${v}, err: strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
}

/** The flag's pairs in order (featureGate.Set): comma-separated `Name=bool`, trimmed; a later pair of a name replaces an earlier one. */
export function parseFeatureGateFlag(text: string | undefined): Map<string, boolean> {
  const out = new Map<string, boolean>();
  if (!text) return out;
  for (const s of text.split(',')) {
    if (s.length === 0) continue;
    const eq = s.indexOf('=');
    const k = (eq < 0 ? s : s.slice(0, eq)).trim();
    if (eq < 0) throw new FeatureGateError(`missing bool value for ${k}`);
    out.set(k, parseBool(k, s.slice(eq + 1).trim()));
  }
  return out;
}

export class FeatureGates {
  private readonly enabledSet: ReadonlyMap<string, boolean>;
  /** Upstream's start-up warnings for the gates set (deprecated and GA ones). */
  readonly warnings: readonly string[];

  /** The 1.31 defaults with `settings` applied; throws FeatureGateError as upstream refuses them. */
  constructor(settings: ReadonlyMap<string, boolean> | Record<string, boolean> = new Map(), gates: Readonly<Record<string, GateSpec>> = GATES) {
    const entries = settings instanceof Map ? [...settings] : Object.entries(settings);
    const enabled = new Map<string, boolean>();
    const warnings: string[] = [];
    const byStage = new Map<string, boolean>();
    for (const [k, v] of entries) {
      if (k === ALL_ALPHA || k === ALL_BETA) {
        byStage.set(k === ALL_ALPHA ? 'ALPHA' : 'BETA', v);
        continue;
      }
      const spec = Object.prototype.hasOwnProperty.call(gates, k) ? gates[k] : undefined;
      if (!spec) throw new FeatureGateError(`unrecognized feature gate: ${k}`);
      if (spec.locked && spec.default !== v) throw new FeatureGateError(`cannot set feature gate ${k} to ${v}, feature is locked to ${spec.default}`);
      enabled.set(k, v);
      if (spec.stage === 'DEPRECATED') warnings.push(`Setting deprecated feature gate ${k}=${v}. It will be removed in a future release.`);
      else if (spec.stage === 'GA') warnings.push(`Setting GA feature gate ${k}=${v}. It will be removed in a future release.`);
    }
    // AllAlpha and AllBeta set the gates of their stage that are not set by name
    const all = new Map<string, boolean>();
    for (const [name, spec] of Object.entries(gates)) all.set(name, enabled.get(name) ?? byStage.get(spec.stage) ?? spec.default);
    this.enabledSet = all;
    this.warnings = warnings;
  }

  /** Whether the gate is on; a name not in the table is a programming error. */
  enabled(name: string): boolean {
    const v = this.enabledSet.get(name);
    if (v === undefined) throw new Error(`unknown feature gate ${name}`);
    return v;
  }
}

/** The gates of a --feature-gates text (throws FeatureGateError). */
export function featureGatesFromFlag(text: string | undefined): FeatureGates {
  return new FeatureGates(parseFeatureGateFlag(text));
}
