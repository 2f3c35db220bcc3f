// Verbs per path shape: table rows for the shapes that matter most (the
// all-namespaces collection of a namespaced resource serves reads only), and a
// cross-check that, for every served resource, the methods the router accepts
// on each path are exactly the operations the served OpenAPI v2 lists there.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ResourceDef, Verb } from '../../generated/api-types.ts';
import { resources } from '../../generated/registry.ts';
import { checkRoute, pathSegmentNameProblems, verbsAt } from './path-verbs.ts';
import { parseRequestInfo } from './request-info.ts';
import type { ApiError } from '../api/errors.ts';

const def = (group: string, version: string, resource: string): ResourceDef => {
  const d = resources.find((r) => r.group === group && r.version === version && r.resource === resource);
  if (!d) throw new Error(`no ${group}/${version}/${resource}`);
  return d;
};
const configmaps = def('', 'v1', 'configmaps');
const pods = def('', 'v1', 'pods');
const deployments = def('apps', 'v1', 'deployments');
const nodes = def('', 'v1', 'nodes');
const namespaces = def('', 'v1', 'namespaces');
const lsar = def('authorization.k8s.io', 'v1', 'localsubjectaccessreviews');

/** The code checkRoute answers (0: routed). */
function routeCode(d: ResourceDef, method: string, path: string, query = ''): number {
  try {
    checkRoute(d, parseRequestInfo(method, path, new URLSearchParams(query)));
    return 0;
  } catch (err) {
    return (err as ApiError).code;
  }
}

describe('checkRoute', () => {
  const rows: [ResourceDef, string, string, string, number][] = [
    // the all-namespaces collection of a namespaced resource: list and watch only
    [configmaps, 'GET', '/api/v1/configmaps', '', 0],
    [configmaps, 'GET', '/api/v1/configmaps', 'watch=1', 0],
    [configmaps, 'DELETE', '/api/v1/configmaps', '', 405],
    [configmaps, 'POST', '/api/v1/configmaps', '', 405],
    [configmaps, 'PUT', '/api/v1/configmaps', '', 405],
    [configmaps, 'PATCH', '/api/v1/configmaps', '', 405],
    [pods, 'DELETE', '/api/v1/pods', '', 405],
    [deployments, 'DELETE', '/apis/apps/v1/deployments', '', 405],
    [deployments, 'POST', '/apis/apps/v1/deployments', '', 405],
    // the namespaced collection
    [configmaps, 'GET', '/api/v1/namespaces/a/configmaps', '', 0],
    [configmaps, 'POST', '/api/v1/namespaces/a/configmaps', '', 0],
    [configmaps, 'DELETE', '/api/v1/namespaces/a/configmaps', '', 0],
    [configmaps, 'PUT', '/api/v1/namespaces/a/configmaps', '', 405],
    // objects: only under a namespace for namespaced resources
    [configmaps, 'GET', '/api/v1/namespaces/a/configmaps/x', '', 0],
    [configmaps, 'GET', '/api/v1/namespaces/a/configmaps/x', 'watch=1', 0],
    [configmaps, 'DELETE', '/api/v1/namespaces/a/configmaps/x', '', 0],
    [configmaps, 'POST', '/api/v1/namespaces/a/configmaps/x', '', 405],
    [configmaps, 'GET', '/api/v1/configmaps/x', '', 404],
    [configmaps, 'DELETE', '/api/v1/configmaps/x', '', 404],
    // legacy watch paths: GET only
    [configmaps, 'GET', '/api/v1/watch/configmaps', '', 0],
    [configmaps, 'GET', '/api/v1/watch/namespaces/a/configmaps/x', '', 0],
    [configmaps, 'DELETE', '/api/v1/watch/namespaces/a/configmaps', '', 405],
    [configmaps, 'DELETE', '/api/v1/watch/configmaps', '', 405],
    [configmaps, 'POST', '/api/v1/watch/namespaces/a/configmaps', '', 405],
    // cluster-scoped resources
    [nodes, 'DELETE', '/api/v1/nodes', '', 0],
    [nodes, 'POST', '/api/v1/nodes', '', 0],
    [nodes, 'GET', '/api/v1/namespaces/a/nodes', '', 404],
    [nodes, 'DELETE', '/api/v1/namespaces/a/nodes/n', '', 404],
    [namespaces, 'GET', '/api/v1/namespaces/a', '', 0],
    [namespaces, 'PUT', '/api/v1/namespaces/a/finalize', '', 0],
    [namespaces, 'GET', '/api/v1/namespaces/a/finalize', '', 405],
    [namespaces, 'DELETE', '/api/v1/namespaces', '', 405],
    [namespaces, 'GET', '/api/v1/namespaces/a/namespaces', '', 404],
    // subresources as declared
    [pods, 'PUT', '/api/v1/namespaces/a/pods/p/status', '', 0],
    [pods, 'DELETE', '/api/v1/namespaces/a/pods/p/status', '', 405],
    [pods, 'GET', '/api/v1/namespaces/a/pods/p/nothing', '', 404],
    [pods, 'GET', '/api/v1/pods/p/status', '', 404],
    [pods, 'PUT', '/api/v1/namespaces/a/pods/p/status/more', '', 404],
    [deployments, 'PATCH', '/apis/apps/v1/namespaces/a/deployments/d/scale', '', 0],
    [deployments, 'GET', '/apis/apps/v1/watch/namespaces/a/deployments/d/scale', '', 404],
    // proxies: their declared verbs, HEAD and OPTIONS, on .../proxy and .../proxy/{path}
    [pods, 'GET', '/api/v1/namespaces/a/pods/p/proxy/x/y', '', 0],
    [pods, 'DELETE', '/api/v1/namespaces/a/pods/p/proxy/x', '', 0],
    [pods, 'HEAD', '/api/v1/namespaces/a/pods/p/proxy', '', 0],
    [pods, 'OPTIONS', '/api/v1/namespaces/a/pods/p/proxy', '', 0],
    [pods, 'OPTIONS', '/api/v1/namespaces/a/pods/p/proxy/x', '', 0],
    [nodes, 'PATCH', '/api/v1/nodes/n/proxy/metrics', '', 0],
    [pods, 'PROPFIND', '/api/v1/namespaces/a/pods/p/proxy/x', '', 405],
    [pods, 'OPTIONS', '/api/v1/namespaces/a/pods/p/status', '', 405],
    [pods, 'OPTIONS', '/api/v1/namespaces/a/pods/p', '', 405],
    [pods, 'GET', '/api/v1/pods/p/proxy/x', '', 404],
    [pods, 'GET', '/api/v1/watch/namespaces/a/pods/p/proxy/x', '', 404],
    [pods, 'POST', '/api/v1/namespaces/a/pods/p/exec/x', '', 404],
    // a create-only namespaced kind has no all-namespaces path at all
    [lsar, 'POST', '/apis/authorization.k8s.io/v1/namespaces/a/localsubjectaccessreviews', '', 0],
    [lsar, 'POST', '/apis/authorization.k8s.io/v1/localsubjectaccessreviews', '', 404],
    [lsar, 'GET', '/apis/authorization.k8s.io/v1/namespaces/a/localsubjectaccessreviews', '', 405],
    // names no path can carry: 400 after the verb check
    [configmaps, 'DELETE', '/api/v1/namespaces/a/configmaps/..', '', 400],
    [configmaps, 'GET', '/api/v1/namespaces/a/configmaps/.', '', 400],
    [configmaps, 'DELETE', '/api/v1/namespaces/a/configmaps/%2e%2E', '', 400],
    [configmaps, 'DELETE', '/api/v1/namespaces/a/configmaps/a%25b', '', 400],
    [configmaps, 'POST', '/api/v1/namespaces/a/configmaps/..', '', 405],
    [namespaces, 'DELETE', '/api/v1/namespaces/..', '', 400],
    [configmaps, 'DELETE', '/api/v1/namespaces/a/configmaps/#', '', 0],
  ];
  it.each(rows)('%#: %s %s?%s → %i', (d, method, path, query, code) => {
    expect(routeCode(d, method, path, query)).toBe(code);
  });

  it('uses upstream texts for the 405 and the invalid name', () => {
    expect(() => checkRoute(configmaps, parseRequestInfo('DELETE', '/api/v1/configmaps', new URLSearchParams()))).toThrow('the server does not allow this method on the requested resource');
    expect(() => checkRoute(configmaps, parseRequestInfo('DELETE', '/api/v1/namespaces/a/configmaps/..', new URLSearchParams()))).toThrow(`Name parameter invalid: "..": may not be '..'`);
  });
});

describe('pathSegmentNameProblems', () => {
  it.each([
    ['ok', []],
    ['.', ["may not be '.'"]],
    ['..', ["may not be '..'"]],
    ['...', []],
    ['a/b', ["may not contain '/'"]],
    ['a%/b', ["may not contain '/'", "may not contain '%'"]],
    ['#', []],
  ])('%s', (name, want) => {
    expect(pathSegmentNameProblems(name)).toEqual(want);
  });
});

describe('the routes agree with the served OpenAPI v2', () => {
  const doc = JSON.parse(readFileSync(new URL('../../generated/openapi/v2.json', import.meta.url), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  const METHOD: Record<Verb, string> = { get: 'get', list: 'get', watch: 'get', create: 'post', update: 'put', patch: 'patch', delete: 'delete', deletecollection: 'delete' };
  const HTTP = ['get', 'put', 'post', 'delete', 'patch'];

  /** Every path template the router serves for a resource, with its methods. */
  function routed(d: ResourceDef): Map<string, Set<string>> {
    const prefix = d.group ? `/apis/${d.group}/${d.version}` : `/api/${d.version}`;
    const out = new Map<string, Set<string>>();
    const add = (path: string, verbs: Set<Verb>) => {
      if (verbs.size === 0) return;
      const methods = out.get(path) ?? new Set<string>();
      for (const v of verbs) methods.add(METHOD[v]);
      out.set(path, methods);
    };
    for (const watchPath of [false, true]) {
      for (const namespacePath of [false, true]) {
        const base = `${prefix}${watchPath ? '/watch' : ''}${namespacePath ? '/namespaces/{namespace}' : ''}/${d.resource}`;
        add(base, verbsAt(d, 'collection', { namespacePath, watchPath }));
        add(`${base}/{name}`, verbsAt(d, 'object', { namespacePath, watchPath }));
        for (const s of d.subresources) add(`${base}/{name}/${s.name}`, verbsAt(d, 'subresource', { namespacePath, watchPath, subresource: s.name }));
      }
    }
    return out;
  }

  /** The OpenAPI's operations on the same templates (paths of other resources and proxy/{path} left out). */
  function documented(d: ResourceDef): Map<string, Set<string>> {
    const prefix = d.group ? `/apis/${d.group}/${d.version}` : `/api/${d.version}`;
    const re = new RegExp(`^${prefix.replace(/\./g, '\\.')}(/watch)?(/namespaces/\\{namespace\\})?/${d.resource}(/\\{name\\}(/[a-z]+)?)?$`);
    const out = new Map<string, Set<string>>();
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!re.test(path)) continue;
      // the namespace object's own paths (/namespaces/{name}) are not another resource's
      if (d.resource !== 'namespaces' && /\/namespaces\/\{name\}/.test(path)) continue;
      out.set(path, new Set(Object.keys(item).filter((k) => HTTP.includes(k))));
    }
    return out;
  }

  const served = resources.filter((d) => Object.keys(doc.paths).some((p) => p.startsWith(d.group ? `/apis/${d.group}/${d.version}/` : `/api/${d.version}/`)));
  it('covers the served resources', () => {
    expect(served.length).toBeGreaterThan(50);
  });
  it.each(served.map((d) => [`${d.group || 'core'}/${d.version}/${d.resource}`, d] as const))('%s', (_name, d) => {
    const toObj = (m: Map<string, Set<string>>) => Object.fromEntries([...m].map(([k, v]) => [k, [...v].sort()]).sort());
    expect(toObj(routed(d))).toEqual(toObj(documented(d)));
  });
});
