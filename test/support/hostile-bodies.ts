// Request bodies that stress the decoders: nesting to (and past) the depth
// limit in JSON, YAML and protobuf, YAML alias bombs, very many keys. Shared
// by test/http/hardening-bodies.test.ts and bench/hardening/worst-case.ts.
import { wrap } from '../../runtime/codec/protobuf/envelope.ts';

/** `d` nested lists: `[[[]]]` for 3. */
export const jsonLists = (d: number): string => '['.repeat(d) + ']'.repeat(d);

/** `d` nested objects: `{"a":{"a":1}}` for 2. */
export const jsonObjects = (d: number): string => '{"a":'.repeat(d) + '1' + '}'.repeat(d);

/** YAML block maps `d` deep (`a:` under `a:` ...), indented under `indent` spaces. */
export function yamlBlockMaps(d: number, indent = 0): string {
  let out = '';
  for (let i = 0; i < d; i++) out += `${' '.repeat(indent + 2 * i)}a:\n`;
  return out;
}

/** A ControllerRevision (its `data` is free JSON) in JSON, with `data` given as JSON text. */
export function revisionJSON(name: string, dataJSON: string): string {
  return `{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"${name}"},"revision":1,"data":${dataJSON}}`;
}

/** The same in YAML: `data` given as YAML (flow style or a block below `data:`). */
export function revisionYAML(name: string, dataYAML: string, block = false): string {
  return `apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: ${name}\nrevision: 1\ndata:${block ? '\n' : ' '}${dataYAML}\n`;
}

/**
 * `levels` anchors, each a list of `fanout` aliases of the one before: a
 * billion laughs for 9 and 9 (387 million scalars when expanded).
 */
export function yamlLaughs(levels: number, fanout: number, prefix = ''): string {
  const lines = [`${prefix}a0: &a0 [x, x, x, x, x, x, x, x, x, x]`];
  for (let i = 1; i <= levels; i++)
    lines.push(
      `${prefix}a${i}: &a${i} [${Array(fanout)
        .fill(`*a${i - 1}`)
        .join(', ')}]`,
    );
  return lines.join('\n') + '\n';
}

/** A ConfigMap with `n` labels, as JSON. */
export function manyLabels(name: string, n: number): string {
  const labels: Record<string, string> = {};
  for (let i = 0; i < n; i++) labels[`k${i}`] = 'v';
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels } });
}

/** Protobuf bytes built back to front, so each length is known when its field is written. */
export class Backwards {
  private buf = new Uint8Array(1024);
  private start = this.buf.length;

  get length(): number {
    return this.buf.length - this.start;
  }

  private prepend(bytes: ArrayLike<number>): void {
    while (this.start < bytes.length) {
      const next = new Uint8Array(this.buf.length * 2);
      next.set(this.buf.subarray(this.start), next.length - this.length);
      this.start += next.length - this.buf.length;
      this.buf = next;
    }
    this.start -= bytes.length;
    this.buf.set(bytes, this.start);
  }

  /** Makes everything written so far the value of a length-delimited field with this tag. */
  field(tag: number[]): this {
    const len: number[] = [];
    let n = this.length;
    do {
      len.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
      n >>>= 7;
    } while (n > 0);
    this.prepend(len);
    this.prepend(tag);
    return this;
  }

  raw(bytes: ArrayLike<number>): this {
    this.prepend(bytes);
    return this;
  }

  bytes(): Uint8Array {
    return this.buf.slice(this.start);
  }
}

/** A protobuf ControllerRevision named `name` whose data (2) is a RawExtension with these raw (1) bytes. */
export function revisionProtobuf(name: string, raw: Uint8Array): Uint8Array {
  const b = new Backwards().raw(raw).field([0x0a]).field([0x12]);
  // metadata (1) { name (1) } goes first
  const meta = new Backwards().raw(Buffer.from(name)).field([0x0a]).field([0x0a]).bytes();
  // revision (3) = 1
  return wrap('apps/v1', 'ControllerRevision', Buffer.concat([meta, b.bytes(), Buffer.from([0x18, 0x01])]));
}

/**
 * A protobuf CustomResourceDefinition whose openAPIV3Schema nests `levels`
 * JSONSchemaProps through `not` (field 28). JSON depth: 6 + levels.
 */
export function crdProtobufNot(levels: number): Uint8Array {
  const b = new Backwards();
  for (let i = 0; i < levels; i++) b.field([0xe2, 0x01]);
  // openAPIV3Schema (1) < schema (4) < versions (7) < spec (2)
  b.field([0x0a]).field([0x22]).field([0x3a]).field([0x12]);
  return wrap('apiextensions.k8s.io/v1', 'CustomResourceDefinition', b.bytes());
}
