// What an authorizer is asked: who (the user), what (the verb) and on what
// (a resource request's group, version, resource, subresource, namespace and
// name, or a non-resource path), as upstream's authorizer.Attributes. The
// field names match runtime/http/request-info.ts so a parsed request is
// already most of its attributes.

import type { UserInfo } from '../auth/user.ts';

export interface Attributes {
  user: UserInfo;
  /** get, list, watch, create, update, patch, delete, deletecollection, or a special verb (impersonate, bind, escalate, use, approve, sign); lower-cased methods for non-resource paths. */
  verb: string;
  isResourceRequest: boolean;
  /** The request path (non-resource requests). */
  path: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  name: string;
}

/** Attributes of a resource request, with empty strings for what is not given. */
export function resourceAttributes(user: UserInfo, verb: string, r: Partial<Omit<Attributes, 'user' | 'verb' | 'isResourceRequest' | 'path'>>): Attributes {
  return {
    user,
    verb,
    isResourceRequest: true,
    path: '',
    namespace: r.namespace ?? '',
    apiGroup: r.apiGroup ?? '',
    apiVersion: r.apiVersion ?? '',
    resource: r.resource ?? '',
    subresource: r.subresource ?? '',
    name: r.name ?? '',
  };
}

/** Attributes of a non-resource request (a path). */
export function pathAttributes(user: UserInfo, verb: string, path: string): Attributes {
  return { user, verb, isResourceRequest: false, path, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}
