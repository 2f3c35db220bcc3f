import { describe, it, expect } from 'vitest';
import { fileURLToPath } from 'node:url';
import { decidePresence, readPresence } from './presence.ts';
import { loadSchemas } from './load-schemas.ts';
import { readLock } from './lock.ts';

describe('decidePresence', () => {
  const data = { byValue: { S: ['n', 'm'] }, pointer: { S: ['p'] } };
  it.each([
    ['a string', 'x', 'optional', 'string', false, true],
    ['a pointer string', 'p', 'optional', 'string', false, false],
    ['a number', 'x', 'optional', 'int32', false, false],
    ['a by-value number', 'n', 'optional', 'int32', false, true],
    ['bytes', 'x', 'optional', 'bytes', false, false],
    ['a message', 'x', 'optional', 'k8s.io.X', false, false],
    ['a by-value message', 'm', 'optional', 'k8s.io.X', false, true],
    ['spec of a kind', 'spec', 'optional', 'k8s.io.X', true, true],
    ['spec of a non-kind', 'spec', 'optional', 'k8s.io.X', false, false],
    ['a list', 'x', 'repeated', 'string', false, false],
    ['a map', 'x', 'map', 'string', false, false],
  ] as const)('%s', (_n, json, label, type, top, want) => {
    expect(decidePresence(data, 'S', json, label, type, top)).toBe(want);
  });
});

describe('presence.json', () => {
  it('names only schemas and properties that exist (in api-specs or the lock)', () => {
    const schemas = loadSchemas(fileURLToPath(new URL('../../api-specs/', import.meta.url)));
    const lock = readLock().messages;
    const data = readPresence();
    const missing: string[] = [];
    for (const table of [data.byValue, data.pointer]) {
      for (const [schema, fields] of Object.entries(table)) {
        const props = (schemas[schema]?.properties as Record<string, unknown> | undefined) ?? lock[schema];
        if (!props) missing.push(schema);
        else for (const f of fields) if (!(f in props)) missing.push(`${schema}.${f}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('never lists a field both ways', () => {
    const data = readPresence();
    const both = Object.entries(data.byValue).flatMap(([s, fs]) => fs.filter((f) => data.pointer[s]?.includes(f)).map((f) => `${s}.${f}`));
    expect(both).toEqual([]);
  });
});
