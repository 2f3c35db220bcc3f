// The .proto files codegen emits are wire-compatible with upstream's
// generated.proto (../shared/reference/proto): every field of every message
// that upstream also has carries upstream's number, label and wire type, and
// message-typed fields point at the same message.
import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseProto, type ParsedField, type ParsedMessage } from '../../codegen/proto/proto-parse.ts';
import { referenceDir } from './reference.ts';

const dir = referenceDir();
const GENERATED = fileURLToPath(new URL('../../generated/proto/', import.meta.url));

function walk(d: string, out: string[] = []): string[] {
  for (const e of readdirSync(d)) {
    const p = join(d, e);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (e.endsWith('.proto')) out.push(p);
  }
  return out;
}

interface Msg {
  pkg: string;
  msg: ParsedMessage;
}

function load(root: string): Map<string, Msg> {
  const out = new Map<string, Msg>();
  for (const f of walk(root)) {
    const p = parseProto(readFileSync(f, 'utf8'), f);
    for (const m of p.messages) out.set(`${p.package}.${m.name}`, { pkg: p.package, msg: m });
  }
  return out;
}

const SCALAR_WIRE: Record<string, string> = {
  int32: 'varint',
  int64: 'varint',
  uint32: 'varint',
  uint64: 'varint',
  bool: 'varint',
  string: 'len',
  bytes: 'len',
  double: 'i64',
  fixed64: 'i64',
  float: 'i32',
  fixed32: 'i32',
};

function typeKey(f: ParsedField, pkg: string, all: Map<string, Msg>): string {
  if (SCALAR_WIRE[f.type]) return SCALAR_WIRE[f.type];
  const full = all.has(f.type) ? f.type : `${pkg}.${f.type}`;
  return `message ${full}`;
}

describe.skipIf(!dir)('emitted protos vs upstream (skipped: reference data absent)', () => {
  const ours = dir ? load(GENERATED) : new Map<string, Msg>();
  const theirs = dir ? load(join(dir, 'proto')) : new Map<string, Msg>();

  it('emits the messages of the served kinds', () => {
    for (const m of [
      'k8s.io.api.core.v1.Pod',
      'k8s.io.api.core.v1.PodList',
      'k8s.io.api.apps.v1.Deployment',
      'k8s.io.apimachinery.pkg.apis.meta.v1.Status',
      'k8s.io.apimachinery.pkg.runtime.Unknown',
    ]) {
      expect(ours.has(m), m).toBe(true);
    }
  });

  it('every shared field has upstream number, label and wire type', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const [name, { pkg, msg }] of ours) {
      const ref = theirs.get(name);
      if (!ref) continue;
      const byNumber = new Map(ref.msg.fields.map((f) => [f.number, f]));
      for (const f of msg.fields) {
        checked++;
        const r = byNumber.get(f.number);
        if (!r) {
          problems.push(`${name}.${f.name} = ${f.number}: upstream has no field with this number`);
          continue;
        }
        const a = `${f.label} ${typeKey(f, pkg, ours)}`;
        const b = `${r.label} ${typeKey(r, ref.pkg, theirs)}`;
        if (a !== b) problems.push(`${name}.${f.name} = ${f.number}: ours ${a}, upstream ${b}`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(1900);
  });

  it('misses no upstream field of a message it emits, unless the spec lacks it', () => {
    const missing: string[] = [];
    for (const [name, { msg }] of ours) {
      const ref = theirs.get(name);
      if (!ref) continue;
      const have = new Set(msg.fields.map((f) => f.number));
      for (const r of ref.msg.fields) if (!have.has(r.number)) missing.push(`${name}.${r.name}`);
    }
    // api-specs declare every field upstream 1.31 has for the kinds we serve.
    expect(missing).toEqual([]);
  });
});
