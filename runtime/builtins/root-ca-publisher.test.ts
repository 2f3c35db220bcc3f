// What the root CA publisher does with a namespace's kube-root-ca.crt:
// create it, leave it, or put back its data and description.
import { describe, expect, it } from 'vitest';
import type { Obj } from '../storage/interface.ts';
import { planRootCAConfigMap, ROOT_CA_DESCRIPTION } from './root-ca-publisher.ts';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const DESC = 'kubernetes.io/description';
const live = (over: Obj = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'kube-root-ca.crt', namespace: 'ns', resourceVersion: '7', annotations: { [DESC]: ROOT_CA_DESCRIPTION }, ...over.metadata },
  data: { 'ca.crt': CA },
  ...(over.data === undefined ? {} : { data: over.data }),
});

describe('planRootCAConfigMap', () => {
  it('creates the ConfigMap as upstream writes it when there is none', () => {
    expect(planRootCAConfigMap(undefined, CA)).toEqual({
      action: 'create',
      configMap: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kube-root-ca.crt', annotations: { [DESC]: ROOT_CA_DESCRIPTION } }, data: { 'ca.crt': CA } },
    });
  });

  it('leaves a correct one alone (any non-empty description counts, as upstream)', () => {
    expect(planRootCAConfigMap(live(), CA)).toEqual({ action: 'none' });
    expect(planRootCAConfigMap(live({ metadata: { annotations: { [DESC]: 'mine' } } }), CA)).toEqual({ action: 'none' });
  });

  const corrected: [string, Obj][] = [
    ['another CA', { data: { 'ca.crt': 'not the CA' } }],
    ['an extra key', { data: { 'ca.crt': CA, extra: 'x' } }],
    ['no data', { data: {} }],
    ['no description', { metadata: { annotations: { other: 'kept' } } }],
    ['an empty description', { metadata: { annotations: { [DESC]: '', other: 'kept' } } }],
  ];
  it.each(corrected)('corrects %s, keeping what else it has', (_name, over) => {
    const plan = planRootCAConfigMap(live(over), CA);
    expect(plan.action).toBe('update');
    const cm = (plan as { configMap: Obj }).configMap;
    expect(cm.data).toEqual({ 'ca.crt': CA });
    expect(cm.metadata.annotations[DESC]).toBe(over.metadata?.annotations?.[DESC] || ROOT_CA_DESCRIPTION);
    expect(cm.metadata.resourceVersion).toBe('7');
    if (over.metadata?.annotations?.other) expect(cm.metadata.annotations.other).toBe('kept');
  });
});
