// Kubernetes version-string rules: stability from the version string, the
// kube-aware priority order (GA > beta > alpha, newer first), and the
// enabled-by-default rule. Pure functions, no I/O; shared by codegen and the
// runtime's CRD serving.
import type { Stability } from '../../generated/api-types.ts';

interface ParsedVersion {
  major: number;
  stability: Stability;
  minor: number;
}

const versionRe = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

export function parseVersion(v: string): ParsedVersion | null {
  const m = versionRe.exec(v);
  if (!m) return null;
  return {
    major: Number(m[1]),
    stability: m[2] === 'alpha' ? 'alpha' : m[2] === 'beta' ? 'beta' : 'GA',
    minor: m[3] === undefined ? 0 : Number(m[3]),
  };
}

export function stabilityOf(v: string): Stability {
  return parseVersion(v)?.stability ?? 'GA';
}

const rank: Record<Stability, number> = { GA: 3, beta: 2, alpha: 1 };

/** Sort comparator: highest-priority version first (v2, v1, v2beta1, v1beta2, v1alpha1, then others by name). */
export function compareVersionPriority(a: string, b: string): number {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  if (pa && !pb) return -1;
  if (!pa && pb) return 1;
  if (!pa || !pb) return a < b ? -1 : a > b ? 1 : 0;
  if (rank[pa.stability] !== rank[pb.stability]) return rank[pb.stability] - rank[pa.stability];
  if (pa.major !== pb.major) return pb.major - pa.major;
  return pb.minor - pa.minor;
}

/** "1.21" < "1.22"; compares dotted numeric release strings. */
export function releaseBefore(a: string, b: string): boolean {
  const xa = a.split('.').map(Number);
  const xb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(xa.length, xb.length); i++) {
    const d = (xa[i] ?? 0) - (xb[i] ?? 0);
    if (d !== 0) return d < 0;
  }
  return false;
}

/** GA on; beta on only when introduced before 1.22; alpha off. */
export function defaultEnabled(stability: Stability, introduced?: string): boolean {
  if (stability === 'GA') return true;
  if (stability === 'alpha') return false;
  return introduced !== undefined && releaseBefore(introduced, '1.22');
}
