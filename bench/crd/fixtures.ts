// CustomResourceDefinitions the CRD benches create: a namespaced kind with a
// small spec (the shape most operators' CRDs have), optionally with
// x-kubernetes-validations rules, and a custom resource of it.

export type Json = Record<string, unknown>;

export const CRDS_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
export const GROUP = 'bench.example.com';

/** Five rules of the kinds CRDs carry: bounds, a format check, a cross-field check, a list check, a transition rule. */
export const FIVE_RULES = [
  { rule: 'self.replicas >= 0 && self.replicas <= 100', message: 'replicas out of range' },
  { rule: "self.image.startsWith('registry.example.com/')", message: 'image from the wrong registry' },
  { rule: '!has(self.maxReplicas) || self.maxReplicas >= self.replicas', message: 'maxReplicas below replicas' },
  { rule: 'self.ports.all(p, p > 0 && p < 65536)', message: 'bad port' },
  { rule: 'self.mode == oldSelf.mode', message: 'mode is immutable' },
];

/** A CRD of kind `Kind<i>` (plural `kind<i>s`); with `rules`, its spec carries them. */
export function benchCrd(i: number | string, rules: Json[] = []): Json {
  const kind = `Kind${i}`;
  const plural = `kind${i}s`;
  const spec: Json = {
    type: 'object',
    required: ['image', 'mode'],
    properties: {
      replicas: { type: 'integer', default: 1 },
      maxReplicas: { type: 'integer' },
      image: { type: 'string', maxLength: 256 },
      mode: { type: 'string', enum: ['a', 'b'] },
      ports: { type: 'array', maxItems: 16, items: { type: 'integer' } },
      labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 63 }, maxProperties: 16 },
    },
  };
  if (rules.length) spec['x-kubernetes-validations'] = rules;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { kind, plural, singular: `kind${i}`, listKind: `${kind}List` },
      versions: [
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec, status: { type: 'object', properties: { ready: { type: 'boolean' } } } } } } },
      ],
    },
  };
}

/** Where the custom resources of benchCrd(i) are created. */
export const crPath = (i: number | string): string => `/apis/${GROUP}/v1/namespaces/default/kind${i}s`;

/** A custom resource of benchCrd(i) that every rule accepts. */
export function benchCr(i: number | string, name: string): Json {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: `Kind${i}`,
    metadata: { name },
    spec: { replicas: 3, maxReplicas: 5, image: 'registry.example.com/app:1', mode: 'a', ports: [80, 443], labels: { app: 'x' } },
  };
}

/** Creates the CRDs benchCrd(id) of `ids` (with `rules`) against a server at url and waits until a custom resource of each is accepted. */
export async function createServedCrds(url: string, ids: (number | string)[], rules: Json[] = []): Promise<void> {
  for (const id of ids) {
    const r = await fetch(url + CRDS_PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(benchCrd(id, rules)) });
    if (r.status !== 201) throw new Error(`CRD ${id}: ${r.status} ${(await r.text()).slice(0, 300)}`);
  }
  for (const id of ids) await waitServed(url, id);
}

/** 0, 1, ..., n - 1. */
export const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** Polls a create of a custom resource of benchCrd(i) until it is 201 (the resource is served); returns the polls made. */
export async function waitServed(url: string, i: number | string, name = 'probe'): Promise<number> {
  for (let polls = 1; ; polls++) {
    const r = await fetch(url + crPath(i), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(benchCr(i, name)) });
    await r.arrayBuffer();
    if (r.status === 201) return polls;
    if (r.status !== 404 && r.status !== 503) throw new Error(`custom resource of ${i}: ${r.status}`);
    if (polls > 20_000) throw new Error(`custom resource of ${i} never served`);
    await new Promise((res) => setTimeout(res, 1));
  }
}
