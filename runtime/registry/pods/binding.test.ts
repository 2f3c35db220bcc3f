// What a Binding does to a pod, and when it is refused.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import { bindingErrors, boundPod } from './binding.ts';

const now = new Date('2026-01-02T03:04:05Z');
const live = (spec: object = {}, md: object = {}) => ({ metadata: { name: 'p', ...md }, spec: { containers: [{ name: 'c' }], ...spec }, status: { phase: 'Pending' } });
const binding = { metadata: { name: 'p', annotations: { a: 'b' } }, target: { kind: 'Node', name: 'n1' } };

describe('boundPod', () => {
  it('sets the node, merges annotations, adds PodScheduled=True', () => {
    const pod = boundPod(live({}, { annotations: { keep: 'x' } }), binding, now);
    expect(pod.spec.nodeName).toBe('n1');
    expect(pod.metadata.annotations).toEqual({ keep: 'x', a: 'b' });
    expect(pod.status.conditions).toEqual([{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-02T03:04:05Z' }]);
  });

  it.each([
    ['already bound', live({ nodeName: 'n0' }), 'pod p is already assigned to node "n0"'],
    ['being deleted', live({}, { deletionTimestamp: '2026-01-01T00:00:00Z' }), 'pod p is being deleted, cannot be assigned to a host'],
    ['held by scheduling gates', live({ schedulingGates: [{ name: 'g' }] }), 'pod p has non-empty .spec.schedulingGates'],
  ])('409 when %s', (_n, pod, why) => {
    let err: unknown;
    try {
      boundPod(pod, binding, now);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(409);
    expect((err as ApiError).message).toBe(`Operation cannot be fulfilled on pods/binding "p": ${why}`);
  });
});

describe('bindingErrors', () => {
  it.each([
    ['a Node target', { target: { kind: 'Node', name: 'n' } }, []],
    ['a target without kind', { target: { name: 'n' } }, []],
    ['no target name', { target: {} }, ['target.name: Required value']],
    ['another kind', { target: { kind: 'Pod', name: 'n' } }, ['target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"']],
  ])('%s', (_n, b, want) => {
    expect(bindingErrors(b).map((e) => e.toString())).toEqual(want);
  });
});
