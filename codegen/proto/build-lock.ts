// One-time builder of field-numbers.lock.json from upstream's generated.proto
// files (the reference data, ../shared/reference/proto) and the upstream
// OpenAPI v2 document (for JSON property names). Numbers are facts about the
// wire format; the lock stores only numbers and the inline/wrapper structure,
// keyed by OpenAPI schema name and JSON name. Existing lock entries are kept
// (numbers are never changed once locked). The build never needs this: it is
// run by hand, `npx tsx codegen/proto/build-lock.ts [referenceDir]`.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseProto, type ParsedMessage } from './proto-parse.ts';
import { protoToSchemaName } from './names.ts';
import { readLock, writeLock, DEFAULT_LOCK_PATH, type FieldLock } from './lock.ts';

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (e.endsWith('.proto')) out.push(p);
  }
  return out;
}

function kebab(camel: string): string {
  return camel.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}

/** Resolves a type name as used in a field of package `pkg` to a full proto name. */
function resolveType(type: string, pkg: string, known: Map<string, ParsedMessage>): string | undefined {
  if (known.has(type)) return type;
  if (known.has(`${pkg}.${type}`)) return `${pkg}.${type}`;
  return undefined;
}

/** An embedded Go struct: every field of `inner` (or of structs it embeds) shows up as a property of the parent. */
function isInlined(inner: ParsedMessage, parentProps: Record<string, unknown>, resolve: (type: string) => ParsedMessage | undefined): boolean {
  return (
    inner.fields.length > 0 &&
    inner.fields.every((f) => {
      if (parentProps[f.name] !== undefined) return true;
      const sub = f.label === 'optional' ? resolve(f.type) : undefined;
      return sub !== undefined && isInlined(sub, parentProps, resolve);
    })
  );
}

export interface BuildReport {
  messages: number;
  unmatched: string[];
}

export function buildLock(referenceDir: string, lock: FieldLock): BuildReport {
  const files = walk(join(referenceDir, 'proto'));
  const messages = new Map<string, ParsedMessage>();
  const pkgOf = new Map<string, string>();
  for (const f of files) {
    const p = parseProto(readFileSync(f, 'utf8'), f);
    for (const m of p.messages) {
      messages.set(`${p.package}.${m.name}`, m);
      pkgOf.set(`${p.package}.${m.name}`, p.package);
    }
  }
  const swagger = JSON.parse(readFileSync(join(referenceDir, 'openapi', 'swagger-v1.31.json'), 'utf8')) as {
    definitions: Record<string, { properties?: Record<string, unknown> }>;
  };
  const defs = swagger.definitions;
  const unmatched: string[] = [];
  for (const [full, msg] of [...messages].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const schema = protoToSchemaName(full);
    const props = defs[schema]?.properties;
    const fields = (lock.messages[schema] ??= {});
    for (const f of msg.fields) {
      const target = f.label === 'map' ? undefined : resolveType(f.type, pkgOf.get(full)!, messages);
      const valueTarget = f.label === 'map' ? resolveType(f.type, pkgOf.get(full)!, messages) : undefined;
      let json = f.name;
      if (props) {
        if (props[f.name] !== undefined) json = f.name;
        else if (props['$' + f.name] !== undefined) json = '$' + f.name;
        else if (props[kebab(f.name)] !== undefined) json = kebab(f.name);
        else if (
          target &&
          isInlined(messages.get(target)!, props, (t) => {
            const r = resolveType(t, pkgOf.get(target)!, messages);
            return r ? messages.get(r) : undefined;
          })
        ) {
          (lock.inline[schema] ??= {})[f.name] = protoToSchemaName(target);
        } else {
          const ci = Object.keys(props).find((k) => k.toLowerCase() === f.name.toLowerCase());
          if (ci !== undefined) json = ci;
          else unmatched.push(`${schema}.${f.name}`);
        }
      }
      // Named list types (ExtraValue, Verbs): a message not in OpenAPI with one repeated `items` field.
      const wrap = target ?? valueTarget;
      if (wrap && !defs[protoToSchemaName(wrap)]) {
        const wm = messages.get(wrap)!;
        if (wm.fields.length === 1 && wm.fields[0].name === 'items' && wm.fields[0].label === 'repeated') {
          (lock.wrappers[schema] ??= {})[json] = protoToSchemaName(wrap);
        }
      }
      const prev = fields[json];
      if (prev !== undefined && prev !== f.number) throw new Error(`lock conflict ${schema}.${json}: ${prev} vs ${f.number}`);
      fields[json] = f.number;
    }
  }
  return { messages: messages.size, unmatched };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const ref = resolve(process.argv[2] ?? process.env.SPECSERVER_REFERENCE_DIR ?? '../shared/reference');
  const lock = readLock();
  const report = buildLock(ref, lock);
  const changed = writeLock(lock);
  console.log(`${report.messages} messages read; lock ${changed ? 'written' : 'unchanged'}: ${DEFAULT_LOCK_PATH}`);
  if (report.unmatched.length) console.log(`fields with no JSON property (kept by proto name):\n  ${report.unmatched.join('\n  ')}`);
}
