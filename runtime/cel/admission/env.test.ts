// The declared variables of admission expressions: `namespaceObject` is
// upstream's kubernetes.Namespace type (its fields known, others refused
// at compile time, its timestamps timestamps), evaluated against a stored
// Namespace; `object` stays dynamic.
import { describe, expect, it } from 'vitest';
import { compileExpression } from './compile.ts';

const compiles = (expr: string) => {
  const r = compileExpression(expr, 'f', {}, 'bool');
  return r.error ? r.error.toString() : 'ok';
};

const namespace = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'prod', uid: 'u-1', labels: { env: 'prod' }, creationTimestamp: '2026-01-02T03:04:05Z', resourceVersion: '7' },
  spec: { finalizers: ['kubernetes'] },
  status: { phase: 'Active' },
};

describe('namespaceObject', () => {
  it.each([
    ["namespaceObject.metadata.labels['env'] == 'prod'", 'ok'],
    ["namespaceObject.status.phase == 'Active'", 'ok'],
    ["'kubernetes' in namespaceObject.spec.finalizers", 'ok'],
    ["namespaceObject.metadata.UID != ''", 'ok'],
    ["namespaceObject.metadata.creationTimestamp < timestamp('2100-01-01T00:00:00Z')", 'ok'],
    ['namespaceObject.status.conditions.all(c, c.lastTransitionTime > timestamp("2000-01-01T00:00:00Z"))', 'ok'],
    ['object.anything.goes == 1', 'ok'],
  ])('%s compiles', (expr, want) => {
    expect(compiles(expr)).toBe(want);
  });

  it.each([
    ["namespaceObject.metadata.uid != ''", "undefined field 'uid'"],
    ["namespaceObject.spec.owner == 'x'", "undefined field 'owner'"],
    ['namespaceObject.metadata.generation == "1"', "found no matching overload for '_==_' applied to '(int, string)'"],
  ])('%s is refused', (expr, want) => {
    expect(compiles(expr)).toContain(want);
  });

  it.each([
    ["namespaceObject.metadata.labels['env'] == 'prod'", true],
    ["namespaceObject.metadata.creationTimestamp == timestamp('2026-01-02T03:04:05Z')", true],
    ["'kubernetes' in namespaceObject.spec.finalizers && namespaceObject.status.phase == 'Active'", true],
  ])('%s evaluates against a Namespace', (expr, want) => {
    const r = compileExpression(expr, 'f', {}, 'bool');
    expect(r.error).toBeUndefined();
    const out = r.program!.evaluate({ object: null, oldObject: null, request: {}, namespaceObject: namespace });
    expect(out).toMatchObject({ ok: true, json: want });
  });
});
