// The JSONPath subset printer columns use: `.a.b`, `.a[0]`, `.a[*].b`,
// `.a[?(@.type=="Ready")].status`, with optional surrounding `{}`. Returns
// every value the path reaches.

type Step = { field: string } | { index: number } | { all: true } | { filter: { path: string[]; value: string } };

const cache = new Map<string, Step[]>();

export function compilePath(expr: string): Step[] {
  const hit = cache.get(expr);
  if (hit) return hit;
  let s = expr.trim();
  if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1);
  if (s.startsWith('$')) s = s.slice(1);
  const steps: Step[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === '.') {
      i++;
      let j = i;
      while (j < s.length && s[j] !== '.' && s[j] !== '[') j++;
      if (j > i) steps.push({ field: s.slice(i, j) });
      i = j;
    } else if (s[i] === '[') {
      const close = s.indexOf(']', i);
      if (close < 0) throw new Error(`unclosed [ in ${expr}`);
      const inner = s.slice(i + 1, close).trim();
      if (inner === '*') steps.push({ all: true });
      else if (/^-?\d+$/.test(inner)) steps.push({ index: Number(inner) });
      else if (inner.startsWith('?(') && inner.endsWith(')')) {
        const m = /^@((?:\.[A-Za-z0-9_-]+)+)\s*==\s*["']([^"']*)["']$/.exec(inner.slice(2, -1).trim());
        if (!m) throw new Error(`unsupported filter in ${expr}`);
        steps.push({ filter: { path: m[1].slice(1).split('.'), value: m[2] } });
      } else if (/^['"].*['"]$/.test(inner)) steps.push({ field: inner.slice(1, -1) });
      else throw new Error(`unsupported index in ${expr}`);
      i = close + 1;
    } else {
      let j = i;
      while (j < s.length && s[j] !== '.' && s[j] !== '[') j++;
      steps.push({ field: s.slice(i, j) });
      i = j;
    }
  }
  cache.set(expr, steps);
  return steps;
}

export function evalPath(obj: unknown, expr: string): unknown[] {
  let cur: unknown[] = [obj];
  for (const step of compilePath(expr)) {
    const next: unknown[] = [];
    for (const v of cur) {
      if (v == null) continue;
      if ('field' in step) {
        if (typeof v === 'object' && !Array.isArray(v) && step.field in (v as object)) next.push((v as Record<string, unknown>)[step.field]);
      } else if ('index' in step) {
        if (Array.isArray(v)) {
          const k = step.index < 0 ? v.length + step.index : step.index;
          if (k >= 0 && k < v.length) next.push(v[k]);
        }
      } else if ('all' in step) {
        if (Array.isArray(v)) next.push(...v);
        else if (typeof v === 'object') next.push(...Object.values(v as object));
      } else {
        if (!Array.isArray(v)) continue;
        for (const el of v) {
          let x: unknown = el;
          for (const p of step.filter.path) x = x !== null && typeof x === 'object' ? (x as Record<string, unknown>)[p] : undefined;
          if (x !== undefined && String(x) === step.filter.value) next.push(el);
        }
      }
    }
    cur = next;
  }
  return cur;
}
