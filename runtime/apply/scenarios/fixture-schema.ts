// A hand-written merge schema for the scenario tests: a Deployment-like kind
// exercising every list type (atomic, set, map, map with a defaulted key),
// map types (granular, atomic by override), nested structs, an untyped
// (deduced) field and a status. Boundary: test data only.
import type { MergeSchema, TypeRef } from '../../../generated/api-types.ts';

const str: TypeRef = { inline: { scalar: 'string' } };
const num: TypeRef = { inline: { scalar: 'numeric' } };
const bool: TypeRef = { inline: { scalar: 'boolean' } };
const strMap: TypeRef = { inline: { map: { elementType: str } } };
const atomicStrList: TypeRef = { inline: { list: { elementType: str, elementRelationship: 'atomic' } } };
const strSet: TypeRef = { inline: { list: { elementType: str, elementRelationship: 'associative' } } };
const listMap = (named: string, keys: string[]): TypeRef => ({
  inline: { list: { elementType: { named }, elementRelationship: 'associative', keys } },
});

export const fixtureSchema: MergeSchema = {
  types: {
    Thing: {
      map: {
        fields: [
          { name: 'apiVersion', type: str },
          { name: 'kind', type: str },
          { name: 'metadata', type: { named: 'Meta' } },
          { name: 'spec', type: { named: 'Spec' } },
          { name: 'status', type: { named: 'Status' } },
        ],
      },
    },
    Meta: {
      map: {
        fields: [
          { name: 'name', type: str },
          { name: 'namespace', type: str },
          { name: 'uid', type: str },
          { name: 'resourceVersion', type: str },
          { name: 'generation', type: num },
          { name: 'creationTimestamp', type: str },
          { name: 'labels', type: strMap },
          { name: 'annotations', type: strMap },
          { name: 'finalizers', type: strSet, patchStrategy: 'merge' },
          { name: 'managedFields', type: { inline: { list: { elementType: { named: '__untyped_atomic_' }, elementRelationship: 'atomic' } } } },
        ],
      },
    },
    Selector: { map: { fields: [{ name: 'matchLabels', type: strMap }] } },
    Spec: {
      map: {
        fields: [
          { name: 'replicas', type: num, default: 1 },
          { name: 'paused', type: bool },
          { name: 'selector', type: { named: 'Selector', elementRelationship: 'atomic' } },
          { name: 'args', type: atomicStrList },
          { name: 'tags', type: strSet },
          { name: 'config', type: strMap },
          { name: 'frozen', type: { inline: { map: { elementType: str, elementRelationship: 'atomic' } } } },
          { name: 'containers', type: listMap('Container', ['name']), patchStrategy: 'merge', patchMergeKey: 'name' },
          { name: 'ports', type: listMap('Port', ['containerPort', 'protocol']) },
          { name: 'template', type: { named: 'Template' } },
          { name: 'strategy', type: { named: 'Strategy' } },
          { name: 'extra', type: { named: '__untyped_deduced_' } },
        ],
      },
    },
    Template: {
      map: {
        fields: [
          { name: 'labels', type: strMap },
          { name: 'containers', type: listMap('Container', ['name']) },
        ],
      },
    },
    Strategy: {
      map: {
        fields: [
          { name: 'type', type: str, default: 'RollingUpdate' },
          { name: 'rollingUpdate', type: { named: 'RollingUpdate' } },
        ],
      },
    },
    RollingUpdate: { map: { fields: [{ name: 'maxSurge', type: str }] } },
    Container: {
      map: {
        fields: [
          { name: 'name', type: str },
          { name: 'image', type: str },
          { name: 'args', type: atomicStrList },
          { name: 'env', type: listMap('Env', ['name']) },
          { name: 'resources', type: { named: 'Resources' } },
        ],
      },
    },
    Env: {
      map: {
        fields: [
          { name: 'name', type: str },
          { name: 'value', type: str },
        ],
      },
    },
    Resources: { map: { fields: [{ name: 'limits', type: strMap }] } },
    Port: {
      map: {
        fields: [
          { name: 'containerPort', type: num },
          { name: 'protocol', type: str, default: 'TCP' },
          { name: 'name', type: str },
        ],
      },
    },
    Status: {
      map: {
        fields: [
          { name: 'replicas', type: num },
          { name: 'conditions', type: listMap('Condition', ['type']) },
        ],
      },
    },
    Condition: {
      map: {
        fields: [
          { name: 'type', type: str },
          { name: 'status', type: str },
        ],
      },
    },
  },
};
