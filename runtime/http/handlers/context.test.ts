// codecNow: the codec of a resource's kind is asked of the protobuf support
// until it is loaded, then kept per resource, and forgotten when the
// resource is served under another protobuf support (servers in one process).
import { describe, expect, it } from 'vitest';
import { codecNow, negotiate, type RequestContext } from './context.ts';
import type { ProtobufSupport } from '../protobuf.ts';
import type { KubeProtobuf } from '../../codec/protobuf/index.ts';

const codecA = { name: 'A' } as unknown as KubeProtobuf;
const codecB = { name: 'B' } as unknown as KubeProtobuf;

/** A support whose codec is loaded once `loaded.codec` is set; counts the asks. */
function support(loaded: { codec?: KubeProtobuf }, asked: string[]): ProtobufSupport {
  return {
    supports: () => true,
    codec: () => Promise.reject(new Error('not in this test')),
    codecNow: (apiVersion, kind) => (asked.push(`${apiVersion}/${kind}`), loaded.codec),
    decode: () => Promise.reject(new Error('not in this test')),
  };
}

const rcOf = (def: object, protobuf: ProtobufSupport): RequestContext =>
  ({ res: { def }, services: { protobuf }, c: { req: { raw: { headers: new Headers() } }, env: undefined } }) as unknown as RequestContext;

describe('codecNow', () => {
  it('asks until loaded, then answers from what it kept; another support is asked afresh', () => {
    const def = { group: 'apps', version: 'v1', kind: 'Deployment', listKind: 'DeploymentList' };
    const asked: string[] = [];
    const loadedA: { codec?: KubeProtobuf } = {};
    const a = support(loadedA, asked);
    const rows: [string, RequestContext, () => void, KubeProtobuf | undefined, number][] = [
      ['not loaded yet', rcOf(def, a), () => {}, undefined, 1],
      ['still not loaded', rcOf(def, a), () => {}, undefined, 2],
      ['loaded', rcOf(def, a), () => (loadedA.codec = codecA), codecA, 3],
      ['kept', rcOf(def, a), () => {}, codecA, 3],
    ];
    for (const [what, rc, before, want, asks] of rows) {
      before();
      // the negotiation options are worked out under the support first, as a GET does
      negotiate(rc, false);
      expect([what, codecNow(rc), asked.length]).toEqual([what, want, asks]);
    }
    expect(asked[0]).toBe('apps/v1/Deployment');
    const b = support({ codec: codecB }, asked);
    const rcB = rcOf(def, b);
    negotiate(rcB, false);
    expect(codecNow(rcB)).toBe(codecB);
    expect(asked).toHaveLength(4);
    // back under the first support: asked again, not B's codec
    const rcA = rcOf(def, a);
    negotiate(rcA, false);
    expect(codecNow(rcA)).toBe(codecA);
    expect(asked).toHaveLength(5);
  });
});
