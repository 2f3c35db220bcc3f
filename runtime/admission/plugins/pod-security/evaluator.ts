// The Pod Security evaluator (upstream's check registry): for each policy
// version from 1.0 to the newest a check names, the checks of each level
// in upstream's order, baseline checks first then restricted ones, each
// group sorted by id (byte order); restricted also runs the baseline
// checks that no restricted check of that version overrides. A version
// newer than the newest (and latest) evaluates as the newest. The results
// aggregate into upstream's texts: reasons joined with ", ", each detail
// in parentheses after its reason.

import { type LevelVersion, type Version, older, v1 } from './api.ts';
import { DEFAULT_CHECKS } from './checks/index.ts';
import type { Check, CheckPod, CheckResult, PodMeta, PodSpec, VersionedCheck } from './checks/types.ts';

export interface AggregateResult {
  allowed: boolean;
  reasons: string[];
  details: string[];
}

export interface Evaluator {
  evaluate(lv: LevelVersion, meta: PodMeta, spec: PodSpec): AggregateResult;
}

const UNKNOWN_REASON = 'unknown forbidden reason';

export function aggregate(results: CheckResult[]): AggregateResult {
  const reasons: string[] = [];
  const details: string[] = [];
  for (const r of results) {
    if (r.allowed) continue;
    reasons.push(r.reason || UNKNOWN_REASON);
    details.push(r.detail ?? '');
  }
  return { allowed: reasons.length === 0, reasons, details };
}

/** `host ports, privileged` (reasons only: the namespace relabel warnings). */
export const forbiddenReason = (a: AggregateResult): string => a.reasons.join(', ');

/** `host ports (8080), privileged (container "c" must not ...)`. */
export const forbiddenDetail = (a: AggregateResult): string => a.reasons.map((r, i) => (a.details[i] ? `${r} (${a.details[i]})` : r)).join(', ');

const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The revision of a check in effect at policy version `minor`, if any. */
function revisionAt(check: Check, minor: number): VersionedCheck | undefined {
  let found: VersionedCheck | undefined;
  for (const rev of check.versions) if (!older(v1(minor), rev.minVersion)) found = rev;
  return found;
}

const minorOf = (v: Version): number => (v.latest ? Infinity : v.minor);

export function newEvaluator(checks: readonly Check[] = DEFAULT_CHECKS): Evaluator {
  const maxMinor = Math.max(...checks.map((c) => minorOf(c.versions[c.versions.length - 1].minVersion)));
  const baselineIds = checks.filter((c) => c.level === 'baseline').sort((a, b) => byteOrder(a.id, b.id));
  const restrictedIds = checks.filter((c) => c.level === 'restricted').sort((a, b) => byteOrder(a.id, b.id));
  const baseline: CheckPod[][] = [];
  const restricted: CheckPod[][] = [];
  for (let minor = 0; minor <= maxMinor; minor++) {
    const base = baselineIds.flatMap((c) => {
      const rev = revisionAt(c, minor);
      return rev ? [{ id: c.id, rev }] : [];
    });
    const strict = restrictedIds.flatMap((c) => {
      const rev = revisionAt(c, minor);
      return rev ? [{ id: c.id, rev }] : [];
    });
    const overridden = new Set(strict.flatMap((s) => s.rev.overrides ?? []));
    baseline[minor] = base.map((b) => b.rev.check);
    restricted[minor] = [...base.filter((b) => !overridden.has(b.id)), ...strict].map((c) => c.rev.check);
  }
  return {
    evaluate(lv, meta, spec) {
      if (lv.level === 'privileged') return aggregate([]);
      const minor = Math.min(minorOf(lv.version), maxMinor);
      const list = lv.level === 'baseline' ? baseline[minor] : restricted[minor];
      return aggregate(list.map((check) => check(meta, spec)));
    },
  };
}
