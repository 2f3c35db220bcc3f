// The gnostic protobuf form of /openapi/v2 decodes back to the JSON
// document: a wire decoder written here from the message definitions of
// google/gnostic openapiv2/OpenAPIv2.proto (field numbers transcribed
// separately from the encoder's) turns the bytes into swagger JSON again,
// compared with the input over every path and definition of the generated
// document, and over hand-made documents for the parts it does not use.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { openapiV2Path } from '../../../generated/openapi/index.ts';
import { encodeGnosticV2, yamlText } from './gnostic.ts';

type Json = Record<string, unknown>;
interface Field {
  no: number;
  wt: number;
  varint?: bigint;
  bytes?: Uint8Array;
  double?: number;
}

function fields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let pos = 0;
  const varint = (): bigint => {
    let shift = 0n;
    let v = 0n;
    for (;;) {
      const b = buf[pos++];
      if (b === undefined) throw new Error('truncated varint');
      v |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return v;
      shift += 7n;
    }
  };
  while (pos < buf.length) {
    const key = Number(varint());
    const no = key >>> 3;
    const wt = key & 7;
    if (wt === 0) out.push({ no, wt, varint: varint() });
    else if (wt === 2) {
      const len = Number(varint());
      if (pos + len > buf.length) throw new Error('truncated bytes');
      out.push({ no, wt, bytes: buf.subarray(pos, pos + len) });
      pos += len;
    } else if (wt === 1) {
      out.push({ no, wt, double: Buffer.from(buf.buffer, buf.byteOffset + pos, 8).readDoubleLE(0) });
      pos += 8;
    } else throw new Error(`unexpected wire type ${wt}`);
  }
  return out;
}

const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

// Field kinds: s string, S repeated string, b bool, d double, i int64, a Any (YAML), A repeated Any,
// v NamedAny extension merged into the object; otherwise a decoder of a nested message.
type Kind = 's' | 'S' | 'b' | 'd' | 'i' | 'a' | 'A' | 'v' | ((b: Uint8Array) => unknown) | { repeated: (b: Uint8Array) => unknown };
type Spec = Record<number, [name: string, kind: Kind]>;

function message(spec: Spec, buf: Uint8Array): Json {
  const out: Json = {};
  for (const f of fields(buf)) {
    const s = spec[f.no];
    if (!s) throw new Error(`unknown field ${f.no}`);
    const [name, kind] = s;
    if (kind === 's') out[name] = text(f.bytes!);
    else if (kind === 'S') ((out[name] as string[]) ??= []).push(text(f.bytes!));
    else if (kind === 'b') out[name] = f.varint !== 0n;
    else if (kind === 'd') out[name] = f.double;
    else if (kind === 'i') out[name] = Number(BigInt.asIntN(64, f.varint!));
    else if (kind === 'a') out[name] = anyValue(f.bytes!);
    else if (kind === 'A') ((out[name] as unknown[]) ??= []).push(anyValue(f.bytes!));
    else if (kind === 'v') {
      const pair = message({ 1: ['name', 's'], 2: ['value', 'a'] }, f.bytes!);
      out[pair.name as string] = pair.value;
    } else if (typeof kind === 'function') out[name] = kind(f.bytes!);
    else ((out[name] as unknown[]) ??= []).push(kind.repeated(f.bytes!));
  }
  return out;
}

function anyValue(b: Uint8Array): unknown {
  const m = message({ 2: ['yaml', 's'] }, b);
  return parseYaml(m.yaml as string, { version: '1.1' });
}

/** A message of repeated Named* pairs (name 1, value 2) as an object. */
const namedMap =
  (value: (b: Uint8Array) => unknown, field = 1) =>
  (b: Uint8Array): Json => {
    const out: Json = {};
    for (const f of fields(b)) {
      if (f.no !== field) throw new Error(`unexpected field ${f.no} in a map`);
      const pair = message({ 1: ['name', 's'], 2: ['value', value] }, f.bytes!);
      out[pair.name as string] = pair.value;
    }
    return out;
  };

/** A oneof: exactly one field, decoded by its number. */
const oneof =
  (alts: Record<number, (b: Uint8Array) => unknown>) =>
  (b: Uint8Array): unknown => {
    const fs = fields(b);
    expect(fs.length).toBe(1);
    const f = fs[0];
    if (f.wt === 0) return f.varint !== 0n;
    return alts[f.no](f.bytes!);
  };

const externalDocs = (b: Uint8Array) => message({ 1: ['description', 's'], 2: ['url', 's'], 3: ['', 'v'] }, b);

function schema(b: Uint8Array): Json {
  const s = message(
    {
      1: ['$ref', 's'],
      2: ['format', 's'],
      3: ['title', 's'],
      4: ['description', 's'],
      5: ['default', 'a'],
      6: ['multipleOf', 'd'],
      7: ['maximum', 'd'],
      8: ['exclusiveMaximum', 'b'],
      9: ['minimum', 'd'],
      10: ['exclusiveMinimum', 'b'],
      11: ['maxLength', 'i'],
      12: ['minLength', 'i'],
      13: ['pattern', 's'],
      14: ['maxItems', 'i'],
      15: ['minItems', 'i'],
      16: ['uniqueItems', 'b'],
      17: ['maxProperties', 'i'],
      18: ['minProperties', 'i'],
      19: ['required', 'S'],
      20: ['enum', 'A'],
      21: ['additionalProperties', oneof({ 1: schema })],
      22: ['type', (x) => message({ 1: ['value', 'S'] }, x).value],
      23: ['items', (x) => (message({ 1: ['schema', { repeated: schema }] }, x).schema as unknown[])[0]],
      24: ['allOf', { repeated: schema }],
      25: ['properties', namedMap(schema)],
      26: ['discriminator', 's'],
      27: ['readOnly', 'b'],
      29: ['externalDocs', externalDocs],
      30: ['example', 'a'],
      31: ['', 'v'],
    },
    b,
  );
  if (Array.isArray(s.type) && s.type.length === 1) s.type = s.type[0];
  return s;
}

// query and formData: allowEmptyValue at 5 and the shared fields from 6; header and path: from 5
function sharedFields(base: number, spec: Spec): Spec {
  const names = [
    'type',
    'format',
    'items',
    'collectionFormat',
    'default',
    'maximum',
    'exclusiveMaximum',
    'minimum',
    'exclusiveMinimum',
    'maxLength',
    'minLength',
    'pattern',
    'maxItems',
    'minItems',
    'uniqueItems',
    'enum',
    'multipleOf',
    '',
  ];
  const kinds: Kind[] = ['s', 's', primitivesItems, 's', 'a', 'd', 'b', 'd', 'b', 'i', 'i', 's', 'i', 'i', 'b', 'A', 'd', 'v'];
  const out: Spec = { ...spec };
  names.forEach((n, i) => (out[base + i] = [n, kinds[i]]));
  return out;
}
function primitivesItems(b: Uint8Array): Json {
  return message(sharedFields(1, {}), b);
}
const nonBodyHead: Spec = { 1: ['required', 'b'], 2: ['in', 's'], 3: ['description', 's'], 4: ['name', 's'] };
const parameter = oneof({
  1: (b) => message({ 1: ['description', 's'], 2: ['name', 's'], 3: ['in', 's'], 4: ['required', 'b'], 5: ['schema', schema], 6: ['', 'v'] }, b),
  2: oneof({
    1: (b) => message(sharedFields(5, nonBodyHead), b),
    2: (b) => message(sharedFields(6, { ...nonBodyHead, 5: ['allowEmptyValue', 'b'] }), b),
    3: (b) => message(sharedFields(6, { ...nonBodyHead, 5: ['allowEmptyValue', 'b'] }), b),
    4: (b) => message(sharedFields(5, nonBodyHead), b),
  }),
});
const jsonReference = (b: Uint8Array) => message({ 1: ['$ref', 's'], 2: ['description', 's'] }, b);
const parametersItem = oneof({ 1: parameter, 2: jsonReference });
const response = (b: Uint8Array) => message({ 1: ['description', 's'], 2: ['schema', oneof({ 1: schema })], 5: ['', 'v'] }, b);
const securityRequirement = namedMap((b) => message({ 1: ['value', 'S'] }, b).value ?? []);

function operation(b: Uint8Array): Json {
  return message(
    {
      1: ['tags', 'S'],
      2: ['summary', 's'],
      3: ['description', 's'],
      4: ['externalDocs', externalDocs],
      5: ['operationId', 's'],
      6: ['produces', 'S'],
      7: ['consumes', 'S'],
      8: ['parameters', { repeated: parametersItem }],
      9: [
        'responses',
        (x) => {
          const out: Json = {};
          for (const f of fields(x)) {
            if (f.no === 2) Object.assign(out, message({ 1: ['', 'v'] }, Buffer.concat([Buffer.from([0x0a, f.bytes!.length]), f.bytes!])));
            else {
              const pair = message({ 1: ['name', 's'], 2: ['value', oneof({ 1: response, 2: jsonReference })] }, f.bytes!);
              out[pair.name as string] = pair.value;
            }
          }
          return out;
        },
      ],
      10: ['schemes', 'S'],
      11: ['deprecated', 'b'],
      12: ['security', { repeated: securityRequirement }],
      13: ['', 'v'],
    },
    b,
  );
}

const pathItem = (b: Uint8Array) =>
  message(
    {
      1: ['$ref', 's'],
      2: ['get', operation],
      3: ['put', operation],
      4: ['post', operation],
      5: ['delete', operation],
      6: ['options', operation],
      7: ['head', operation],
      8: ['patch', operation],
      9: ['parameters', { repeated: parametersItem }],
      10: ['', 'v'],
    },
    b,
  );

function paths(b: Uint8Array): Json {
  const out: Json = {};
  for (const f of fields(b)) {
    const pair = message({ 1: ['name', 's'], 2: ['value', f.no === 2 ? pathItem : 'a'] }, f.bytes!);
    out[pair.name as string] = pair.value;
  }
  return out;
}

const securityScheme = oneof({
  1: (b) => message({ 1: ['type', 's'], 2: ['description', 's'], 3: ['', 'v'] }, b),
  2: (b) => message({ 1: ['type', 's'], 2: ['name', 's'], 3: ['in', 's'], 4: ['description', 's'], 5: ['', 'v'] }, b),
  3: (b) => message({ 1: ['type', 's'], 2: ['flow', 's'], 3: ['scopes', namedMap((x) => text(x))], 4: ['authorizationUrl', 's'], 5: ['description', 's'], 6: ['', 'v'] }, b),
  6: (b) => message({ 1: ['type', 's'], 2: ['flow', 's'], 3: ['scopes', namedMap((x) => text(x))], 4: ['authorizationUrl', 's'], 5: ['tokenUrl', 's'], 6: ['description', 's'], 7: ['', 'v'] }, b),
});

function decodeDocument(b: Uint8Array): Json {
  return message(
    {
      1: ['swagger', 's'],
      2: ['info', (x) => message({ 1: ['title', 's'], 2: ['version', 's'], 3: ['description', 's'], 4: ['termsOfService', 's'], 7: ['', 'v'] }, x)],
      3: ['host', 's'],
      4: ['basePath', 's'],
      5: ['schemes', 'S'],
      6: ['consumes', 'S'],
      7: ['produces', 'S'],
      8: ['paths', paths],
      9: ['definitions', namedMap(schema)],
      10: ['parameters', namedMap(parameter)],
      11: ['responses', namedMap(response)],
      12: ['security', { repeated: securityRequirement }],
      13: ['securityDefinitions', namedMap(securityScheme)],
      14: ['tags', { repeated: (x) => message({ 1: ['name', 's'], 2: ['description', 's'], 3: ['externalDocs', externalDocs], 4: ['', 'v'] }, x) }],
      15: ['externalDocs', externalDocs],
      16: ['', 'v'],
    },
    b,
  );
}

/**
 * What the protobuf form can carry: proto3 drops zero scalars, empty strings and empty lists; a oneof
 * (additionalProperties: false) and the scope lists of a security requirement are kept even when empty.
 */
function representable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => representable(x));
  if (typeof v !== 'object' || v === null) return v;
  const out: Json = {};
  for (const [k, x] of Object.entries(v)) {
    // values inside Any (defaults, examples, enum members, extensions) are carried whole
    if (k === 'default' || k === 'example' || k === 'enum' || k.startsWith('x-') || (k === 'additionalProperties' && x === false)) out[k] = x;
    else if (k === 'security' && Array.isArray(x)) out[k] = x;
    else if (x === false || x === '' || x === 0 || (Array.isArray(x) && x.length === 0)) continue;
    else out[k] = representable(x);
  }
  return out;
}

describe('gnostic openapi.v2.Document', () => {
  it('the generated document round-trips: every path and definition', async () => {
    const doc = JSON.parse(readFileSync(openapiV2Path, 'utf8'));
    const back = decodeDocument(await encodeGnosticV2(doc));
    expect(Object.keys(back.paths as Json)).toEqual(Object.keys(doc.paths));
    expect(Object.keys(back.definitions as Json)).toEqual(Object.keys(doc.definitions));
    for (const p of Object.keys(doc.paths)) expect((back.paths as Json)[p], p).toEqual(representable(doc.paths[p]));
    for (const d of Object.keys(doc.definitions)) expect((back.definitions as Json)[d], d).toEqual(representable(doc.definitions[d]));
    expect(back).toEqual(representable(doc));
  });

  it('round-trips the parts of swagger 2.0 the generated document does not use', async () => {
    const doc = {
      swagger: '2.0',
      info: { title: 't', version: 'v', description: 'd', termsOfService: 'tos', 'x-info': { a: [1, 2] } },
      host: 'example.com',
      basePath: '/base',
      schemes: ['https', 'http'],
      consumes: ['application/json'],
      produces: ['application/yaml'],
      paths: {
        'x-paths': 'ext',
        '/things/{id}': {
          parameters: [{ name: 'id', in: 'path', required: true, type: 'string', pattern: '^[a-z]+$', maxLength: 63, minLength: 1, 'x-p': true }],
          get: {
            tags: ['a'],
            summary: 's',
            externalDocs: { url: 'https://docs', description: 'more' },
            deprecated: true,
            parameters: [
              {
                name: 'limit',
                in: 'query',
                type: 'integer',
                format: 'int32',
                minimum: -5,
                maximum: 10.5,
                exclusiveMaximum: true,
                exclusiveMinimum: true,
                default: 3,
                multipleOf: 0.5,
                allowEmptyValue: true,
              },
              {
                name: 'names',
                in: 'query',
                type: 'array',
                collectionFormat: 'csv',
                items: { type: 'string', enum: ['a', 'b'], items: { type: 'integer' } },
                maxItems: 4,
                minItems: 1,
                uniqueItems: true,
              },
              { name: 'X-Trace', in: 'header', type: 'string', enum: ['on', 'off'] },
              { name: 'file', in: 'formData', type: 'file' },
              { $ref: '#/parameters/shared' },
            ],
            responses: {
              '200': { description: 'ok', schema: { type: 'array', items: { $ref: '#/definitions/Thing' } } },
              '404': { $ref: '#/responses/missing' },
              'x-r': 1,
            },
            security: [{ key: [] }, { oauth: ['read', 'write'] }],
          },
        },
      },
      definitions: {
        Thing: {
          type: 'object',
          title: 'A thing',
          required: ['id'],
          discriminator: 'kind',
          readOnly: true,
          maxProperties: 9,
          minProperties: 1,
          additionalProperties: false,
          properties: { id: { type: 'string', example: 'abc', default: 'x' }, tags: { type: 'object', additionalProperties: { type: 'string' } }, kind: { type: 'string', enum: ['A', null] } },
          allOf: [{ $ref: '#/definitions/Base' }, { type: 'object' }],
          'x-kubernetes-group-version-kind': [{ group: '', kind: 'Thing', version: 'v1' }],
        },
        Base: { type: ['object', 'null'], externalDocs: { url: 'u' }, 'x-unicode': 'é ✓' },
      },
      parameters: { shared: { name: 'pretty', in: 'query', type: 'string' }, body: { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/Thing' } } },
      responses: { missing: { description: 'not there', schema: { type: 'string' } } },
      security: [{ key: [] }],
      securityDefinitions: {
        key: { type: 'apiKey', name: 'authorization', in: 'header', description: 'token' },
        basic: { type: 'basic' },
        oauth: { type: 'oauth2', flow: 'accessCode', authorizationUrl: 'https://a', tokenUrl: 'https://t', scopes: { read: 'r', write: 'w' } },
        implicit: { type: 'oauth2', flow: 'implicit', authorizationUrl: 'https://a', scopes: {} },
      },
      tags: [{ name: 'a', description: 'tag a', externalDocs: { url: 'u' } }],
      externalDocs: { url: 'https://k8s.io' },
      'x-top': { nested: ['y'] },
    };
    expect(decodeDocument(await encodeGnosticV2(doc))).toEqual(representable(doc));
  });

  it('pauses after each path and definition', async () => {
    const doc = JSON.parse(readFileSync(openapiV2Path, 'utf8'));
    let pauses = 0;
    await encodeGnosticV2(doc, async () => {
      pauses++;
    });
    expect(pauses).toBe(Object.keys(doc.paths).length + Object.keys(doc.definitions).length);
  });

  it('keeps the values of extensions and defaults as YAML text', () => {
    expect(yamlText([{ group: '', kind: 'Pod', version: 'v1' }])).toBe('- group: ""\n  kind: Pod\n  version: v1\n');
    expect(yamlText('get')).toBe('get\n');
    expect(parseYaml(yamlText({ long: 'x'.repeat(500) }))).toEqual({ long: 'x'.repeat(500) });
    // strings a YAML 1.1 reader (go-yaml v2, kubectl) would take for booleans or numbers stay strings
    for (const s of ['yes', 'No', 'on', 'OFF', 'y', 'n', '1_000', '0x1F', '2001-01-01', 'null', '~', '']) expect(parseYaml(yamlText(s), { version: '1.1' }), s).toBe(s);
  });
});
