import { describe, expect, it } from 'vitest';
import type { ResourceDef } from '../../../generated/api-types.ts';
import { fieldErrors } from '../../api/field-errors.ts';
import { ApiError } from '../../api/errors.ts';
import type { Obj } from '../../storage/interface.ts';
import { defaultStrategy, statusStrategy } from '../strategy.ts';
import { customResourceStrategy, type CustomResourceRules } from './custom-resource.ts';

const def = {
  group: 'example.com',
  version: 'v1',
  kind: 'Widget',
  resource: 'widgets',
  schema: 'com.example.v1.Widget@t',
  nameRule: 'subdomain',
  subresources: [{ name: 'status', kind: 'Widget', verbs: ['get'] }],
  allowCreateOnUpdate: false,
  custom: true,
} as unknown as ResourceDef;

/** Rules that report which objects they saw. */
function recording(): { rules: CustomResourceRules; seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    rules: (obj, old) => {
      seen.push(`${obj.spec?.n}<-${old ? old.spec?.n : 'none'}`);
      return obj.spec?.n < 0 ? [fieldErrors.invalid('spec.n', obj.spec.n, 'must not be negative')] : [];
    },
  };
}

describe('custom resource strategy', () => {
  const make = (terminating = false) => {
    const r = recording();
    const base = { ...defaultStrategy(def), subresources: { status: statusStrategy() } };
    const s = customResourceStrategy(def, base, { terminating: () => terminating, rules: (schema) => (schema === def.schema ? r.rules : undefined) });
    return { s, seen: r.seen };
  };

  it('runs the rules once on create, without an old object', () => {
    const { s, seen } = make();
    const obj: Obj = { metadata: { name: 'a' }, spec: { n: -1 } };
    s.prepareForCreate(obj);
    expect(s.validate(obj).map((e) => e.field)).toEqual(['spec.n']);
    expect(seen).toEqual(['-1<-none']);
  });

  it('runs the rules once on update, with the old object (transition rules)', () => {
    const { s, seen } = make();
    const old: Obj = { metadata: { name: 'a' }, spec: { n: 1 } };
    const obj: Obj = { metadata: { name: 'a' }, spec: { n: 2 } };
    s.prepareForUpdate(obj, old);
    expect([...s.validate(obj), ...s.validateUpdate(obj, old)]).toEqual([]);
    expect(seen).toEqual(['2<-1']);
  });

  it('runs the rules on status updates', () => {
    const { s, seen } = make();
    const errs = s.subresources!.status.validateUpdate({ metadata: { name: 'a' }, spec: { n: -3 } }, { metadata: { name: 'a' }, spec: { n: -3 } });
    expect(errs.map((e) => e.field)).toEqual(['spec.n']);
    expect(seen).toEqual(['-3<--3']);
  });

  it('refuses a create while the CRD is terminating, with 405', () => {
    const { s } = make(true);
    let err: unknown;
    try {
      s.prepareForCreate({ metadata: { name: 'a' } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status()).toMatchObject({
      code: 405,
      reason: 'MethodNotAllowed',
      message: 'create not allowed while custom resource definition is terminating',
      details: { group: 'example.com', kind: 'widgets' },
    });
  });
});

describe('custom resource strategy over several versions', () => {
  it('checks an object with the rules of its own version', () => {
    const seen: string[] = [];
    const rulesOf =
      (tag: string): CustomResourceRules =>
      () => (seen.push(tag), []);
    const schemas: Record<string, string> = { 'example.com/v1': def.schema, 'example.com/v1alpha1': 'com.example.v1alpha1.Widget@t' };
    const s = customResourceStrategy(def, defaultStrategy(def), {
      terminating: () => false,
      rules: (schema) => (schema === def.schema ? rulesOf('v1') : schema === schemas['example.com/v1alpha1'] ? rulesOf('v1alpha1') : undefined),
      schemaOf: (group, resource, apiVersion) => (group === 'example.com' && resource === 'widgets' ? schemas[apiVersion] : undefined),
    });
    for (const apiVersion of ['example.com/v1alpha1', 'example.com/v1', undefined]) s.validate({ apiVersion, metadata: { name: 'a' } });
    expect(seen).toEqual(['v1alpha1', 'v1', 'v1']);
  });
});
