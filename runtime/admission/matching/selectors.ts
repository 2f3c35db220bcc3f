// namespaceSelector and objectSelector of webhooks and admission policies,
// as upstream's predicates/namespace and predicates/object matchers:
// - namespaceSelector is compared with the labels of the request's
//   namespace, read from the watch cache as it stands (live when the cache
//   does not have it: ../lister.ts), as upstream reads its namespace
//   lister; a Namespace being created or updated is compared
//   by its own labels; a cluster-scoped object (other than a Namespace)
//   always matches; an empty selector matches everything; a namespace that
//   does not exist is its 404;
// - objectSelector matches when the object's or the old object's labels
//   match (an empty selector matches everything).

import { ApiError, errors } from '../../api/errors.ts';
import { isEmptySelector, selectorMatches, type LabelSelectorObject } from '../../api/label-selector.ts';
import type { ApiIndex } from '../../registry/served.ts';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionAttributes } from '../chain.ts';
import { cachedGet } from '../lister.ts';

/** Reads a namespace's labels; undefined when there is no such namespace. */
export interface NamespaceSource {
  labels(name: string): Promise<Record<string, string> | undefined>;
  /** The Namespace object itself (the `namespaceObject` variable of policies). */
  get(name: string): Promise<Obj | undefined>;
}

export function apiNamespaceSource(api: ApiIndex): NamespaceSource {
  const get = async (name: string): Promise<Obj | undefined> => {
    const store = api.lookup('', 'v1', 'namespaces')?.store;
    if (!store) return undefined;
    return cachedGet(store, '', name);
  };
  return {
    get,
    async labels(name) {
      const ns = await get(name);
      return ns ? ((ns.metadata?.labels as Record<string, string> | undefined) ?? {}) : undefined;
    },
  };
}

const isNamespaceRequest = (a: AdmissionAttributes) => a.group === '' && a.resource === 'namespaces';

/** The namespace a request is about: its namespace, or for a Namespace the object's own name. */
export function requestNamespace(a: AdmissionAttributes): string {
  return isNamespaceRequest(a) ? a.namespace || a.name : a.namespace;
}

const labelsOf = (o: Obj | null | undefined): Record<string, string> => (o?.metadata?.labels as Record<string, string> | undefined) ?? {};

/** Whether the namespaceSelector matches; an ApiError (the namespace's 404, a read failure as 500) when it cannot be told. */
export async function matchNamespaceSelector(sel: LabelSelectorObject | undefined, a: AdmissionAttributes, source: NamespaceSource): Promise<{ matches: boolean; error?: ApiError }> {
  const nsRequest = isNamespaceRequest(a);
  if (a.namespace === '' && !nsRequest) return { matches: true };
  if (isEmptySelector(sel)) return { matches: true };
  let labels: Record<string, string> | undefined;
  if (nsRequest && a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE')) {
    labels = labelsOf(a.object);
  } else {
    const name = requestNamespace(a);
    try {
      labels = await source.labels(name);
    } catch (err) {
      return { matches: false, error: errors.internal(err) };
    }
    if (labels === undefined) return { matches: false, error: errors.notFound({ group: '', resource: 'namespaces' }, name) };
  }
  return { matches: selectorMatches(sel, labels) };
}

/** Whether the objectSelector matches the object or the old object. */
export function matchObjectSelector(sel: LabelSelectorObject | undefined, a: AdmissionAttributes): boolean {
  if (isEmptySelector(sel)) return true;
  return (a.object != null && selectorMatches(sel, labelsOf(a.object))) || (a.oldObject != null && selectorMatches(sel, labelsOf(a.oldObject)));
}
