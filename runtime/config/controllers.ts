// --controllers, as kube-controller-manager reads it: a list of controller
// names, `*` for those on by default, `-name` to turn one off. The
// in-process controllers this server runs: namespace, serviceaccount,
// serviceaccount-token, root-ca-cert-publisher, garbagecollector, clusterrole-aggregation,
// csrsigning and resourcequota (on by
// default), tokencleaner and bootstrapsigner (off unless named, as upstream).

export class ControllersFlagError extends Error {}

export const DEFAULT_ON = ['namespace', 'serviceaccount', 'serviceaccount-token', 'root-ca-cert-publisher', 'garbagecollector', 'clusterrole-aggregation', 'csrsigning', 'resourcequota'] as const;
export const DEFAULT_OFF = ['tokencleaner', 'bootstrapsigner'] as const;
const KNOWN = new Set<string>([...DEFAULT_ON, ...DEFAULT_OFF]);

export function enabledControllers(list: string[] | undefined): Set<string> {
  const items = list?.length ? list : ['*'];
  const on = new Set<string>();
  const off = new Set<string>();
  let star = false;
  for (const raw of items) {
    const item = raw.trim();
    if (item === '*') {
      star = true;
      continue;
    }
    const name = item.startsWith('-') ? item.slice(1) : item;
    if (!KNOWN.has(name)) throw new ControllersFlagError(`"${name}" is not in the list of known controllers (${[...KNOWN].join(', ')})`);
    (item.startsWith('-') ? off : on).add(name);
  }
  const out = new Set<string>(on);
  if (star) for (const n of DEFAULT_ON) out.add(n);
  for (const n of off) out.delete(n);
  return out;
}
