// A LabelSelector object (matchLabels, matchExpressions) as the selector
// string kube-apiserver prints (`app=web,tier in (a,b),!legacy`), used by the
// scale subresource's status.selector. Requirements are sorted by key.

interface Requirement { key: string; text: string }

export function labelSelectorString(sel: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] } | undefined): string {
  if (!sel) return '';
  const reqs: Requirement[] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) reqs.push({ key: k, text: `${k}=${v}` });
  for (const e of sel.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort();
    switch (e.operator) {
      case 'In': reqs.push({ key: e.key, text: `${e.key} in (${values.join(',')})` }); break;
      case 'NotIn': reqs.push({ key: e.key, text: `${e.key} notin (${values.join(',')})` }); break;
      case 'Exists': reqs.push({ key: e.key, text: e.key }); break;
      case 'DoesNotExist': reqs.push({ key: e.key, text: `!${e.key}` }); break;
      default: break;
    }
  }
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((r) => r.text).join(',');
}
