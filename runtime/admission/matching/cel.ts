// CEL for admission at run time: loading the CEL module and the admission
// compile functions (runtime/cel/admission/: the variables every admission
// expression sees and how upstream's validation reports compile errors),
// and the variables' values for one request. The CEL module is large and
// only configurations with expressions need it: loadAdmissionCel() is
// awaited (by the watchers) before anything compiles.

import type { Authorizer } from '../../authz/authorizer.ts';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionAttributes } from '../chain.ts';
import { celAuthorizer } from './authorizer.ts';
import type { AdmissionRequest } from './request.ts';

let cel: typeof import('../../cel/index.ts') | undefined;
let compiler: typeof import('../../cel/admission/compile.ts') | undefined;

/** Loads the CEL module and the admission compile functions (matchConditions, policies). */
export async function loadAdmissionCel(): Promise<void> {
  cel ??= await import('../../cel/index.ts');
  compiler ??= await import('../../cel/admission/compile.ts');
}

export function admissionCel(): typeof import('../../cel/index.ts') {
  if (!cel) throw new Error('admission CEL is not loaded (await loadAdmissionCel() first)');
  return cel;
}

/** compileExpression and compileMatchConditions (runtime/cel/admission/compile.ts), once loaded. */
export function admissionCompiler(): typeof import('../../cel/admission/compile.ts') {
  if (!compiler) throw new Error('admission CEL is not loaded (await loadAdmissionCel() first)');
  return compiler;
}

/** What one request's expressions are evaluated with. */
export interface ActivationInput {
  attrs: AdmissionAttributes;
  request: AdmissionRequest;
  /** The server's authorizer (absent: `authorizer` is not bound). */
  authorizer?: Authorizer;
  namespaceObject?: Obj | null;
  params?: unknown;
  variables?: Record<string, unknown>;
}

/** The variables' values for one request. */
export function activation(input: ActivationInput): Record<string, unknown> {
  const { attrs, request } = input;
  const act: Record<string, unknown> = {
    object: attrs.object ?? null,
    oldObject: attrs.oldObject ?? null,
    request,
    namespaceObject: input.namespaceObject ?? null,
  };
  if (input.authorizer) {
    const c = admissionCel();
    const a = c.authorizerFor(celAuthorizer(input.authorizer, attrs.user), attrs.user);
    act.authorizer = a;
    act['authorizer.requestResource'] = c.requestResourceCheck(a, {
      group: request.resource.group,
      resource: request.resource.resource,
      subresource: request.subResource ?? '',
      namespace: request.namespace ?? '',
      name: request.name ?? '',
    });
  }
  if ('params' in input) act.params = input.params ?? null;
  if (input.variables) act.variables = input.variables;
  return act;
}
