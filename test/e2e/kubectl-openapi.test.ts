// End-to-end: the real kubectl reading the server's OpenAPI documents.
// `kubectl apply -f` of a `kind: List` fetches /openapi/v2 in gnostic
// protobuf form; `kubectl explain` reads /openapi/v3, and with
// `--output=plaintext-openapiv2` the protobuf v2 document; with
// networking.k8s.io/v1beta1 switched on by --runtime-config IPAddress is
// explained, without it kubectl does not know the resource.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KubectlSession, kubectlSession, ok } from '../support/kubectl.ts';

let plain: KubectlSession;
let beta: KubectlSession;

beforeAll(async () => {
  [plain, beta] = await Promise.all([kubectlSession(), kubectlSession(['--runtime-config=networking.k8s.io/v1beta1=true'])]);
});
afterAll(async () => {
  await Promise.all([plain?.stop(), beta?.stop()]);
});

const LIST = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: listed-one
    namespace: default
  data:
    a: "1"
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: listed-two
    namespace: default
  data:
    b: "2"
`;

describe('kubectl and the OpenAPI documents', () => {
  it('apply -f of a kind: List creates both ConfigMaps, and again leaves them unchanged', async () => {
    const first = ok(await plain.k(['apply', '-f', '-'], { input: LIST }));
    expect(first).toContain('configmap/listed-one created');
    expect(first).toContain('configmap/listed-two created');
    expect(ok(await plain.k(['get', 'configmap', 'listed-one', 'listed-two', '-o', 'jsonpath={.items[*].data}']))).toBe('{"a":"1"} {"b":"2"}');
    // kubectl reads the protobuf form of /openapi/v2 for a List (-v=8 shows the request and its answer:
    // revalidated with the ETag, the cached answer keeps its Content-Type)
    const again = await plain.k(['apply', '-f', '-', '-v=8'], { input: LIST });
    expect(again.code, again.stderr).toBe(0);
    const from = again.stderr.search(/GET https:\/\/\S+\/openapi\/v2\?/);
    expect(from).toBeGreaterThan(-1);
    const head = again.stderr.slice(from, again.stderr.indexOf('Response Body', from));
    expect(head).toContain('Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf');
    expect(head).toContain('Response Status: 200 OK');
    expect(head).toContain('Content-Type: application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    expect(head).toMatch(/Etag: \\?"[0-9A-F]{128}\\?"/);
    expect(again.stdout).toContain('configmap/listed-one unchanged');
    expect(again.stdout).toContain('configmap/listed-two unchanged');
  });

  it('explain reads v3, and v2 in its protobuf form', async () => {
    expect(ok(await plain.k(['explain', 'deployment.spec.replicas']))).toContain('FIELD: replicas <integer>');
    const v2 = ok(await plain.k(['explain', 'pods.spec.containers', '--output=plaintext-openapiv2']));
    expect(v2).toContain('RESOURCE: containers <[]Object>');
    expect(v2).toMatch(/image\s+<string>/);
  });

  it('explain ipaddress: served with networking.k8s.io/v1beta1 on, unknown without', async () => {
    const on = ok(await beta.k(['explain', 'ipaddress']));
    expect(on).toContain('KIND:       IPAddress');
    expect(on).toContain('GROUP:      networking.k8s.io');
    expect(on).toContain('VERSION:    v1beta1');
    expect(ok(await beta.k(['explain', 'ipaddress.spec', '--output=plaintext-openapiv2']))).toContain('parentRef');
    const off = await plain.k(['explain', 'ipaddress']);
    expect(off.code).not.toBe(0);
    expect(off.stderr).toContain(`the server doesn't have a resource type "ipaddress"`);
  });
});
