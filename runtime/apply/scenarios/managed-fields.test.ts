// Scenarios: the managedFields rules around the merge: the reset request,
// user-supplied entries, entries merged per manager/operation/subresource
// (and apiVersion for updates), the status sub-resource and reset fields,
// ownership of fields set before tracking (before-first-apply), the
// client-side apply migration, the Update entry cap, topology changes.
import { describe, expect, it } from 'vitest';
import { FieldManager } from '../index.ts';
import type { MergeSchema } from '../../../generated/api-types.ts';
import { fixtureSchema } from './fixture-schema.ts';
import { entriesByKey, runScenario, stripManaged } from './run.ts';
import type { Obj } from '../value/json.ts';

const base = { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'a' } };
const withMF = (o: Obj, mf: unknown): Obj => ({ ...o, metadata: { ...(o.metadata as Obj), managedFields: mf as Obj[] } });

describe('managedFields rules', () => {
  it('an update setting managedFields to one empty entry strips them; the reset comes before the other changes', () => {
    const live = runScenario([
      { manager: 'a', object: { ...base, spec: { replicas: 2 } } },
      { op: 'update', manager: 'u', object: (l) => ({ ...l, spec: { replicas: 2, paused: true } }) },
    ])!;
    runScenario(
      [
        {
          op: 'update',
          manager: 'u',
          object: (l) => withMF(l, [{}]),
          expectManaged: {},
          expectObject: { ...base, spec: { replicas: 2, paused: true } },
        },
      ],
      live,
    );
    runScenario(
      [
        {
          op: 'update',
          manager: 'w',
          object: (l) => withMF({ ...l, spec: { replicas: 3, paused: true } }, [{}]),
          expectManaged: { 'w/Update': { 'f:spec': { 'f:replicas': {} } } },
        },
      ],
      live,
    );
  });

  it('an empty list or no managedFields in an update keeps the live entries', () => {
    const live = runScenario([{ manager: 'a', object: { ...base, spec: { replicas: 2 } } }])!;
    for (const mf of [[], undefined]) {
      runScenario(
        [
          {
            op: 'update',
            manager: 'u',
            object: (l) => withMF(l, mf),
            expectManaged: { 'a/Apply': { 'f:spec': { 'f:replicas': {} } } },
          },
        ],
        live,
      );
    }
  });

  it('an update may replace managedFields with valid entries of its own; invalid ones fall back to live', () => {
    const live = runScenario([{ manager: 'a', object: { ...base, spec: { replicas: 2 } } }])!;
    const mine = [{ manager: 'x', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } }];
    runScenario([{ op: 'update', manager: 'u', object: (l) => withMF(l, mine), expectManaged: { 'x/Update': { 'f:spec': { 'f:replicas': {} } } } }], live);
    const bad = [{ manager: 'x', operation: 'Bogus', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }];
    runScenario([{ op: 'update', manager: 'u', object: (l) => withMF(l, bad), expectManaged: { 'a/Apply': { 'f:spec': { 'f:replicas': {} } } } }], live);
  });

  it('entries merge per manager and operation; Update entries are per apiVersion', () => {
    const schema = fixtureSchema;
    const v1 = new FieldManager({ schema, typeName: 'Thing', apiVersion: 'v1' });
    const v2 = new FieldManager({ schema, typeName: 'Thing', apiVersion: 'v2' });
    const now = new Date('2026-01-01T00:00:00Z');
    let o = v1.update(null, { ...base, spec: { replicas: 1 } }, 'm', { now });
    o = v1.update(o, { ...stripManaged(o), spec: { replicas: 1, paused: true } }, 'm', { now });
    expect(entriesByKey(o)).toEqual({ 'm/Update': { 'f:spec': { '.': {}, 'f:paused': {}, 'f:replicas': {} } } });
    o = v1.apply(o, { ...base, spec: { replicas: 1 } }, 'm', { force: false, now });
    o = v2.update(o, { ...stripManaged(o), spec: { replicas: 1, paused: false } }, 'm', { now });
    const mf = (o.metadata as { managedFields: Obj[] }).managedFields;
    expect(mf.map((e) => [e.manager, e.operation, e.apiVersion])).toEqual([
      ['m', 'Apply', 'v1'],
      ['m', 'Update', 'v1'],
      ['m', 'Update', 'v2'],
    ]);
    expect(mf[1].fieldsV1).toEqual({ 'f:spec': { '.': {}, 'f:replicas': {} } });
    expect(mf[2].fieldsV1).toEqual({ 'f:spec': { 'f:paused': {} } });
  });

  it('writes through the status sub-resource are their own entries; reset fields are never owned', () => {
    const resetFields = { '': ['status'], status: ['spec', 'metadata'] };
    runScenario(
      [
        {
          manager: 'ctl',
          object: { ...base, spec: { replicas: 2 }, status: { replicas: 9 } },
          expectManaged: { 'ctl/Apply': { 'f:spec': { 'f:replicas': {} } } },
        },
        {
          manager: 'ctl',
          subresource: 'status',
          object: { ...base, spec: { replicas: 5 }, status: { replicas: 1, conditions: [{ type: 'Ready', status: 'True' }] } },
          expectManaged: {
            'ctl/Apply': { 'f:spec': { 'f:replicas': {} } },
            'ctl/Apply/status': { 'f:status': { 'f:conditions': { 'k:{"type":"Ready"}': { '.': {}, 'f:status': {}, 'f:type': {} } }, 'f:replicas': {} } },
          },
        },
        {
          op: 'update',
          manager: 'kubelet',
          subresource: 'status',
          object: (l) => ({ ...l, status: { replicas: 2 } }),
          expectManaged: {
            'ctl/Apply': { 'f:spec': { 'f:replicas': {} } },
            'kubelet/Update/status': { 'f:status': { 'f:replicas': {} } },
          },
        },
      ],
      null,
      { resetFields },
    );
  });

  it('a status update ignores managedFields in the body', () => {
    const live = runScenario([{ manager: 'a', object: { ...base, spec: { replicas: 2 } } }])!;
    runScenario(
      [
        {
          op: 'update',
          manager: 'k',
          subresource: 'status',
          object: (l) => withMF({ ...l, status: { replicas: 1 } }, [{}]),
          expectManaged: { 'a/Apply': { 'f:spec': { 'f:replicas': {} } }, 'k/Update/status': { 'f:status': { '.': {}, 'f:replicas': {} } } },
        },
      ],
      live,
    );
  });

  it('applying to an object without managedFields gives its fields to before-first-apply', () => {
    runScenario(
      [
        {
          manager: 'a',
          object: { ...base, spec: { replicas: 3 } },
          expectConflicts: [{ manager: 'before-first-apply', field: '.spec.replicas' }],
          expectMessage: 'Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .spec.replicas',
        },
        {
          manager: 'a',
          object: { ...base, spec: { paused: true } },
          expectManaged: {
            'a/Apply': { 'f:spec': { 'f:paused': {} } },
            'before-first-apply/Update': { 'f:spec': { '.': {}, 'f:replicas': {} } },
          },
        },
      ],
      { ...base, metadata: { name: 'a', uid: 'u1', resourceVersion: '5' }, spec: { replicas: 1 } },
    );
  });

  describe('client-side apply migration', () => {
    const lastApplied = JSON.stringify({ apiVersion: 'v1', kind: 'Thing', metadata: { name: 'a' }, spec: { replicas: 1, paused: true } });
    const annotated = { ...base, metadata: { name: 'a', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied } } };
    const csa = () =>
      runScenario([
        {
          op: 'update',
          manager: 'kubectl-client-side-apply',
          object: { ...annotated, spec: { replicas: 1, paused: true } },
        },
      ])!;

    it('the kubectl manager takes the fields without conflict and keeps the annotation in sync', () => {
      const out = runScenario(
        [
          {
            manager: 'kubectl',
            object: { ...base, spec: { replicas: 4, paused: true } },
            expectManaged: {
              'kubectl/Apply': { 'f:spec': { 'f:paused': {}, 'f:replicas': {} } },
              'kubectl-client-side-apply/Update': { 'f:metadata': { 'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/last-applied-configuration': {} } }, 'f:spec': { '.': {}, 'f:paused': {} } },
            },
          },
        ],
        csa(),
      )!;
      const ann = (out.metadata as { annotations: Record<string, string> }).annotations['kubectl.kubernetes.io/last-applied-configuration'];
      expect(JSON.parse(ann)).toEqual({ apiVersion: 'v1', kind: 'Thing', metadata: { name: 'a' }, spec: { paused: true, replicas: 4 } });
      expect((out.spec as Obj).replicas).toBe(4);
    });

    it('another manager name opts out and conflicts', () => {
      runScenario(
        [
          {
            manager: 'my-tool',
            object: { ...base, spec: { replicas: 4 } },
            expectConflicts: [{ manager: 'kubectl-client-side-apply', field: '.spec.replicas' }],
          },
        ],
        csa(),
      );
    });

    it('fields whose live value no longer matches the annotation still conflict', () => {
      const drifted = runScenario([{ op: 'update', manager: 'scaler', object: (l) => ({ ...l, spec: { replicas: 7, paused: true } }) }], csa())!;
      runScenario(
        [
          {
            manager: 'kubectl',
            object: { ...base, spec: { replicas: 4, paused: false } },
            expectConflicts: [{ manager: 'scaler', field: '.spec.replicas' }],
          },
        ],
        drifted,
      );
    });
  });

  it('more than ten Update managers: the oldest merge into ancient-changes', () => {
    const steps = Array.from({ length: 12 }, (_, i) => ({
      op: 'update' as const,
      manager: `m${i}`,
      object: (l: Obj) => ({ ...l, spec: { ...((l.spec as Obj) ?? {}), config: { ...(((l.spec as Obj)?.config as Obj) ?? {}), [`k${i}`]: 'v' } } }),
    }));
    const out = runScenario([{ op: 'update', manager: 'm', object: { ...base } }, ...steps])!;
    const keys = Object.keys(entriesByKey(out)).sort();
    expect(keys).toHaveLength(10);
    expect(keys).toContain('ancient-changes/Update');
    expect(keys).not.toContain('m0/Update');
    expect(keys).not.toContain('m2/Update');
    expect(keys).toContain('m3/Update');
    expect(entriesByKey(out)['ancient-changes/Update']).toEqual({ 'f:spec': { '.': {}, 'f:config': { '.': {}, 'f:k0': {}, 'f:k1': {}, 'f:k2': {} } } });
  });

  describe('topology changes between atomic and granular', () => {
    const mk = (frozen: 'atomic' | 'separable'): MergeSchema => {
      const types = structuredClone(fixtureSchema.types);
      const spec = types.Spec.map!.fields!.find((f) => f.name === 'frozen')!;
      spec.type = { inline: { map: { elementType: { inline: { scalar: 'string' } }, elementRelationship: frozen } } };
      return { types };
    };

    it('granular to atomic: ownership of the children becomes ownership of the whole', () => {
      const granular = runScenario([{ manager: 'a', object: { ...base, spec: { frozen: { x: '1' } } }, expectManaged: { 'a/Apply': { 'f:spec': { 'f:frozen': { 'f:x': {} } } } } }], null, {
        schema: mk('separable'),
      })!;
      runScenario(
        [
          {
            manager: 'b',
            object: { ...base, spec: { frozen: { y: '2' } } },
            expectConflicts: [{ manager: 'a', field: '.spec.frozen' }],
          },
          {
            op: 'update',
            manager: 'u',
            object: (l) => ({ ...l, spec: { paused: true, frozen: { x: '1' } } }),
            expectManaged: { 'a/Apply': { 'f:spec': { 'f:frozen': {} } }, 'u/Update': { 'f:spec': { 'f:paused': {} } } },
          },
        ],
        granular,
        { schema: mk('atomic') },
      );
    });

    it('atomic to granular: the owner of the whole keeps only the field itself', () => {
      const atomic = runScenario([{ manager: 'a', object: { ...base, spec: { frozen: { x: '1', y: '2' } } }, expectManaged: { 'a/Apply': { 'f:spec': { 'f:frozen': {} } } } }], null, {
        schema: mk('atomic'),
      })!;
      runScenario(
        [
          {
            manager: 'b',
            object: { ...base, spec: { frozen: { z: '3' } } },
            expectObject: { ...base, spec: { frozen: { x: '1', y: '2', z: '3' } } },
            expectManaged: {
              'a/Apply': { 'f:spec': { 'f:frozen': {} } },
              'b/Apply': { 'f:spec': { 'f:frozen': { 'f:z': {} } } },
            },
          },
        ],
        atomic,
        { schema: mk('separable') },
      );
    });
  });

  describe('topology changes of a list between set and atomic', () => {
    const mk = (er: 'atomic' | 'associative'): MergeSchema => {
      const types = structuredClone(fixtureSchema.types);
      types.Spec.map!.fields!.find((f) => f.name === 'tags')!.type = { inline: { list: { elementType: { inline: { scalar: 'string' } }, elementRelationship: er } } };
      return { types };
    };
    it('set to atomic collapses to the whole list; atomic to set keeps the bare field', () => {
      const asSet = runScenario([{ manager: 'a', object: { ...base, spec: { tags: ['x', 'y'] } }, expectManaged: { 'a/Apply': { 'f:spec': { 'f:tags': { 'v:"x"': {}, 'v:"y"': {} } } } } }], null, {
        schema: mk('associative'),
      })!;
      const asAtomic = runScenario(
        [
          {
            op: 'update',
            manager: 'u',
            object: (l) => ({ ...l, spec: { tags: ['x', 'y'], paused: true } }),
            expectManaged: { 'a/Apply': { 'f:spec': { 'f:tags': {} } }, 'u/Update': { 'f:spec': { 'f:paused': {} } } },
          },
        ],
        asSet,
        { schema: mk('atomic') },
      )!;
      runScenario(
        [
          {
            manager: 'b',
            object: { ...base, spec: { tags: ['z'] } },
            expectObject: { ...base, spec: { tags: ['x', 'y', 'z'], paused: true } },
            expectManaged: {
              'a/Apply': { 'f:spec': { 'f:tags': {} } },
              'b/Apply': { 'f:spec': { 'f:tags': { 'v:"z"': {} } } },
              'u/Update': { 'f:spec': { 'f:paused': {} } },
            },
          },
        ],
        asAtomic,
        { schema: mk('associative') },
      );
    });
  });

  it('apply through the status sub-resource conflicts with a status updater unless forced', () => {
    runScenario(
      [
        { op: 'update', manager: 'kubelet', subresource: 'status', object: { ...base, status: { replicas: 1 } } },
        {
          manager: 'ctl',
          subresource: 'status',
          object: { ...base, status: { replicas: 2 } },
          expectConflicts: [{ manager: 'kubelet', field: '.status.replicas' }],
          expectMessage: 'Apply failed with 1 conflict: conflict with "kubelet" with subresource "status" using v1: .status.replicas',
        },
        {
          manager: 'ctl',
          subresource: 'status',
          force: true,
          object: { ...base, status: { replicas: 2 } },
          expectManaged: { 'ctl/Apply/status': { 'f:status': { 'f:replicas': {} } }, 'kubelet/Update/status': { 'f:status': {} } },
        },
      ],
      null,
      { resetFields: { '': ['status'], status: ['spec', 'metadata'] } },
    );
  });

  describe('creates compare against the empty object of the kind', () => {
    // Upstream's OpenAPI marks always-present (non-pointer) structs with `default: {}`.
    const withZero = (): MergeSchema => {
      const types = structuredClone(fixtureSchema.types);
      for (const [t, f] of [
        ['Thing', 'spec'],
        ['Thing', 'status'],
        ['Spec', 'template'],
        ['Spec', 'strategy'],
      ]) {
        types[t].map!.fields!.find((x) => x.name === f)!.default = {};
      }
      return { types };
    };
    it('an update-create does not record always-present parents as added', () => {
      runScenario(
        [
          {
            op: 'update',
            manager: 'kubectl-create',
            object: { ...base, spec: { replicas: 1, template: { labels: { app: 'x' } } } },
            expectManaged: { 'kubectl-create/Update': { 'f:spec': { 'f:replicas': {}, 'f:template': { 'f:labels': { '.': {}, 'f:app': {} } } } } },
          },
        ],
        null,
        { schema: withZero() },
      );
    });
    it('an apply-create starts from that object', () => {
      runScenario(
        [
          {
            manager: 'a',
            object: { ...base, spec: { replicas: 1 } },
            expectObject: { ...base, spec: { replicas: 1, template: {}, strategy: {} }, status: {} },
            expectManaged: { 'a/Apply': { 'f:spec': { 'f:replicas': {} } } },
          },
        ],
        null,
        { schema: withZero() },
      );
    });
  });
});
