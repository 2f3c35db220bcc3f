// The params of one binding (upstream's CollectParams): none when the
// policy has no paramKind or the binding no paramRef (one evaluation
// without params); otherwise the object named by paramRef.name or every
// object paramRef.selector matches, in paramRef.namespace or the request's
// namespace for a namespaced paramKind; none found is allowed
// (parameterNotFoundAction Allow) or an error (Deny).

import { ApiError } from '../../api/errors.ts';
import { selectorMatches } from '../../api/label-selector.ts';
import type { ApiIndex } from '../../registry/served.ts';
import type { Obj } from '../../storage/interface.ts';

/** Where params are read: the served resource of a paramKind. */
export interface ParamSource {
  /** undefined: no served resource has this apiVersion and kind. */
  resolve(apiVersion: string, kind: string): ParamResource | undefined;
}

export interface ParamResource {
  namespaced: boolean;
  get(namespace: string, name: string): Promise<Obj | undefined>;
  list(namespace: string): Promise<Obj[]>;
}

export function apiParamSource(api: ApiIndex): ParamSource {
  return {
    resolve(apiVersion, kind) {
      const i = apiVersion.indexOf('/');
      const group = i < 0 ? '' : apiVersion.slice(0, i);
      const version = i < 0 ? apiVersion : apiVersion.slice(i + 1);
      const served = api.served.find((s) => s.def.group === group && s.def.version === version && s.def.kind === kind);
      if (!served) return undefined;
      const { store } = served;
      return {
        namespaced: served.def.namespaced,
        async get(namespace, name) {
          try {
            return await store.get(namespace, name);
          } catch (err) {
            if (err instanceof ApiError && err.code === 404) return undefined;
            throw err;
          }
        },
        async list(namespace) {
          return (await store.list(namespace, {})).items;
        },
      };
    },
  };
}

/** null: evaluate once without params. */
export async function collectParams(source: ParamSource, paramKind: Obj | undefined, paramRef: Obj | undefined, requestNamespace: string): Promise<(Obj | null)[]> {
  if (!paramKind) return [null];
  const res = source.resolve(String(paramKind.apiVersion ?? ''), String(paramKind.kind ?? ''));
  if (paramRef && !res) throw new Error(`paramKind kind \`${paramKindString(paramKind)}\` not known`);
  if (!paramRef || !res) return [null];
  let namespace = '';
  if (res.namespaced) {
    namespace = paramRef.namespace || requestNamespace;
    if (!namespace) throw new Error('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
  } else if (paramRef.namespace) {
    throw new Error('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
  }
  let params: Obj[] = [];
  if (paramRef.name) {
    const p = await res.get(namespace, String(paramRef.name));
    if (p) params = [p];
  } else if (paramRef.selector) {
    params = (await res.list(namespace)).filter((p) => selectorMatches(paramRef.selector, p.metadata?.labels ?? {}));
  } else {
    throw new Error('one of name or selector must be provided');
  }
  if (params.length === 0 && paramRef.parameterNotFoundAction === 'Deny') throw new Error('no params found for policy binding with `Deny` parameterNotFoundAction');
  return params;
}

/** Go's %v of a ParamKind: `&ParamKind{APIVersion:v1,Kind:ConfigMap,}`. */
function paramKindString(pk: Obj): string {
  return `&ParamKind{APIVersion:${pk.apiVersion ?? ''},Kind:${pk.kind ?? ''},}`;
}
