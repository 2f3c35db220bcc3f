// Validation of admission rules and match resources, row by row, with
// upstream's field paths and texts; and the match resources' defaults.
import { describe, expect, it } from 'vitest';
import type { Obj } from '../../../storage/interface.ts';
import { defaultMatchResources, matchResourcesErrors, ruleWithOperationsErrors } from './rules.ts';

const rule = (over: Obj = {}): Obj => ({ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], ...over });
const show = (errs: { type: string; field: string; detail: string }[]) => errs.map((e) => `${e.type} ${e.field} ${e.detail}`.trim());

describe('ruleWithOperationsErrors', () => {
  it.each([
    ['a good rule', rule(), []],
    ['no operations', rule({ operations: [] }), ['FieldValueRequired r.operations']],
    ['an unknown operation', rule({ operations: ['PATCH'] }), ['FieldValueNotSupported r.operations[0] supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"']],
    ['`*` with others', rule({ apiGroups: ['*', 'apps'] }), ["FieldValueInvalid r.apiGroups if '*' is present, must not specify other API groups"]],
    ['an empty version', rule({ apiVersions: [''] }), ['FieldValueRequired r.apiVersions[0]']],
    ['no resources', rule({ resources: [] }), ['FieldValueRequired r.resources']],
    ['`*/*` with others', rule({ resources: ['*/*', 'pods'] }), ["FieldValueInvalid r.resources if '*/*' is present, must not specify other resources"]],
    ['`*` with a plain resource', rule({ resources: ['*', 'pods'] }), ["FieldValueInvalid r.resources if '*' is present, must not specify other resources without subresources"]],
    ['`pods/*` then `pods/status`', rule({ resources: ['pods/*', 'pods/status'] }), ["FieldValueInvalid r.resources[1] if 'pods/*' is present, must not specify pods/status"]],
    ['`*/scale` then `deployments/scale`', rule({ resources: ['*/scale', 'deployments/scale'] }), ["FieldValueInvalid r.resources[1] if '*/scale' is present, must not specify deployments/scale"]],
    ['a bad scope', rule({ scope: 'Global' }), ['FieldValueNotSupported r.scope supported values: "*", "Cluster", "Namespaced"']],
  ] as [string, Obj, string[]][])('%s', (_n, r, want) => {
    expect(show(ruleWithOperationsErrors(r, 'r'))).toEqual(want);
  });
});

describe('matchResourcesErrors', () => {
  it('needs matchPolicy and both selectors (set by the defaults), and checks names and rules', () => {
    expect(show(matchResourcesErrors({ resourceRules: [rule({ resourceNames: ['a', 'a', 'b/c'] })] }, 'm'))).toEqual([
      'FieldValueRequired m.matchPolicy',
      'FieldValueRequired m.namespaceSelector',
      'FieldValueRequired m.objectSelector',
      'FieldValueDuplicate m.resourceRules[0].resourceNames[1]',
      "FieldValueInvalid m.resourceRules[0].resourceNames[2] may not contain '/'",
    ]);
    const m: Obj = { resourceRules: [rule()], excludeResourceRules: [rule()] };
    defaultMatchResources(m);
    expect(m).toMatchObject({ matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, resourceRules: [{ scope: '*' }], excludeResourceRules: [{ scope: '*' }] });
    expect(matchResourcesErrors(m, 'm')).toEqual([]);
    expect(show(matchResourcesErrors({ ...m, matchPolicy: 'Fuzzy' }, 'm'))).toEqual(['FieldValueNotSupported m.matchPolicy supported values: "Equivalent", "Exact"']);
  });
});
