// Encodes an OpenAPI v2 (swagger 2.0) document as the protobuf message
// `openapi.v2.Document` of google/gnostic (openapiv2/OpenAPIv2.proto): the
// form kube-apiserver serves at /openapi/v2 for
// `application/com.github.proto-openapi.spec.v2[@.]v1.0+protobuf` and
// kubectl reads. Field numbers are those of that message set; values
// without a typed field (defaults, enums, examples, `x-` extensions) are an
// `Any` whose `yaml` holds the value's YAML text, as gnostic's parser stores
// them. proto3 rules: zero scalars are not written, a message that is
// present in the document is written even when empty, fields in number order.

import { stringify } from 'yaml';
import { WireType } from '@bufbuild/protobuf/wire';
import { WireWriter } from '../../codec/protobuf/writer.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A value's YAML text, as gnostic keeps it in `Any.yaml`. Written for YAML 1.1 readers (kubectl reads it
 * with go-yaml v2): strings such as `yes`, `on` or `n` are quoted, as they would be booleans there.
 */
export function yamlText(v: unknown): string {
  return stringify(v, { lineWidth: 0, version: '1.1' });
}

/** yamlText for one document's values: the same few extension values recur thousands of times. */
function yamlTexts(): (v: unknown) => string {
  const seen = new Map<string, string>();
  return (v) => {
    const key = JSON.stringify(v);
    let text = seen.get(key);
    if (text === undefined) {
      text = yamlText(v);
      seen.set(key, text);
    }
    return text;
  };
}

class Out {
  private readonly yaml = yamlTexts();
  constructor(readonly w: WireWriter) {}

  str(no: number, v: unknown): void {
    if (typeof v === 'string' && v !== '') this.w.tag(no, WireType.LengthDelimited).string(v);
  }

  strs(no: number, v: unknown): void {
    if (Array.isArray(v)) for (const s of v) if (typeof s === 'string') this.w.tag(no, WireType.LengthDelimited).string(s);
  }

  bool(no: number, v: unknown): void {
    if (v === true) this.w.tag(no, WireType.Varint).bool(true);
  }

  double(no: number, v: unknown): void {
    if (typeof v === 'number' && v !== 0) this.w.tag(no, WireType.Bit64).double(v);
  }

  int64(no: number, v: unknown): void {
    if (typeof v === 'number' && v !== 0) this.w.tag(no, WireType.Varint).varint(Math.trunc(v));
  }

  msg(no: number, body: () => void): void {
    this.w.tag(no, WireType.LengthDelimited).fork();
    body();
    this.w.join();
  }

  /** An `Any` holding the value as YAML, when the value is there. */
  any(no: number, v: unknown): void {
    if (v !== undefined) this.msg(no, () => this.str(2, this.yaml(v)));
  }

  /** `x-` keys of an object as repeated NamedAny. */
  vendor(no: number, o: Json): void {
    for (const [k, v] of Object.entries(o)) if (k.startsWith('x-')) this.named(no, k, () => this.any(2, v));
  }

  /** A Named* pair: name = 1, value = 2 (written by `value`). */
  named(no: number, name: string, value: () => void): void {
    this.msg(no, () => {
      this.str(1, name);
      value();
    });
  }

  externalDocs(no: number, v: unknown): void {
    if (!isObject(v)) return;
    this.msg(no, () => {
      this.str(1, v.description);
      this.str(2, v.url);
      this.vendor(3, v);
    });
  }

  schema(s: Json): void {
    this.str(1, s.$ref);
    this.str(2, s.format);
    this.str(3, s.title);
    this.str(4, s.description);
    this.any(5, s.default);
    this.double(6, s.multipleOf);
    this.double(7, s.maximum);
    this.bool(8, s.exclusiveMaximum);
    this.double(9, s.minimum);
    this.bool(10, s.exclusiveMinimum);
    this.int64(11, s.maxLength);
    this.int64(12, s.minLength);
    this.str(13, s.pattern);
    this.int64(14, s.maxItems);
    this.int64(15, s.minItems);
    this.bool(16, s.uniqueItems);
    this.int64(17, s.maxProperties);
    this.int64(18, s.minProperties);
    this.strs(19, s.required);
    if (Array.isArray(s.enum)) for (const e of s.enum) this.any(20, e);
    const ap = s.additionalProperties;
    if (typeof ap === 'boolean') this.msg(21, () => this.w.tag(2, WireType.Varint).bool(ap));
    else if (isObject(ap)) this.msg(21, () => this.msg(1, () => this.schema(ap)));
    if (typeof s.type === 'string' || Array.isArray(s.type)) this.msg(22, () => this.strs(1, Array.isArray(s.type) ? s.type : [s.type]));
    const items = s.items;
    if (isObject(items) || Array.isArray(items)) this.msg(23, () => (Array.isArray(items) ? items : [items]).filter(isObject).forEach((x) => this.msg(1, () => this.schema(x))));
    if (Array.isArray(s.allOf)) for (const x of s.allOf) if (isObject(x)) this.msg(24, () => this.schema(x));
    const props = s.properties;
    if (isObject(props)) this.msg(25, () => Object.entries(props).forEach(([k, v]) => isObject(v) && this.named(1, k, () => this.msg(2, () => this.schema(v)))));
    this.str(26, s.discriminator);
    this.bool(27, s.readOnly);
    if (isObject(s.xml)) {
      const xml = s.xml;
      this.msg(28, () => {
        this.str(1, xml.name);
        this.str(2, xml.namespace);
        this.str(3, xml.prefix);
        this.bool(4, xml.attribute);
        this.bool(5, xml.wrapped);
        this.vendor(6, xml);
      });
    }
    this.externalDocs(29, s.externalDocs);
    this.any(30, s.example);
    this.vendor(31, s);
  }

  /** The fields a non-body parameter, a header and PrimitivesItems share, numbered from `base` (type) on. */
  primitives(p: Json, base: number, withVendor = true): void {
    this.str(base, p.type);
    this.str(base + 1, p.format);
    if (isObject(p.items)) {
      const items = p.items;
      this.msg(base + 2, () => this.primitives(items, 1));
    }
    this.str(base + 3, p.collectionFormat);
    this.any(base + 4, p.default);
    this.double(base + 5, p.maximum);
    this.bool(base + 6, p.exclusiveMaximum);
    this.double(base + 7, p.minimum);
    this.bool(base + 8, p.exclusiveMinimum);
    this.int64(base + 9, p.maxLength);
    this.int64(base + 10, p.minLength);
    this.str(base + 11, p.pattern);
    this.int64(base + 12, p.maxItems);
    this.int64(base + 13, p.minItems);
    this.bool(base + 14, p.uniqueItems);
    if (Array.isArray(p.enum)) for (const e of p.enum) this.any(base + 15, e);
    this.double(base + 16, p.multipleOf);
    if (withVendor) this.vendor(base + 17, p);
  }

  /** Parameter: a body parameter, or a non-body one by its `in` (header 1, formData 2, query 3, path 4). */
  parameter(p: Json): void {
    if (p.in === 'body') {
      this.msg(1, () => {
        this.str(1, p.description);
        this.str(2, p.name);
        this.str(3, p.in);
        this.bool(4, p.required);
        if (isObject(p.schema)) {
          const schema = p.schema;
          this.msg(5, () => this.schema(schema));
        }
        this.vendor(6, p);
      });
      return;
    }
    const which = ({ header: 1, formData: 2, query: 3, path: 4 } as Record<string, number>)[String(p.in)];
    if (which === undefined) return;
    this.msg(2, () =>
      this.msg(which, () => {
        this.bool(1, p.required);
        this.str(2, p.in);
        this.str(3, p.description);
        this.str(4, p.name);
        // query and formData have allowEmptyValue (5) before the shared fields
        const hasEmpty = which === 2 || which === 3;
        if (hasEmpty) this.bool(5, p.allowEmptyValue);
        this.primitives(p, hasEmpty ? 6 : 5);
      }),
    );
  }

  /** ParametersItem: a parameter (1) or a JSON reference (2). */
  parametersItem(no: number, p: unknown): void {
    if (!isObject(p)) return;
    this.msg(no, () => {
      if (typeof p.$ref === 'string') {
        const ref = p.$ref;
        this.msg(2, () => {
          this.str(1, ref);
          this.str(2, p.description);
        });
      } else this.msg(1, () => this.parameter(p));
    });
  }

  response(r: Json): void {
    this.str(1, r.description);
    if (isObject(r.schema)) {
      const schema = r.schema;
      this.msg(2, () => this.msg(1, () => this.schema(schema)));
    }
    if (isObject(r.headers)) {
      const headers = r.headers;
      this.msg(3, () => Object.entries(headers).forEach(([k, h]) => isObject(h) && this.named(1, k, () => this.msg(2, () => this.header(h)))));
    }
    if (isObject(r.examples)) {
      const examples = r.examples;
      this.msg(4, () => Object.entries(examples).forEach(([k, v]) => this.named(1, k, () => this.any(2, v))));
    }
    this.vendor(5, r);
  }

  /** Header: the shared fields from 1, then description 18 and extensions 19. */
  header(h: Json): void {
    this.primitives(h, 1, false);
    this.str(18, h.description);
    this.vendor(19, h);
  }

  operation(o: Json): void {
    this.strs(1, o.tags);
    this.str(2, o.summary);
    this.str(3, o.description);
    this.externalDocs(4, o.externalDocs);
    this.str(5, o.operationId);
    this.strs(6, o.produces);
    this.strs(7, o.consumes);
    if (Array.isArray(o.parameters)) for (const p of o.parameters) this.parametersItem(8, p);
    if (isObject(o.responses)) {
      const responses = o.responses;
      this.msg(9, () => {
        for (const [code, r] of Object.entries(responses)) {
          if (code.startsWith('x-') || !isObject(r)) continue;
          this.named(1, code, () =>
            this.msg(2, () => {
              if (typeof r.$ref === 'string') {
                const ref = r.$ref;
                this.msg(2, () => this.str(1, ref));
              } else this.msg(1, () => this.response(r));
            }),
          );
        }
        this.vendor(2, responses);
      });
    }
    this.strs(10, o.schemes);
    this.bool(11, o.deprecated);
    if (Array.isArray(o.security)) for (const s of o.security) this.securityRequirement(12, s);
    this.vendor(13, o);
  }

  securityRequirement(no: number, s: unknown): void {
    if (!isObject(s)) return;
    this.msg(no, () => Object.entries(s).forEach(([k, v]) => this.named(1, k, () => this.msg(2, () => this.strs(1, v)))));
  }

  pathItem(item: Json): void {
    this.str(1, item.$ref);
    const ops = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;
    ops.forEach((m, i) => {
      const o = item[m];
      if (isObject(o)) this.msg(2 + i, () => this.operation(o));
    });
    if (Array.isArray(item.parameters)) for (const p of item.parameters) this.parametersItem(9, p);
    this.vendor(10, item);
  }

  securityScheme(d: Json): void {
    // SecurityDefinitionsItem: basic 1, apiKey 2, oauth2 implicit 3, password 4, application 5, accessCode 6
    if (d.type === 'basic')
      this.msg(1, () => {
        this.str(1, d.type);
        this.str(2, d.description);
        this.vendor(3, d);
      });
    else if (d.type === 'apiKey')
      this.msg(2, () => {
        this.str(1, d.type);
        this.str(2, d.name);
        this.str(3, d.in);
        this.str(4, d.description);
        this.vendor(5, d);
      });
    else if (d.type === 'oauth2') {
      const flow = String(d.flow);
      const which = ({ implicit: 3, password: 4, application: 5, accessCode: 6 } as Record<string, number>)[flow];
      if (which === undefined) return;
      this.msg(which, () => {
        this.str(1, d.type);
        this.str(2, d.flow);
        if (isObject(d.scopes)) {
          const scopes = d.scopes;
          this.msg(3, () => Object.entries(scopes).forEach(([k, v]) => this.named(1, k, () => this.str(2, v))));
        }
        // implicit: authorizationUrl 4; password, application: tokenUrl 4; accessCode: authorizationUrl 4, tokenUrl 5
        let n = 4;
        if (which === 3 || which === 6) this.str(n++, d.authorizationUrl);
        if (which !== 3) this.str(n++, d.tokenUrl);
        this.str(n, d.description);
        this.vendor(n + 1, d);
      });
    }
  }

  document(doc: Json): void {
    this.str(1, doc.swagger);
    if (isObject(doc.info)) {
      const info = doc.info;
      this.msg(2, () => {
        this.str(1, info.title);
        this.str(2, info.version);
        this.str(3, info.description);
        this.str(4, info.termsOfService);
        if (isObject(info.contact)) {
          const c = info.contact;
          this.msg(5, () => {
            this.str(1, c.name);
            this.str(2, c.url);
            this.str(3, c.email);
            this.vendor(4, c);
          });
        }
        if (isObject(info.license)) {
          const l = info.license;
          this.msg(6, () => {
            this.str(1, l.name);
            this.str(2, l.url);
            this.vendor(3, l);
          });
        }
        this.vendor(7, info);
      });
    }
    this.str(3, doc.host);
    this.str(4, doc.basePath);
    this.strs(5, doc.schemes);
    this.strs(6, doc.consumes);
    this.strs(7, doc.produces);
    if (isObject(doc.paths)) {
      const paths = doc.paths;
      this.msg(8, () => {
        this.vendor(1, paths);
        for (const [p, item] of Object.entries(paths)) if (!p.startsWith('x-') && isObject(item)) this.named(2, p, () => this.msg(2, () => this.pathItem(item)));
      });
    }
    if (isObject(doc.definitions)) {
      const defs = doc.definitions;
      this.msg(9, () => Object.entries(defs).forEach(([k, s]) => isObject(s) && this.named(1, k, () => this.msg(2, () => this.schema(s)))));
    }
    if (isObject(doc.parameters)) {
      const params = doc.parameters;
      this.msg(10, () => Object.entries(params).forEach(([k, p]) => isObject(p) && this.named(1, k, () => this.msg(2, () => this.parameter(p)))));
    }
    if (isObject(doc.responses)) {
      const responses = doc.responses;
      this.msg(11, () => Object.entries(responses).forEach(([k, r]) => isObject(r) && this.named(1, k, () => this.msg(2, () => this.response(r)))));
    }
    if (Array.isArray(doc.security)) for (const s of doc.security) this.securityRequirement(12, s);
    if (isObject(doc.securityDefinitions)) {
      const defs = doc.securityDefinitions;
      this.msg(13, () => Object.entries(defs).forEach(([k, d]) => isObject(d) && this.named(1, k, () => this.msg(2, () => this.securityScheme(d)))));
    }
    if (Array.isArray(doc.tags))
      for (const t of doc.tags)
        if (isObject(t))
          this.msg(14, () => {
            this.str(1, t.name);
            this.str(2, t.description);
            this.externalDocs(3, t.externalDocs);
            this.vendor(4, t);
          });
    this.externalDocs(15, doc.externalDocs);
    this.vendor(16, doc);
  }
}

const HEAD_KEYS = ['swagger', 'info', 'host', 'basePath', 'schemes', 'consumes', 'produces'];

/**
 * The gnostic `openapi.v2.Document` bytes of a swagger 2.0 document, made a path and a definition at a
 * time, awaiting `pause` after each (the server passes a turn of the event loop once a slice of time is
 * used, so that encoding a large document does not hold up other requests).
 */
export async function encodeGnosticV2(doc: Record<string, unknown>, pause: () => Promise<void> = async () => {}): Promise<Uint8Array> {
  const out = new Out(new WireWriter(1 << 16));
  const bytes = (write: () => void): Uint8Array => {
    out.w.reset();
    write();
    return out.w.finish();
  };
  const chunks: Uint8Array[] = [];
  const head: Json = {};
  const tail: Json = {};
  for (const [k, v] of Object.entries(doc)) if (k !== 'paths' && k !== 'definitions') (HEAD_KEYS.includes(k) ? head : tail)[k] = v;
  chunks.push(bytes(() => out.document(head)));
  /** One length-delimited field whose content is the entries, each a length-delimited field of its own. */
  const field = async (no: number, first: Uint8Array, entryNo: number, entries: [string, Json][], entry: (name: string, v: Json) => void) => {
    const parts: Uint8Array[] = [first];
    for (const [name, v] of entries) {
      const body = bytes(() => entry(name, v));
      parts.push(
        bytes(() => out.w.tag(entryNo, WireType.LengthDelimited).uint32(body.length)),
        body,
      );
      await pause();
    }
    const length = parts.reduce((n, p) => n + p.length, 0);
    chunks.push(
      bytes(() => out.w.tag(no, WireType.LengthDelimited).uint32(length)),
      ...parts,
    );
  };
  const objects = (o: unknown, keep: (k: string) => boolean): [string, Json][] => (isObject(o) ? Object.entries(o).filter((e): e is [string, Json] => keep(e[0]) && isObject(e[1])) : []);
  if (isObject(doc.paths)) {
    const paths = doc.paths;
    await field(
      8,
      bytes(() => out.vendor(1, paths)),
      2,
      objects(paths, (k) => !k.startsWith('x-')),
      (name, item) => {
        out.str(1, name);
        out.msg(2, () => out.pathItem(item));
      },
    );
  }
  if (isObject(doc.definitions))
    await field(
      9,
      new Uint8Array(0),
      1,
      objects(doc.definitions, () => true),
      (name, s) => {
        out.str(1, name);
        out.msg(2, () => out.schema(s));
      },
    );
  chunks.push(bytes(() => out.document(tail)));
  return Buffer.concat(chunks);
}
