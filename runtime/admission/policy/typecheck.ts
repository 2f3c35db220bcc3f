// Type checking of a ValidatingAdmissionPolicy, as upstream's policy type
// checker: the kinds its matchConstraints name exactly (no wildcard group,
// version or resource; subresources left out; at most 10) are resolved
// against the served resources, and every validation's expression and
// messageExpression is compiled with `object` and `oldObject` typed by
// each kind's schema (a built-in kind's OpenAPI schema or a custom
// resource's published CRD schema), `params` by its paramKind's schema
// (declared only when that schema is known, as upstream's checker),
// `namespaceObject` as the admission environment's Namespace and
// `variables` by what each variable compiles to. What fails becomes an
// expression warning (status.typeChecking.expressionWarnings): the field
// it is about and `<group/version, Kind=kind>: <the compiler's message>`
// per kind, one line each when several kinds fail.

import type { JSONSchema, RefResolver } from '../../cel/index.ts';
import { expressionVars, type ExpressionEnv, type VariableType } from '../../cel/admission/env.ts';
import type { Obj } from '../../storage/interface.ts';
import { admissionCompiler } from '../matching/cel.ts';
import type { GroupVersionKind } from '../matching/rules.ts';

const MAX_TYPES_TO_CHECK = 10;

export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

/** A kind's schema with how its references resolve. */
export interface KindSchema {
  schema: JSONSchema;
  resolveRef: RefResolver;
}

export interface TypeCheckServices {
  /** The kinds a served group/version/resource holds (empty when not served). */
  kindsFor(group: string, version: string, resource: string): GroupVersionKind[];
  /** The schema of a kind (undefined: none known, `object` stays dynamic and nothing is reported for it). */
  schemaFor(gvk: GroupVersionKind): KindSchema | undefined;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const gvkString = (k: GroupVersionKind) => `${k.group ? `${k.group}/` : ''}${k.version}, Kind=${k.kind}`;

/** The kinds to check, sorted as upstream (by group, version, kind) and deduplicated. */
export function kindsToCheck(policy: Obj, services: TypeCheckServices): GroupVersionKind[] {
  const found = new Map<string, GroupVersionKind>();
  let count = 0;
  for (const rule of Array.isArray(policy.spec?.matchConstraints?.resourceRules) ? policy.spec.matchConstraints.resourceRules : []) {
    const groups = strings(rule?.apiGroups);
    const versions = strings(rule?.apiVersions);
    const resources = strings(rule?.resources).filter((r) => r !== '*' && !r.includes('/'));
    if (groups.includes('*') || versions.includes('*') || !groups.length || !versions.length || !resources.length) continue;
    for (const g of [...groups].sort())
      for (const v of [...versions].sort())
        for (const r of [...resources].sort()) {
          for (const k of services.kindsFor(g, v, r)) {
            found.set(gvkString(k), k);
            if (++count >= MAX_TYPES_TO_CHECK) return sorted(found);
          }
        }
  }
  return sorted(found);
}

function sorted(m: Map<string, GroupVersionKind>): GroupVersionKind[] {
  return [...m.values()].sort((a, b) => a.group.localeCompare(b.group) || a.version.localeCompare(b.version) || a.kind.localeCompare(b.kind));
}

/** The kind a policy's paramKind names (undefined: none, or an apiVersion that does not parse). */
export function paramKindOf(policy: Obj): GroupVersionKind | undefined {
  const pk = policy.spec?.paramKind;
  if (!pk || typeof pk.apiVersion !== 'string' || typeof pk.kind !== 'string' || !pk.kind) return undefined;
  const parts = pk.apiVersion.split('/');
  if (parts.length > 2 || !parts[parts.length - 1]) return undefined;
  return parts.length === 2 ? { group: parts[0], version: parts[1], kind: pk.kind } : { group: '', version: parts[0], kind: pk.kind };
}

/** The policy's expression warnings (empty: nothing to report). Needs loadAdmissionCel(). */
export function typeCheckPolicy(policy: Obj, services: TypeCheckServices): ExpressionWarning[] {
  const kinds = kindsToCheck(policy, services)
    .map((k) => ({ k, s: services.schemaFor(k) }))
    .filter((x): x is { k: GroupVersionKind; s: KindSchema } => x.s !== undefined);
  if (kinds.length === 0) return [];
  // as upstream's checker, `params` is declared (typed by its kind's schema) only when that schema is known
  const paramKind = paramKindOf(policy);
  const params = paramKind ? services.schemaFor(paramKind) : undefined;
  const compiler = admissionCompiler();
  const variables: Obj[] = Array.isArray(policy.spec?.variables) ? policy.spec.variables : [];
  // per kind: the declarations with `object` typed, and the variables typed as they compile against it
  const typed = kinds.map(({ k, s }) => {
    const resolveRef: RefResolver = params ? (ref) => s.resolveRef(ref) ?? params.resolveRef(ref) : s.resolveRef;
    const declare = (env: ExpressionEnv) => ({ ...expressionVars(env), object: s.schema, oldObject: s.schema, ...(params ? { params: params.schema } : {}) });
    const variableTypes: VariableType[] = [];
    for (const v of variables) {
      const env: ExpressionEnv = { params: params !== undefined, variables: true, variableTypes: [...variableTypes] };
      const r = typeof v?.expression === 'string' ? compiler.compileExpression(v.expression, '', env, 'any', { vars: declare(env), resolveRef }) : {};
      variableTypes.push({ name: String(v?.name ?? ''), type: r.program?.resultType ?? 'dyn' });
    }
    const env: ExpressionEnv = { params: params !== undefined, variables: true, variableTypes };
    return { k, env, vars: declare(env), resolveRef };
  });
  const check = (expr: string): string | undefined => {
    const results: string[] = [];
    for (const { k, env, vars, resolveRef } of typed) {
      const r = compiler.compileExpression(expr, '', env, 'any', { vars, resolveRef });
      if (r.messages?.length) results.push(`${gvkString(k)}: ${r.messages.map((m) => m.replace(/^compilation failed: /, '')).join('\n')}`);
    }
    if (results.length === 0) return undefined;
    return results.length === 1 ? results[0] : results.map((x) => `${x}\n`).join('');
  };
  const warnings: ExpressionWarning[] = [];
  (Array.isArray(policy.spec?.validations) ? policy.spec.validations : []).forEach((v: Obj, i: number) => {
    if (typeof v?.expression === 'string') {
      const w = check(v.expression);
      if (w) warnings.push({ fieldRef: `spec.validations[${i}].expression`, warning: w });
    }
    if (typeof v?.messageExpression === 'string' && v.messageExpression) {
      const w = check(v.messageExpression);
      if (w) warnings.push({ fieldRef: `spec.validations[${i}].messageExpression`, warning: w });
    }
  });
  return warnings;
}
