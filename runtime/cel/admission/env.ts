// The variables of Kubernetes admission expressions (matchConditions of
// webhooks and policies, ValidatingAdmissionPolicy validations, messages,
// audit annotations and variables): `object` and `oldObject` dynamic,
// `request` typed as upstream's kubernetes.AdmissionRequest,
// `namespaceObject` as its kubernetes.Namespace, `authorizer` and
// `authorizer.requestResource`, and for policies `params` (with a
// paramKind) and `variables` (an object with a field per variable, typed
// as its expression compiled). Data only; the compile functions are in
// compile.ts, loaded when needed.

import type { VarDecl } from '../compile.ts';

/** At most this many matchConditions (webhooks and policies). */
export const MAX_MATCH_CONDITIONS = 64;

const str = { type: 'string' } as const;
const gvk = { type: 'object', properties: { group: str, version: str, kind: str } } as const;
const gvr = { type: 'object', properties: { group: str, version: str, resource: str } } as const;

/** The CEL declaration of `request` (kubernetes.AdmissionRequest: field names as sent, `options` dynamic). */
export const REQUEST_VAR: VarDecl = {
  nativeType: {
    type: 'object',
    properties: {
      kind: gvk,
      resource: gvr,
      subResource: str,
      requestKind: gvk,
      requestResource: gvr,
      requestSubResource: str,
      name: str,
      namespace: str,
      operation: str,
      userInfo: {
        type: 'object',
        properties: {
          username: str,
          uid: str,
          groups: { type: 'array', items: str },
          extra: { type: 'object', additionalProperties: { type: 'array', items: str } },
        },
      },
      dryRun: { type: 'boolean' },
      options: { 'x-kubernetes-preserve-unknown-fields': true },
    },
  },
};

/**
 * The CEL declaration of `namespaceObject`: upstream's hand-made
 * kubernetes.Namespace type (BuildNamespaceType: some metadata fields, the
 * spec's finalizers, the status' phase and conditions; its uid field is
 * spelled `UID`, as upstream's).
 */
export const NAMESPACE_VAR: VarDecl = {
  nativeType: {
    type: 'object',
    properties: {
      metadata: {
        type: 'object',
        properties: {
          name: str,
          generateName: str,
          namespace: str,
          labels: { type: 'object', additionalProperties: str },
          annotations: { type: 'object', additionalProperties: str },
          UID: str,
          creationTimestamp: { type: 'string', format: 'date-time' },
          deletionGracePeriodSeconds: { type: 'integer' },
          deletionTimestamp: { type: 'string', format: 'date-time' },
          generation: { type: 'integer' },
          resourceVersion: str,
          finalizers: { type: 'array', items: str },
        },
      },
      spec: { type: 'object', properties: { finalizers: { type: 'array', items: str } } },
      status: {
        type: 'object',
        properties: {
          conditions: {
            type: 'array',
            items: {
              type: 'object',
              properties: { status: str, type: str, lastTransitionTime: { type: 'string', format: 'date-time' }, message: str, reason: str },
            },
          },
          phase: str,
        },
      },
    },
  },
};

/** A policy variable and the type its expression compiled to (a CEL type name: `bool`, `list(string)`, `dyn`). */
export interface VariableType {
  name: string;
  type: string;
}

/** Which optional variables an expression may use: `params` (a policy with paramKind), `variables` (a policy's, typed by variableTypes). */
export interface ExpressionEnv {
  params?: boolean;
  variables?: boolean;
  /**
   * The policy's variables declared so far, with their types (upstream's
   * composited `variables` object type: a field per variable, an unknown
   * name refused). Absent: `variables` is a map of dynamic values.
   */
  variableTypes?: readonly VariableType[];
}

const DYN: VarDecl = { celType: 'dyn' };
const BASE: Record<string, VarDecl> = {
  object: DYN,
  oldObject: DYN,
  request: REQUEST_VAR,
  namespaceObject: NAMESPACE_VAR,
  authorizer: { celType: 'kubernetes.authorization.Authorizer' },
  'authorizer.requestResource': { celType: 'kubernetes.authorization.ResourceCheck' },
};
const VARIABLES: VarDecl = { celType: 'map(string, dyn)' };
// one object per combination, so the compile cache keys stay cheap
const ENVS = new Map<string, Record<string, VarDecl>>();
const MAX_ENVS = 1000;

type JSONSchemaLike = Record<string, unknown>;

/** The schema of values of a CEL type name; what a schema cannot say (opaque types, objects) is dynamic. */
export function typeNameSchema(name: string): JSONSchemaLike {
  const t = name.trim();
  switch (t) {
    case 'bool':
      return { type: 'boolean' };
    case 'int':
      return { type: 'integer' };
    case 'double':
      return { type: 'number' };
    case 'string':
      return { type: 'string' };
    case 'google.protobuf.Timestamp':
      return { type: 'string', format: 'date-time' };
    case 'google.protobuf.Duration':
      return { type: 'string', format: 'duration' };
  }
  const list = /^list\((.*)\)$/.exec(t);
  if (list) return { type: 'array', items: typeNameSchema(list[1]) };
  const map = /^map\(string, (.*)\)$/.exec(t);
  if (map) return { type: 'object', additionalProperties: typeNameSchema(map[1]) };
  return { 'x-kubernetes-preserve-unknown-fields': true };
}

/** The declarations for an environment; `object` (and `oldObject`) may be given a type (the type checker's). */
export function expressionVars(env: ExpressionEnv = {}): Record<string, VarDecl> {
  const types = env.variables && env.variableTypes ? `|${env.variableTypes.map((v) => `${v.name}:${v.type}`).join(',')}` : '';
  const key = `${env.params ? 'p' : ''}${env.variables ? 'v' : ''}${types}`;
  let vars = ENVS.get(key);
  if (!vars) {
    vars = { ...BASE };
    if (env.params) vars.params = DYN;
    if (env.variables) vars.variables = env.variableTypes ? variablesDecl(env.variableTypes) : VARIABLES;
    if (ENVS.size >= MAX_ENVS) ENVS.delete(ENVS.keys().next().value!);
    ENVS.set(key, vars);
  }
  return vars;
}

function variablesDecl(types: readonly VariableType[]): VarDecl {
  const properties: Record<string, JSONSchemaLike> = {};
  for (const v of types) properties[v.name] = typeNameSchema(v.type);
  return { nativeType: { type: 'object', properties } };
}
