// A small driver for scenario tests in the manner of structured-merge-diff's
// merge tests: a sequence of Apply and Update operations by named managers,
// each with the expected object and managed fields afterwards.
// Boundary: test support; drives the public FieldManager only.
import { expect } from 'vitest';
import { FieldManager, ApplyConflictError, type FieldManagerOptions } from '../index.ts';
import { isObj, type Obj, type JSONValue } from '../value/json.ts';
import { fixtureSchema } from './fixture-schema.ts';

export interface Step {
  /** Apply (default) or Update by this manager. */
  op?: 'apply' | 'update';
  manager: string;
  /** Configuration (apply) or the whole new object (update; a function gets the live object). */
  object: Obj | ((live: Obj) => Obj);
  force?: boolean;
  subresource?: string;
  /** Seconds after the scenario's start this step happens at (default: step index). */
  at?: number;
  /** Expected object (managedFields ignored). */
  expectObject?: Obj;
  /** Expected entries: "manager/Apply", "manager/Update" (+ "/subresource") to fieldsV1. */
  expectManaged?: Record<string, Obj>;
  /** The step must fail with an apply conflict with exactly these owner/field pairs. */
  expectConflicts?: { manager: string; field: string }[];
  expectMessage?: string;
}

const START = Date.parse('2026-01-01T00:00:00Z');

export function entriesByKey(o: Obj): Record<string, JSONValue> {
  const md = o.metadata;
  const mf = isObj(md) && Array.isArray(md.managedFields) ? md.managedFields : [];
  const out: Record<string, JSONValue> = {};
  for (const e of mf) {
    if (!isObj(e)) continue;
    const key = [e.manager, e.operation, ...(e.subresource ? [e.subresource] : [])].join('/');
    out[key] = e.fieldsV1;
  }
  return out;
}

export function stripManaged(o: Obj): Obj {
  if (!isObj(o.metadata)) return o;
  const { managedFields: _mf, ...md } = o.metadata;
  return { ...o, metadata: md };
}

export function runScenario(steps: Step[], init: Obj | null = null, opts: Partial<FieldManagerOptions> = {}): Obj | null {
  const fm = new FieldManager({ schema: fixtureSchema, typeName: 'Thing', apiVersion: 'v1', ...opts });
  let live = init;
  steps.forEach((s, i) => {
    const now = new Date(START + (s.at ?? i) * 1000);
    const obj = typeof s.object === 'function' ? s.object(live ?? {}) : s.object;
    let out: Obj;
    try {
      out = s.op === 'update' ? fm.update(live, obj, s.manager, { subresource: s.subresource, now }) : fm.apply(live, obj, s.manager, { force: !!s.force, subresource: s.subresource, now });
    } catch (e) {
      if (!s.expectConflicts || !(e instanceof ApplyConflictError)) throw e;
      expect(e.conflicts, `step ${i} conflicts`).toEqual(s.expectConflicts);
      if (s.expectMessage !== undefined) expect(e.message, `step ${i} message`).toBe(s.expectMessage);
      return;
    }
    if (s.expectConflicts) throw new Error(`step ${i}: expected conflicts, the ${s.op ?? 'apply'} succeeded`);
    live = out;
    if (s.expectObject) expect(stripManaged(out), `step ${i} object`).toEqual(s.expectObject);
    if (s.expectManaged) expect(entriesByKey(out), `step ${i} managed fields`).toEqual(s.expectManaged);
  });
  return live;
}
