// Test support for the patch library (imported only by *.test.ts): a small
// hand-written merge schema shaped like the DaemonSet part of the built-in
// API (containers by name, env by name, ports by containerPort, volumes by
// name with retainKeys, finalizers as a set ...) and a live DaemonSet.
// Boundary: data for tests; the real schema is generated/merge-schema.ts.
import type { Atom, FieldDef, MergeSchema, TypeRef } from '../../generated/api-types.ts';
import type { Obj } from './index.ts';

const str: TypeRef = { inline: { scalar: 'string' } };
const num: TypeRef = { inline: { scalar: 'numeric' } };
const named = (n: string): TypeRef => ({ named: n });
const listOf = (elem: TypeRef, keys?: string[]): TypeRef => ({
  inline: { list: { elementType: elem, elementRelationship: keys ? 'associative' : 'atomic', ...(keys ? { keys } : {}) } },
});
const mapOf = (elem: TypeRef): TypeRef => ({ inline: { map: { elementType: elem } } });
const struct = (...fields: FieldDef[]): Atom => ({ map: { fields } });
const f = (name: string, type: TypeRef, patchStrategy?: string, patchMergeKey?: string): FieldDef => ({
  name,
  type,
  ...(patchStrategy ? { patchStrategy } : {}),
  ...(patchMergeKey ? { patchMergeKey } : {}),
});

const P = 'io.k8s.api.core.v1.';
const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

export const DAEMONSET = 'io.k8s.api.apps.v1.DaemonSet';
export const WIDGET = 'test.v1.Widget';

export const testSchema: MergeSchema = {
  types: {
    [DAEMONSET]: struct(
      f('apiVersion', str),
      f('kind', str),
      f('metadata', named(M + 'ObjectMeta')),
      f('spec', named('io.k8s.api.apps.v1.DaemonSetSpec')),
      f('status', mapOf({ named: '__untyped_deduced_' })),
    ),
    [M + 'ObjectMeta']: struct(
      f('name', str),
      f('namespace', str),
      f('resourceVersion', str),
      f('labels', mapOf(str)),
      f('annotations', mapOf(str)),
      f('finalizers', listOf(str, []), 'merge'),
      f('ownerReferences', listOf(named(M + 'OwnerReference'), ['uid']), 'merge', 'uid'),
    ),
    [M + 'OwnerReference']: struct(f('uid', str), f('name', str), f('kind', str), f('apiVersion', str)),
    'io.k8s.api.apps.v1.DaemonSetSpec': struct(
      f('selector', named(M + 'LabelSelector')),
      f('template', named(P + 'PodTemplateSpec')),
      f('updateStrategy', named('io.k8s.api.apps.v1.DaemonSetUpdateStrategy'), 'retainKeys'),
      f('minReadySeconds', num),
    ),
    'io.k8s.api.apps.v1.DaemonSetUpdateStrategy': struct(f('type', str), f('rollingUpdate', mapOf(str))),
    [M + 'LabelSelector']: struct(f('matchLabels', mapOf(str))),
    [P + 'PodTemplateSpec']: struct(f('metadata', named(M + 'ObjectMeta')), f('spec', named(P + 'PodSpec'))),
    [P + 'PodSpec']: struct(
      f('containers', listOf(named(P + 'Container'), ['name']), 'merge', 'name'),
      f('initContainers', listOf(named(P + 'Container'), ['name']), 'merge', 'name'),
      f('volumes', listOf(named(P + 'Volume'), ['name']), 'merge,retainKeys', 'name'),
      f('tolerations', listOf(named(P + 'Toleration'))),
      f('nodeSelector', mapOf(str)),
      f('hostAliases', listOf(named(P + 'HostAlias'), ['ip']), 'merge', 'ip'),
      f('serviceAccountName', str),
    ),
    [P + 'HostAlias']: struct(f('ip', str), f('hostnames', listOf(str))),
    [P + 'Toleration']: struct(f('key', str), f('operator', str), f('effect', str)),
    [P + 'Container']: struct(
      f('name', str),
      f('image', str),
      f('args', listOf(str)),
      f('command', listOf(str)),
      f('env', listOf(named(P + 'EnvVar'), ['name']), 'merge', 'name'),
      f('ports', listOf(named(P + 'ContainerPort'), ['containerPort', 'protocol']), 'merge', 'containerPort'),
      f('volumeMounts', listOf(named(P + 'VolumeMount'), ['mountPath']), 'merge', 'mountPath'),
      f('resources', named(P + 'ResourceRequirements')),
    ),
    [P + 'EnvVar']: struct(f('name', str), f('value', str), f('valueFrom', mapOf({ named: '__untyped_deduced_' }))),
    [P + 'ContainerPort']: struct(f('containerPort', num), f('name', str), f('protocol', str), f('hostPort', num)),
    [P + 'VolumeMount']: struct(f('name', str), f('mountPath', str), f('readOnly', { inline: { scalar: 'boolean' } })),
    [P + 'ResourceRequirements']: struct(f('limits', mapOf(str)), f('requests', mapOf(str))),
    [P + 'Volume']: struct(
      f('name', str),
      f('hostPath', mapOf(str)),
      f('emptyDir', mapOf(str)),
      f('configMap', mapOf({ named: '__untyped_deduced_' })),
      f('secret', mapOf({ named: '__untyped_deduced_' })),
    ),
    [P + 'ConfigMap']: struct(f('apiVersion', str), f('kind', str), f('metadata', named(M + 'ObjectMeta')), f('data', mapOf(str))),
    // A type exercising strategies the DaemonSet does not have.
    [WIDGET]: struct(
      f('replaced', mapOf(str), 'replace'),
      f('mergedStrings', listOf(str, []), 'merge'),
      f('atomicStrings', listOf(str)),
      f('items', listOf(named('test.v1.Item'), ['id']), 'merge', 'id'),
      f('keyless', listOf(named('test.v1.Item')), 'merge'),
      f('matrix', listOf(listOf(str)), 'merge'),
      f('badStrategy', mapOf(str), 'merge,replace'),
      f('union', named('test.v1.Union'), 'retainKeys'),
    ),
    'test.v1.Item': struct(f('id', num), f('value', str), f('tags', listOf(str, []), 'merge')),
    'test.v1.Union': struct(f('type', str), f('a', str), f('b', str), f('c', mapOf(str))),
  },
};

/** A live DaemonSet as the server stores it. */
export function liveDaemonSet(): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: 'agent',
      namespace: 'default',
      resourceVersion: '7',
      labels: { app: 'agent', tier: 'node' },
      finalizers: ['a.example.com/one', 'b.example.com/two'],
    },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '1' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: {
          containers: [
            {
              name: 'agent',
              image: 'agent:1.0',
              args: ['--verbose', '--port=9000'],
              env: [
                { name: 'MODE', value: 'node' },
                { name: 'LEVEL', value: 'info' },
              ],
              ports: [{ containerPort: 9000, protocol: 'TCP' }],
              volumeMounts: [{ name: 'logs', mountPath: '/var/log' }],
            },
            { name: 'sidecar', image: 'sidecar:2.0' },
          ],
          volumes: [
            { name: 'logs', hostPath: { path: '/var/log', type: 'Directory' } },
            { name: 'cache', emptyDir: { medium: 'Memory' } },
          ],
          tolerations: [{ key: 'node-role', operator: 'Exists', effect: 'NoSchedule' }],
          nodeSelector: { os: 'linux' },
        },
      },
    },
  };
}
