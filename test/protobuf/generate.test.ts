// generateProto end to end (buf and protoc-gen-es included): the committed
// generated/proto matches what the specs and the lock produce, a second run
// writes nothing, and a dropped-in spec without numbers gets numbers, codecs
// and a working runtime codec.
import { describe, it, expect, afterAll } from 'vitest';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateProtoDetailed } from '../../codegen/proto/index.ts';
import { DEFAULT_LOCK_PATH } from '../../codegen/proto/lock.ts';
import { loadKubeProtobuf } from '../../runtime/codec/protobuf/index.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Inside the project so that generated modules resolve @bufbuild/protobuf.
const TMP = join(ROOT, 'test', 'protobuf', `.tmp-${process.pid}`);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

function files(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

describe('generateProto', () => {
  it('reproduces the committed generated/proto from api-specs without changing the lock', async () => {
    const out = join(TMP, 'repo');
    const lock = join(TMP, 'repo-lock.json');
    mkdirSync(TMP, { recursive: true });
    cpSync(DEFAULT_LOCK_PATH, lock);
    const r = await generateProtoDetailed(join(ROOT, 'api-specs'), out, { lockPath: lock });
    expect(r.model.warnings).toEqual([]);
    expect(readFileSync(lock, 'utf8')).toBe(readFileSync(DEFAULT_LOCK_PATH, 'utf8'));
    const committed = join(ROOT, 'generated', 'proto');
    expect(files(join(out, 'proto'))).toEqual(files(committed));
    for (const f of files(committed)) expect(readFileSync(join(out, 'proto', f), 'utf8'), f).toBe(readFileSync(join(committed, f), 'utf8'));
  });

  it('gives a dropped-in spec stable numbers and a working codec; a second run writes nothing', async () => {
    const specs = join(TMP, 'specs');
    const out = join(TMP, 'out');
    const lock = join(TMP, 'lock.json');
    mkdirSync(specs, { recursive: true });
    cpSync(join(ROOT, 'api-specs', 'meta'), join(specs, 'meta'), { recursive: true });
    writeFileSync(
      join(specs, 'example.com_v1.json'),
      JSON.stringify({
        openapi: '3.0.0',
        info: { title: 'widgets', version: 'v1' },
        paths: {},
        components: {
          schemas: {
            'com.example.v1.Widget': {
              type: 'object',
              'x-kubernetes-group-version-kind': [{ group: 'example.com', version: 'v1', kind: 'Widget' }],
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
                spec: { type: 'object', additionalProperties: { type: 'integer', format: 'int32' } },
                size: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity' },
              },
            },
          },
        },
      }),
    );
    const first = await generateProtoDetailed(specs, out, { lockPath: lock });
    expect(first.written.length).toBeGreaterThan(0);
    const numbers = JSON.parse(readFileSync(lock, 'utf8')).messages['com.example.v1.Widget'];
    expect(numbers).toEqual({ metadata: 1, size: 2, spec: 3 });
    const second = await generateProtoDetailed(specs, out, { lockPath: lock });
    expect(second.written).toEqual([]);
    expect(second.removed).toEqual([]);

    // a spec that changes a field's wire type gets a warning naming it
    const changed = readFileSync(join(specs, 'example.com_v1.json'), 'utf8').replace('"additionalProperties":{"type":"integer","format":"int32"}', '"additionalProperties":{"type":"string"}');
    const specs2 = join(TMP, 'specs2');
    cpSync(specs, specs2, { recursive: true });
    writeFileSync(join(specs2, 'example.com_v1.json'), changed);
    const out2 = join(TMP, 'out2');
    cpSync(out, out2, { recursive: true });
    const third = await generateProtoDetailed(specs2, out2, { lockPath: lock, runBuf: false });
    expect(third.model.warnings.join('\n')).toMatch(/com\.example\.v1\.Widget\.spec \(3\) changed from map varint to map len/);

    const pb = await loadKubeProtobuf(out);
    expect(pb.supports('example.com/v1', 'Widget')).toBe(true);
    expect(pb.supports('example.com/v1', 'WidgetList')).toBe(true);
    const w = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', labels: { a: 'b' } }, spec: { x: 1, y: -2 }, size: '3Gi' };
    expect(pb.decode(pb.encode(w))).toEqual(w);
    const list = { apiVersion: 'example.com/v1', kind: 'WidgetList', metadata: { resourceVersion: '7' }, items: [{ metadata: { name: 'w' }, spec: {} }] };
    expect(pb.decode(pb.encode(list))).toEqual({ ...list, items: [{ metadata: { name: 'w' } }] });
  });
});
