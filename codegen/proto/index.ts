// Protobuf codegen: api-specs + field-number lock -> <outDir>/proto/ holding
// the .proto files, protoc-gen-es codecs (via buf), per-package conversion
// metadata and index.ts. Deterministic and idempotent: files are rewritten
// only when their content changes, stale ones are removed. Extends the lock
// for fields it has no number for (a new field gets a new number).
import { copyFileSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, existsSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSchemas } from './load-schemas.ts';
import { readLock, writeLock, DEFAULT_LOCK_PATH } from './lock.ts';
import { readPresence } from './presence.ts';
import { buildModel, type ProtoModel } from './model.ts';
import { renderProtoOutput } from './emit.ts';
import { runBufGenerate } from './buf.ts';
import { parseProto } from './proto-parse.ts';
import { packageToFile, splitName } from './names.ts';

export interface GenerateProtoOptions {
  lockPath?: string;
  presencePath?: string;
  /** false: only .proto, metadata and index (tests of the emitter). */
  runBuf?: boolean;
}

export interface GenerateProtoResult {
  model: ProtoModel;
  written: string[];
  removed: string[];
}

function walk(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

function writeIfChanged(path: string, text: string): boolean {
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return false;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return true;
}

export async function generateProtoDetailed(specsDir: string, outDir: string, opts: GenerateProtoOptions = {}): Promise<GenerateProtoResult> {
  const lockPath = opts.lockPath ?? DEFAULT_LOCK_PATH;
  const lock = readLock(lockPath);
  const model = buildModel(loadSchemas(specsDir), lock, readPresence(opts.presencePath));
  writeLock(lock, lockPath);
  const metaTypes = readFileSync(fileURLToPath(new URL('./meta-types.ts', import.meta.url)), 'utf8');
  const files = renderProtoOutput(model, metaTypes);
  const protoOut = join(outDir, 'proto');
  model.warnings.push(...wireChanges(model, protoOut));
  const wanted = new Map<string, string>();
  for (const [rel, text] of files) wanted.set(join(protoOut, rel), text);

  if (opts.runBuf !== false) {
    const tmp = mkdtempSync(join(tmpdir(), 'specserver-proto-'));
    try {
      const src = join(tmp, 'src');
      const gen = join(tmp, 'gen');
      for (const [rel, text] of files) if (rel.endsWith('.proto')) writeIfChanged(join(src, rel), text);
      await runBufGenerate(src, gen);
      for (const p of walk(gen)) wanted.set(join(protoOut, relative(gen, p)), readFileSync(p, 'utf8'));
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  const written: string[] = [];
  for (const [path, text] of wanted) if (writeIfChanged(path, text)) written.push(path);
  const removed: string[] = [];
  for (const p of walk(protoOut)) {
    const generated = /(\.proto|_pb\.ts|_k8s\.ts)$/.test(p) || p === join(protoOut, 'index.ts') || p === join(protoOut, 'meta-types.ts');
    if (generated && !wanted.has(p) && (opts.runBuf !== false || !p.endsWith('_pb.ts'))) {
      unlinkSync(p);
      removed.push(p);
    }
  }
  return { model, written, removed };
}

const WIRE: Record<string, string> = { int32: 'varint', int64: 'varint', bool: 'varint', string: 'len', bytes: 'len', double: 'i64' };

/**
 * Fields whose number now has another label or wire type than in the previous
 * output: old clients would misread them (a spec changed a field's type).
 */
function wireChanges(model: ProtoModel, protoOut: string): string[] {
  const out: string[] = [];
  const previous = new Map<string, Map<number, string>>();
  for (const pkg of new Set([...model.messages.keys()].map((m) => splitName(m).pkg))) {
    const file = join(protoOut, packageToFile(pkg));
    if (!existsSync(file)) continue;
    for (const m of parseProto(readFileSync(file, 'utf8'), file).messages) {
      previous.set(`${pkg}.${m.name}`, new Map(m.fields.map((f) => [f.number, `${f.label} ${WIRE[f.type] ?? 'len'}`])));
    }
  }
  for (const m of model.messages.values()) {
    const old = previous.get(m.full);
    if (!old) continue;
    for (const f of m.fields) {
      const was = old.get(f.number);
      const now = `${f.label} ${f.isMessage ? 'len' : WIRE[f.type]}`;
      if (was && was !== now) out.push(`${m.schema}.${f.json} (${f.number}) changed from ${was} to ${now}: clients built on the old type misread it`);
    }
  }
  return out;
}

/** The project's generated/ directory: the only output that extends the project's lock. */
const PROJECT_GENERATED_DIR = fileURLToPath(new URL('../../generated', import.meta.url));

/**
 * Writes `<outDir>/proto/` from the specs in `specsDir` (see module header).
 * Generating the project's own generated/ reads and extends the project's
 * lock; any other output (a temporary api-specs copy in tests) works on a
 * copy of it beside the output, so the project's lock is never changed by
 * specs that are not the project's.
 */
export async function generateProto(specsDir: string, outDir: string): Promise<void> {
  if (resolve(outDir) === resolve(PROJECT_GENERATED_DIR)) {
    await generateProtoDetailed(specsDir, outDir);
    return;
  }
  const lockPath = join(outDir, '.proto-field-numbers.lock.json'); // dot file: not an output
  if (!existsSync(lockPath)) {
    mkdirSync(outDir, { recursive: true });
    copyFileSync(DEFAULT_LOCK_PATH, lockPath);
  }
  await generateProtoDetailed(specsDir, outDir, { lockPath });
}
