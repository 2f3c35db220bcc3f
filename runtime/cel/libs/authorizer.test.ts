// Table tests of the authorizer library against a table-driven fake authorizer.
import { describe, it, expect } from 'vitest';
import { compileRule } from '../compile.ts';
import { authorizerFor, type AuthorizationAttributes, type Authorizer } from '../index.ts';

// A table authorizer: allows exactly the listed (user, verb, target) triples.
const table: [string, string, string, string][] = [
  ['alice', 'get', 'apps/deployments', 'ok-deploy'],
  ['alice', 'update', 'apps/deployments/scale', 'ok-scale'],
  ['alice', 'get', '/healthz', 'ok-path'],
  ['system:serviceaccount:ns1:sa', 'list', 'core/pods', 'ok-sa'],
];
const seen: AuthorizationAttributes[] = [];
const authz: Authorizer = {
  authorize(a) {
    seen.push(a);
    const target = a.resourceRequest ? `${a.group || 'core'}/${a.resource}${a.subresource ? `/${a.subresource}` : ''}` : a.path!;
    const row = table.find(([u, v, t]) => u === a.user.name && v === a.verb && t === target);
    return row ? { decision: 'allow', reason: row[3] } : { decision: 'deny', reason: 'not in table' };
  },
};

function check(expr: string): unknown {
  const c = compileRule(expr, { vars: { authorizer: { celType: 'kubernetes.authorization.Authorizer' } }, resultType: 'any' });
  if (!c.ok) throw new Error(c.errors[0].message);
  const r = c.program.evaluate({ authorizer: authorizerFor(authz, { name: 'alice' }) });
  if (!r.ok) throw new Error(r.error);
  return r.json;
}

describe('authorizer library', () => {
  it.each<[string, unknown]>([
    ["authorizer.group('apps').resource('deployments').check('get').allowed()", true],
    ["authorizer.group('apps').resource('deployments').check('delete').allowed()", false],
    ["authorizer.group('apps').resource('deployments').check('get').reason()", 'ok-deploy'],
    ["authorizer.group('apps').resource('deployments').subresource('scale').namespace('x').name('y').check('update').allowed()", true],
    ["authorizer.path('/healthz').check('get').allowed()", true],
    ["authorizer.path('/metrics').check('get').allowed()", false],
    ["authorizer.serviceAccount('ns1', 'sa').group('').resource('pods').check('list').allowed()", true],
    ["authorizer.serviceAccount('ns1', 'other').group('').resource('pods').check('list').allowed()", false],
    ["authorizer.group('apps').resource('deployments').check('get').errored()", false],
  ])('%s', (expr, want) => {
    expect(check(expr)).toEqual(want);
  });

  it('passes namespace and name through', () => {
    seen.length = 0;
    check("authorizer.group('apps').resource('deployments').namespace('ns').name('n').check('get').allowed()");
    expect(seen[0]).toMatchObject({ verb: 'get', group: 'apps', resource: 'deployments', namespace: 'ns', name: 'n', resourceRequest: true, user: { name: 'alice' } });
  });

  it.each([
    ["authorizer.resource('pods')", 'no matching overload'],
    ["authorizer.group('apps').check('get')", 'no matching overload'],
    ['authorizer.group(1)', 'no matching overload'],
  ])('%s is a type error', (expr, msg) => {
    expect(() => check(expr)).toThrow(msg);
  });
});
