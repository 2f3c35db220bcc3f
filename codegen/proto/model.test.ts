import { describe, it, expect } from 'vitest';
import { buildModel, type ProtoModel } from './model.ts';
import { emptyLock } from './lock.ts';
import type { PresenceData } from './presence.ts';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
const noPresence: PresenceData = { byValue: {}, pointer: {} };

const base = {
  [META + 'ObjectMeta']: { type: 'object', properties: { name: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } } },
  [META + 'ListMeta']: { type: 'object', properties: { resourceVersion: { type: 'string' } } },
  [META + 'Time']: { type: 'string', format: 'date-time' },
};

function widget(extra: Record<string, unknown> = {}) {
  return {
    ...base,
    'com.example.v1.Widget': {
      type: 'object',
      'x-kubernetes-group-version-kind': [{ group: 'example.com', version: 'v1', kind: 'Widget' }],
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: ref(META + 'ObjectMeta'),
        spec: ref('com.example.v1.WidgetSpec'),
      },
    },
    'com.example.v1.WidgetSpec': {
      type: 'object',
      properties: {
        size: { type: 'integer', format: 'int32' },
        big: { type: 'integer' },
        ratio: { type: 'number' },
        on: { type: 'boolean' },
        blob: { type: 'string', format: 'byte' },
        port: { 'x-kubernetes-int-or-string': true },
        tags: { type: 'array', items: { type: 'string' } },
        when: ref(META + 'Time'),
        anything: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        ...extra,
      },
    },
  };
}

function fields(model: ProtoModel, full: string) {
  return Object.fromEntries(model.messages.get(full)!.fields.map((f) => [f.json, `${f.label} ${f.type} ${f.number}${f.always ? ' always' : ''}`]));
}

describe('buildModel', () => {
  it('gives a spec without numbers stable numbers in property order and maps types', () => {
    const lock = emptyLock();
    const m = buildModel(widget(), lock, noPresence);
    expect(fields(m, 'com.example.v1.WidgetSpec')).toEqual({
      anything: 'optional k8s.io.apimachinery.pkg.runtime.RawExtension 1',
      big: 'optional int64 2',
      blob: 'optional bytes 3',
      on: 'optional bool 4',
      port: 'optional k8s.io.apimachinery.pkg.util.intstr.IntOrString 5',
      ratio: 'optional double 6',
      size: 'optional int32 7',
      tags: 'repeated string 8',
      when: 'optional k8s.io.apimachinery.pkg.apis.meta.v1.Time 9',
    });
    // apiVersion and kind of a kind are type meta, not fields; metadata and spec are held by value
    expect(fields(m, 'com.example.v1.Widget')).toEqual({
      metadata: 'optional k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta 1 always',
      spec: 'optional com.example.v1.WidgetSpec 2 always',
    });
    expect(fields(m, 'k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta')).toEqual({
      labels: 'map string 1',
      name: 'optional string 2 always',
    });
    expect(m.kinds.get('example.com/v1/Widget')).toBe('com.example.v1.Widget');
    expect(m.kinds.get('example.com/v1/WidgetList')).toBe('com.example.v1.WidgetList');
    expect(fields(m, 'com.example.v1.WidgetList')).toEqual({
      metadata: 'optional k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta 1 always',
      items: 'repeated com.example.v1.Widget 2',
    });
    expect(lock.messages['com.example.v1.WidgetSpec'].when).toBe(9);
  });

  it('appends a new field with a new number and never reuses a removed one', () => {
    const lock = emptyLock();
    buildModel(widget(), lock, noPresence);
    const again = widget({ alpha: { type: 'string' } }) as Record<string, any>;
    delete again['com.example.v1.WidgetSpec'].properties.big;
    const m = buildModel(again, lock, noPresence);
    const f = fields(m, 'com.example.v1.WidgetSpec');
    expect(f.alpha).toBe('optional string 10 always');
    expect(f.big).toBeUndefined();
    expect(f.size).toBe('optional int32 7');
    expect(lock.messages['com.example.v1.WidgetSpec'].big).toBe(2);
  });

  it('follows the lock for numbers, inlined structs and named list types', () => {
    const lock = emptyLock();
    lock.messages['com.example.v1.WidgetSpec'] = { size: 4, source: 7 };
    lock.messages['com.example.v1.Source'] = { on: 1, blob: 2 };
    lock.inline['com.example.v1.WidgetSpec'] = { source: 'com.example.v1.Source' };
    lock.wrappers['com.example.v1.WidgetSpec'] = { extra: 'com.example.v1.ExtraValue' };
    const m = buildModel(widget({ extra: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } }), lock, noPresence);
    const spec = m.messages.get('com.example.v1.WidgetSpec')!;
    expect(spec.fields.find((f) => f.json === 'size')!.number).toBe(4);
    expect(spec.fields.find((f) => f.name === 'source')).toMatchObject({ number: 7, inline: true, type: 'com.example.v1.Source' });
    expect(spec.fields.find((f) => f.json === 'on')).toBeUndefined();
    expect(fields(m, 'com.example.v1.Source')).toEqual({ on: 'optional bool 1', blob: 'optional bytes 2' });
    expect(fields(m, 'com.example.v1.WidgetSpec').extra).toMatch(/^map com\.example\.v1\.ExtraValue \d+$/);
    expect(m.messages.get('com.example.v1.ExtraValue')).toMatchObject({ special: 'ListWrapper', fields: [{ name: 'items', label: 'repeated', type: 'string' }] });
  });

  it('applies presence overrides', () => {
    const presence: PresenceData = { byValue: { 'com.example.v1.WidgetSpec': ['size'] }, pointer: { 'com.example.v1.WidgetSpec': ['alpha'] } };
    const m = buildModel(widget({ alpha: { type: 'string' } }), emptyLock(), presence);
    const f = fields(m, 'com.example.v1.WidgetSpec');
    expect(f.size).toMatch(/always$/);
    expect(f.alpha).not.toMatch(/always$/);
  });

  it.each([
    ['a list of lists', { type: 'array', items: { type: 'array', items: { type: 'string' } } }, /nested collections/],
    ['a map of lists without a wrapper', { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }, /nested collections/],
    ['an anonymous object', { type: 'object', properties: { a: { type: 'string' } } }, /without a name/],
    ['a dangling reference', ref('com.example.v1.Missing'), /not defined/],
  ])('leaves out %s with a warning', (_n, schema, msg) => {
    const m = buildModel(widget({ bad: schema }), emptyLock(), noPresence);
    expect(m.warnings.join('\n')).toMatch(msg);
    expect(fields(m, 'com.example.v1.WidgetSpec').bad).toBeUndefined();
  });
});
