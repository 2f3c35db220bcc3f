// One policy evaluated for one request, table by table: the message of a
// failed validation (messageExpression, message, `failed expression:`),
// its reason, evaluation errors under Fail and Ignore, matchConditions,
// variables, audit annotations and the shared cost budget.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Obj } from '../../storage/interface.ts';
import { loadAdmissionCel } from '../matching/cel.ts';
import { compilePolicy, evaluatePolicy, type Decision } from './evaluate.ts';

beforeAll(loadAdmissionCel);

const policy = (spec: Obj): Obj => ({ metadata: { name: 'p', generation: 1 }, spec: { failurePolicy: 'Fail', ...spec } });
const act = (object: Obj, params: unknown = null) => ({ object, oldObject: null, request: { operation: 'CREATE' }, params, namespaceObject: null });
const run = (spec: Obj, object: Obj = { spec: { replicas: 5 } }, params?: unknown, budget?: number) => {
  const c = compilePolicy(policy(spec));
  if (!c.ok) throw new Error(c.error);
  return evaluatePolicy(c.policy, act(object, params), budget);
};
const denials = (ds: Decision[]) => ds.filter((d) => d.action === 'deny').map((d) => [d.message, d.reason ?? '']);

describe('evaluatePolicy', () => {
  it.each([
    ['passes', [{ expression: 'object.spec.replicas < 10' }], []],
    ['no message: the expression', [{ expression: ' object.spec.replicas < 3 ' }], [['failed expression: object.spec.replicas < 3', 'Invalid']]],
    ['the message, trimmed', [{ expression: 'object.spec.replicas < 3', message: ' too many ' }], [['too many', 'Invalid']]],
    ['messageExpression wins', [{ expression: 'object.spec.replicas < 3', message: 'm', messageExpression: "'got ' + string(object.spec.replicas)" }], [['got 5', 'Invalid']]],
    ['an empty messageExpression result falls back', [{ expression: 'object.spec.replicas < 3', message: 'm', messageExpression: "'  '" }], [['m', 'Invalid']]],
    ['a multi-line messageExpression result falls back', [{ expression: 'object.spec.replicas < 3', message: 'm', messageExpression: "'a\\nb'" }], [['m', 'Invalid']]],
    ['the reason', [{ expression: 'object.spec.replicas < 3', reason: 'Forbidden' }], [['failed expression: object.spec.replicas < 3', 'Forbidden']]],
    ['an error under Fail', [{ expression: "object.spec.x == 'a'" }], [[expect.stringMatching(/^expression 'object\.spec\.x == 'a'' resulted in error: /), '']]],
  ] as [string, Obj[], unknown[]][])('%s', (_n, validations, want) => {
    expect(denials(run({ validations }).decisions)).toEqual(want);
  });

  it('an error under Ignore admits', () => {
    expect(denials(run({ failurePolicy: 'Ignore', validations: [{ expression: "object.spec.x == 'a'" }] }).decisions)).toEqual([]);
  });

  it('matchConditions: false skips the validations, an error follows the failure policy', () => {
    const validations = [{ expression: 'false' }];
    expect(run({ matchConditions: [{ name: 'big', expression: 'object.spec.replicas > 10' }], validations }).decisions).toEqual([]);
    expect(denials(run({ matchConditions: [{ name: 'small', expression: 'object.spec.replicas < 10' }], validations }).decisions)).toEqual(
      [['failed expression: false', '']].map(([m]) => [m, 'Invalid']),
    );
    const err = run({ matchConditions: [{ name: 'e', expression: "object.spec.x == 'a'" }], validations }).decisions;
    expect(err).toHaveLength(1);
    expect(err[0]).toMatchObject({ action: 'deny', error: true, message: expect.stringMatching(/^expression 'object\.spec\.x == 'a'' resulted in error: /) });
  });

  it('variables, in order, each seeing the earlier ones; params', () => {
    const r = run(
      {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        variables: [
          { name: 'max', expression: 'int(params.data.max)' },
          { name: 'over', expression: 'object.spec.replicas > variables.max' },
        ],
        validations: [{ expression: '!variables.over', messageExpression: "'over ' + string(variables.max)" }],
      },
      { spec: { replicas: 5 } },
      { data: { max: '4' } },
    );
    expect(denials(r.decisions)).toEqual([['over 4', 'Invalid']]);
  });

  it('audit annotations: a string is kept under <policy>/<key>, null left out', () => {
    const r = run({
      auditAnnotations: [
        { key: 'replicas', valueExpression: "'r=' + string(object.spec.replicas)" },
        { key: 'none', valueExpression: 'null' },
      ],
    });
    expect(r.audits).toEqual([{ key: 'p/replicas', value: 'r=5' }]);
  });

  it('running out of the budget is one error decision', () => {
    const all = '[1, 2, 3, 4, 5, 6, 7, 8].all(x, x > 0)';
    const r = run({ validations: [{ expression: all }, { expression: all }] }, undefined, undefined, 5);
    expect(r.decisions).toEqual([{ action: 'deny', error: true, message: 'validation failed due to running out of cost budget, no further validation rules will be run', index: 0 }]);
  });
});
