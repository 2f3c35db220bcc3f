// One policy evaluated for one request, table by table: the message of a
// failed validation (messageExpression, message, `failed expression:`),
// its reason, evaluation errors under Fail and Ignore, matchConditions,
// variables (evaluated lazily, once per evaluation, a failing one failing
// only what uses it), audit annotations and the shared cost budget.
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

  describe('variables are evaluated lazily, once per evaluation', () => {
    const bad = { name: 'bad', expression: "object.spec.x == 'a'" };
    const counted = (spec: Obj) => {
      const c = compilePolicy(policy(spec));
      if (!c.ok) throw new Error(c.error);
      const calls: Record<string, number> = {};
      for (const v of c.policy.variables) {
        const evaluate = v.program.evaluate.bind(v.program);
        v.program = { ...v.program, evaluate: (a, o) => ((calls[v.name] = (calls[v.name] ?? 0) + 1), evaluate(a, o)) };
      }
      return { policy: c.policy, calls };
    };

    it.each<[string, Obj, string[][]]>([
      ['an unused failing variable fails nothing', { variables: [bad], validations: [{ expression: 'object.spec.replicas < 10' }] }, []],
      [
        'a used failing variable is the validation error (Fail)',
        { variables: [bad], validations: [{ expression: 'variables.bad == true' }] },
        [[expect.stringMatching(/^expression 'variables\.bad == true' resulted in error: composited variable "bad" fails to evaluate: \S/) as unknown as string, '']],
      ],
      ['a used failing variable admits under Ignore', { failurePolicy: 'Ignore', variables: [bad], validations: [{ expression: 'variables.bad == true' }] }, []],
      ['an error absorbed by a logical or', { variables: [bad], validations: [{ expression: 'variables.bad == true || true' }] }, []],
      [
        'a failing variable used by another variable',
        { variables: [bad, { name: 'worse', expression: '!variables.bad' }], validations: [{ expression: 'variables.worse == true' }] },
        [
          [
            expect.stringMatching(
              /^expression 'variables\.worse == true' resulted in error: composited variable "worse" fails to evaluate: composited variable "bad" fails to evaluate: \S/,
            ) as unknown as string,
            '',
          ],
        ],
      ],
    ])('%s', (_n, spec, want) => {
      const c = compilePolicy(policy(spec));
      if (!c.ok) throw new Error(c.error);
      const got = evaluatePolicy(c.policy, act({ spec: { replicas: 5 } })).decisions.filter((d) => d.action === 'deny');
      expect(got.map((d) => [d.message, d.error ? '' : (d.reason ?? '')])).toEqual(want);
    });

    it('a variable is typed as it compiled: a bool variable is a validation by itself', () => {
      const spec = { variables: [{ name: 'small', expression: 'object.spec.replicas < 3' }], validations: [{ expression: 'variables.small' }] };
      expect(denials(run(spec, { spec: { replicas: 5 } }).decisions)).toEqual([['failed expression: variables.small', 'Invalid']]);
      expect(denials(run(spec, { spec: { replicas: 1 } }).decisions)).toEqual([]);
    });

    it('evaluates a variable used by several expressions once, and an unused one never', () => {
      const { policy: p, calls } = counted({
        variables: [
          { name: 'max', expression: '10' },
          { name: 'unused', expression: '1' },
        ],
        validations: [{ expression: 'object.spec.replicas < variables.max' }, { expression: 'variables.max > 0', messageExpression: 'string(variables.max)' }],
        auditAnnotations: [{ key: 'max', valueExpression: 'string(variables.max)' }],
      });
      const r = evaluatePolicy(p, act({ spec: { replicas: 5 } }));
      expect(denials(r.decisions)).toEqual([]);
      expect(r.audits).toEqual([{ key: 'max', value: '10' }]);
      expect(calls).toEqual({ max: 1 });
      evaluatePolicy(p, act({ spec: { replicas: 5 } }));
      expect(calls).toEqual({ max: 2 });
    });

    it('a variable counts against the shared budget of the expression that first uses it', () => {
      const all = '[1, 2, 3, 4, 5, 6, 7, 8].all(x, x > 0)';
      const r = run({ variables: [{ name: 'v', expression: all }], validations: [{ expression: 'variables.v == true' }] }, undefined, undefined, 5);
      expect(r.decisions).toEqual([{ action: 'deny', error: true, message: 'validation failed due to running out of cost budget, no further validation rules will be run', index: 0 }]);
    });
  });

  it('audit annotations: a string is kept (trimmed) under its key, null and empty left out; a failing one is an error under Fail', () => {
    const r = run({
      auditAnnotations: [
        { key: 'replicas', valueExpression: "'r=' + string(object.spec.replicas)" },
        { key: 'none', valueExpression: 'null' },
        { key: 'blank', valueExpression: "' '" },
        { key: 'padded', valueExpression: "' x '" },
      ],
    });
    expect(r.audits).toEqual([
      { key: 'replicas', value: 'r=5' },
      { key: 'padded', value: 'x' },
    ]);
    expect(r.auditErrors).toEqual([]);
    const failing = { auditAnnotations: [{ key: 'k', valueExpression: 'string(object.spec.nothing)' }] };
    expect(run(failing).auditErrors).toEqual([expect.stringMatching(/^expression 'string\(object\.spec\.nothing\)' resulted in error: /)]);
    expect(run({ ...failing, failurePolicy: 'Ignore' }).auditErrors).toEqual([]);
  });

  it('the audit annotations have a budget of their own', () => {
    const all = '[1, 2, 3, 4, 5, 6, 7, 8].all(x, x > 0)';
    const r = run({ validations: [{ expression: all }], auditAnnotations: [{ key: 'k', valueExpression: `${all} ? 'yes' : 'no'` }] }, undefined, undefined, 40);
    expect(denials(r.decisions)).toEqual([]);
    expect(r.audits).toEqual([{ key: 'k', value: 'yes' }]);
  });

  it('running out of the budget is one error decision', () => {
    const all = '[1, 2, 3, 4, 5, 6, 7, 8].all(x, x > 0)';
    const r = run({ validations: [{ expression: all }, { expression: all }] }, undefined, undefined, 5);
    expect(r.decisions).toEqual([{ action: 'deny', error: true, message: 'validation failed due to running out of cost budget, no further validation rules will be run', index: 0 }]);
  });
});
