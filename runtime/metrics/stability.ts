// The metric life cycle of Kubernetes' component-base: a metric's stability
// level and deprecation are written into its HELP text (`[STABLE] ...`,
// `[ALPHA] (Deprecated since 1.28.0) ...`); a metric deprecated before the
// current minor release is hidden unless --show-hidden-metrics-for-version
// names the previous minor release (the only value accepted).

export type StabilityLevel = 'ALPHA' | 'BETA' | 'STABLE';

export interface Lifecycle {
  stability: StabilityLevel;
  /** The release the metric was deprecated in (`1.28.0`). */
  deprecatedVersion?: string;
}

/** The release whose metrics this server exports. */
export const CURRENT_RELEASE = { major: 1, minor: 31 };

/** A bad --show-hidden-metrics-for-version or --disabled-metrics. */
export class ShowHiddenMetricsError extends Error {}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

/** The HELP text as component-base writes it: the deprecation note first, then the stability level before both. */
export function annotatedHelp(help: string, life: Lifecycle, current = CURRENT_RELEASE): string {
  const deprecated = life.deprecatedVersion && !isBefore(current, parseRelease(life.deprecatedVersion));
  const text = deprecated ? `(Deprecated since ${life.deprecatedVersion}) ${help}` : help;
  return `[${life.stability}] ${text}`;
}

/** Whether a metric is hidden: deprecated in a release before the current minor one. */
export function isHidden(life: Lifecycle, current = CURRENT_RELEASE): boolean {
  if (!life.deprecatedVersion) return false;
  return isBefore(parseRelease(life.deprecatedVersion), current);
}

/** Checks --show-hidden-metrics-for-version: empty, or exactly the previous minor release (`1.30`); returns whether hidden metrics are shown. */
export function showHiddenMetrics(value: string | undefined, current = CURRENT_RELEASE): boolean {
  if (!value) return false;
  const valid = `${current.major}.${current.minor - 1}`;
  if (value !== valid) {
    throw new ShowHiddenMetricsError(`--show-hidden-metrics-for-version must be omitted or have the value '${valid}'. Only the previous minor version is allowed`);
  }
  return true;
}

/** Checks --disabled-metrics (comma-separated fully qualified metric names); returns the names. */
export function disabledMetrics(value: string | undefined): string[] {
  const names = (value ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!METRIC_NAME.test(name))
      throw new ShowHiddenMetricsError(`--disabled-metrics must be fully qualified metric names matching ${JSON.stringify(METRIC_NAME.source)}, got ${JSON.stringify(name)}`);
  }
  return names;
}

interface Release {
  major: number;
  minor: number;
}

function parseRelease(version: string): Release {
  const [major, minor] = version.split('.').map(Number);
  return { major, minor };
}

function isBefore(a: Release, b: Release): boolean {
  return a.major < b.major || (a.major === b.major && a.minor < b.minor);
}
