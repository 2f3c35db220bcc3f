// Nesting limit of decoded request bodies (JSON, YAML, protobuf) and the
// iterative depth measure used to enforce it on values built after decoding
// (a JSON patch can move one deep subtree below another); and the field path
// of a key in the container stack the iterative decoders keep.
//
// kube-apiserver allows 10,000 levels (Go's encoding/json scanner and
// go-yaml's scanner both stop at 10,000; Go stacks grow on demand). Ours do
// not: the YAML composer of the `yaml` package recurses about 1.2 KiB of stack
// per level and overflows near 800 levels from an empty stack, and the value
// is walked recursively afterwards (nulls dropped, defaults, validation,
// managedFields, cloning, serialization). A stack overflow is not a safe
// failure either: V8 can abort the whole process when a regular expression
// is first compiled near the stack limit. So every decoder rejects bodies
// nested deeper than MAX_NESTING_DEPTH before anything recursive sees them,
// with a limit well inside what the weakest of those steps can take
// (test/http/hardening-bodies.test.ts sends the limit through every path).
// Kubernetes objects nest a few dozen levels; deep CRD schemas about a hundred.

export const MAX_NESTING_DEPTH = 256;

/**
 * The first array or object found below `max` levels of nesting in `value`
 * (a scalar has depth 0, `{}` and `[]` depth 1), or undefined when `value`
 * is within the limit. Iterative, so safe for any depth; stops at the first
 * container too deep. For trees (decoded JSON), not graphs with shared nodes.
 */
export function tooDeep(value: unknown, max: number): object | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const stack: { v: object; d: number }[] = [{ v: value, d: 1 }];
  while (stack.length > 0) {
    const { v, d } = stack.pop()!;
    if (d > max) return v;
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const c of children) if (c !== null && typeof c === 'object') stack.push({ v: c, d: d + 1 });
  }
  return undefined;
}

/**
 * The field path (`spec.containers[0].name`) of `key` inside the innermost of
 * a stack of containers being filled, outermost first; each frame after the
 * first knows how its parent reaches it (`seg`). The decoders build it only
 * when they report a duplicate key, so the common path pays nothing.
 */
export function fieldPathIn(stack: readonly { seg: string | number }[], key: string): string {
  let out = '';
  for (let k = 1; k <= stack.length; k++) {
    const seg = k < stack.length ? stack[k].seg : key;
    out = typeof seg === 'number' ? `${out}[${seg}]` : out ? `${out}.${seg}` : seg;
  }
  return out;
}
