// Bootstrap tokens, table-driven: the token and Secret formats, expiration
// parsing, the authenticator's checks (each failure is "not recognised"
// and logs a reason without the secret), the cleaner's plan, and the
// signer's detached JWS (upstream's own vectors) and cluster-info data.

import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BootstrapTokenAuthenticator, type SecretReader } from './authenticator.ts';
import { planTokenCleanup } from './cleaner.ts';
import { computeDetachedSignature, signClusterInfo, signingTokens } from './signer.ts';
import { verifyDetachedHS256 } from '../../../test/support/jws.ts';
import { expiration, groupsOf, parseRFC3339, parseSecretName, parseToken, validateGroupName, type SecretObject } from './token.ts';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const ID = 'abcdef';
const SECRET = '0123456789abcdef';
const TOKEN = `${ID}.${SECRET}`;

function b64(s: string): string {
  return Buffer.from(s).toString('base64');
}

function tokenSecret(data: Record<string, string>, opts: { name?: string; namespace?: string; type?: string; meta?: Record<string, unknown> } = {}): SecretObject {
  return {
    metadata: { name: opts.name ?? `bootstrap-token-${ID}`, namespace: opts.namespace ?? 'kube-system', uid: 'u-1', ...opts.meta },
    type: opts.type ?? 'bootstrap.kubernetes.io/token',
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  };
}

const goodData = { 'token-id': ID, 'token-secret': SECRET, 'usage-bootstrap-authentication': 'true', expiration: '2026-01-02T00:00:00Z' };

function readerOf(secrets: SecretObject[]): SecretReader {
  return {
    get: async (_r, ns, name) => secrets.find((s) => (s.metadata as Record<string, string>).namespace === ns && (s.metadata as Record<string, string>).name === name),
  };
}

describe('formats', () => {
  it.each<[string, boolean]>([
    [TOKEN, true],
    ['abcdef.0123456789abcdeF', false],
    ['abcde.0123456789abcdef', false],
    ['abcdef.0123456789abcdef0', false],
    ['abcdef:0123456789abcdef', false],
    [` ${TOKEN}`, false],
    [`${TOKEN}\n`, false],
    ['', false],
  ])('token %j well-formed: %s', (t, ok) => {
    expect(parseToken(t) !== undefined).toBe(ok);
  });
  it('generates well-formed tokens', () => {});
  it.each<[string, string | undefined]>([
    ['bootstrap-token-abcdef', 'abcdef'],
    ['bootstrap-token-abcde', undefined],
    ['bootstrap-token-ABCDEF', undefined],
    ['token-abcdef', undefined],
  ])('secret name %j', (n, id) => {
    expect(parseSecretName(n)).toBe(id);
  });
  it.each<[string, number | undefined]>([
    ['2026-01-01T00:00:00Z', NOW],
    ['2026-01-01T01:00:00+01:00', NOW],
    ['2026-01-01T00:00:00.5Z', NOW + 500],
    ['2026-01-01 00:00:00Z', undefined],
    ['2026-01-01T00:00:00', undefined],
    ['2026-13-01T00:00:00Z', undefined],
    ['tomorrow', undefined],
  ])('RFC 3339 %j', (s, want) => {
    expect(parseRFC3339(s)).toBe(want);
  });
  it.each<[string, Record<string, string>, { expired: boolean; remainingMs: number }]>([
    ['no expiration', {}, { expired: false, remainingMs: 0 }],
    ['in an hour', { expiration: '2026-01-01T01:00:00Z' }, { expired: false, remainingMs: 3600_000 }],
    ['exactly now', { expiration: '2026-01-01T00:00:00Z' }, { expired: true, remainingMs: 0 }],
    ['unparseable', { expiration: 'soon' }, { expired: true, remainingMs: 0 }],
  ])('expiration: %s', (_n, data, want) => {
    expect(expiration(tokenSecret(data), NOW)).toEqual(want);
  });
  it.each<[string, string | undefined]>([
    ['system:bootstrappers:kubeadm:default-node-token', undefined],
    ['system:bootstrappers:a', undefined],
    ['system:bootstrappers:', 'bootstrap group "system:bootstrappers:" is invalid (must match \\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z)'],
    ['system:bootstrappers:a-', 'bootstrap group "system:bootstrappers:a-" is invalid (must match \\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z)'],
    ['system:masters', 'bootstrap group "system:masters" is invalid (must match \\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z)'],
    [`system:bootstrappers:${'a'.repeat(257)}`, `bootstrap group "system:bootstrappers:${'a'.repeat(257)}" is invalid (must match \\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z)`],
  ])('group %j', (g, err) => {
    expect(validateGroupName(g)).toBe(err);
  });
  it('groups are sorted and deduplicated, with the default group', () => {
    expect(groupsOf(tokenSecret({ 'auth-extra-groups': 'system:bootstrappers:z,system:bootstrappers:a,system:bootstrappers:z' }))).toEqual([
      'system:bootstrappers',
      'system:bootstrappers:a',
      'system:bootstrappers:z',
    ]);
  });
});

describe('authenticator', () => {
  it('authenticates a good token as system:bootstrap:<id> with its groups', async () => {
    const s = tokenSecret({ ...goodData, 'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token' });
    const a = new BootstrapTokenAuthenticator({ reader: readerOf([s]), now: () => NOW });
    expect(await a.authenticateToken(TOKEN, [])).toEqual({
      user: { name: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token'] },
    });
  });
  it('works without an expiration', async () => {
    const { expiration: _e, ...rest } = goodData;
    const a = new BootstrapTokenAuthenticator({ reader: readerOf([tokenSecret(rest)]), now: () => NOW });
    expect((await a.authenticateToken(TOKEN, []))?.user.name).toBe('system:bootstrap:abcdef');
  });
  const rejects: [string, string, SecretObject[], string | undefined][] = [
    ['malformed token', 'abcdef.short', [tokenSecret(goodData)], undefined],
    ['JWT-looking token', 'a.b.c', [tokenSecret(goodData)], undefined],
    ['oversized token', 'x'.repeat(20_000), [tokenSecret(goodData)], undefined],
    ['no Secret', TOKEN, [], 'No secret of name bootstrap-token-abcdef to match bootstrap bearer token'],
    ['Secret in another namespace', TOKEN, [tokenSecret(goodData, { namespace: 'default' })], 'No secret of name bootstrap-token-abcdef to match bootstrap bearer token'],
    ['Secret being deleted', TOKEN, [tokenSecret(goodData, { meta: { deletionTimestamp: '2026-01-01T00:00:00Z' } })], 'is deleted and awaiting removal'],
    ['wrong type', TOKEN, [tokenSecret(goodData, { type: 'Opaque' })], 'has invalid type, expected bootstrap.kubernetes.io/token.'],
    [
      'no data',
      TOKEN,
      [{ metadata: { name: 'bootstrap-token-abcdef', namespace: 'kube-system' }, type: 'bootstrap.kubernetes.io/token' }],
      'has invalid type, expected bootstrap.kubernetes.io/token.',
    ],
    ['wrong secret', 'abcdef.0123456789abcdeX'.replace('X', '0'), [tokenSecret(goodData)], 'has invalid value for key token-secret.'],
    ['token-id differs', TOKEN, [tokenSecret({ ...goodData, 'token-id': 'zzzzzz' })], 'has invalid value for key token-id.'],
    ['expired', TOKEN, [tokenSecret({ ...goodData, expiration: '2025-12-31T23:59:59Z' })], 'has expired.'],
    ['unparseable expiration', TOKEN, [tokenSecret({ ...goodData, expiration: 'never' })], 'has expired.'],
    ['not for authentication', TOKEN, [tokenSecret({ ...goodData, 'usage-bootstrap-authentication': 'yes' })], 'not marked usage-bootstrap-authentication=true.'],
    [
      'bad extra group',
      TOKEN,
      [tokenSecret({ ...goodData, 'auth-extra-groups': 'system:masters' })],
      'has invalid value for key auth-extra-groups: bootstrap group "system:masters" is invalid (must match \\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z).',
    ],
  ];
  it.each(rejects)('not recognised: %s', async (_n, token, secrets, reason) => {
    const logs: string[] = [];
    const a = new BootstrapTokenAuthenticator({ reader: readerOf(secrets), now: () => NOW, log: (m) => logs.push(m) });
    expect(await a.authenticateToken(token, [])).toBeUndefined();
    if (reason === undefined) {
      expect(logs).toEqual([]);
    } else {
      expect(logs).toHaveLength(1);
      expect(logs[0]).toContain(reason);
      expect(logs[0]).not.toContain(SECRET);
      expect(logs[0]).not.toContain('0123456789abcde0');
    }
  });
});

describe('token cleaner', () => {
  it('deletes expired and unparseable token Secrets and says when to look again', () => {
    const secrets = [
      tokenSecret({ expiration: '2025-12-31T00:00:00Z' }, { name: 'bootstrap-token-aaaaaa' }),
      tokenSecret({ expiration: 'garbage' }, { name: 'bootstrap-token-bbbbbb' }),
      tokenSecret({ expiration: '2026-01-01T00:10:00Z' }, { name: 'bootstrap-token-cccccc' }),
      tokenSecret({ expiration: '2026-01-01T00:05:00Z' }, { name: 'bootstrap-token-dddddd' }),
      tokenSecret({}, { name: 'bootstrap-token-eeeeee' }),
      tokenSecret({ expiration: '2025-01-01T00:00:00Z' }, { name: 'other', type: 'Opaque' }),
      tokenSecret({ expiration: '2025-01-01T00:00:00Z' }, { name: 'bootstrap-token-ffffff', namespace: 'default' }),
    ];
    expect(planTokenCleanup(secrets, NOW)).toEqual({
      delete: [
        { namespace: 'kube-system', name: 'bootstrap-token-aaaaaa', uid: 'u-1' },
        { namespace: 'kube-system', name: 'bootstrap-token-bbbbbb', uid: 'u-1' },
      ],
      nextCheckInMs: 5 * 60_000,
    });
  });
  it('nothing to do', () => {
    expect(planTokenCleanup([], NOW)).toEqual({ delete: [] });
  });
});

describe('bootstrap signer', () => {
  it("computes upstream's detached signatures (cluster-bootstrap test vectors)", async () => {
    const content = 'Hello from the other side. I must have called a thousand times.';
    expect(await computeDetachedSignature(content, 'joshua', 'my voice is my passcode')).toBe('eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8');
    expect(await computeDetachedSignature('', 'joshua', 'my voice is my passcode')).toBe('eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..7Ui1ALizW4jXphVUB7xUqC9vLYLL9RZeOFfVLoB7Tgk');
    const sig = 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..VShe2taLd-YTrmWuRkcL_8QTNDHYxQIEBsAYYiIj1_8';
    expect(await verifyDetachedHS256(sig, content, 'my voice is my passcode')).toBe(true);
    expect(await verifyDetachedHS256(`${sig}foo`, content, 'my voice is my passcode')).toBe(false);
  });
  it('is an HS256 HMAC over header.payload keyed by the token secret', async () => {
    const sig = await computeDetachedSignature('kubeconfig text', ID, SECRET);
    const [h, empty, s] = sig.split('.');
    expect(empty).toBe('');
    expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ alg: 'HS256', kid: ID });
    const mac = createHmac('sha256', SECRET)
      .update(`${h}.${Buffer.from('kubeconfig text').toString('base64url')}`)
      .digest('base64url');
    expect(s).toBe(mac);
  });
  const signing = { 'token-id': ID, 'token-secret': SECRET, 'usage-bootstrap-signing': 'true' };
  it.each<[string, SecretObject, boolean]>([
    ['a signing token', tokenSecret(signing), true],
    ['not marked for signing', tokenSecret({ ...signing, 'usage-bootstrap-signing': 'false' }), false],
    ['expired', tokenSecret({ ...signing, expiration: '2025-12-31T00:00:00Z' }), false],
    ['unparseable expiration', tokenSecret({ ...signing, expiration: 'x' }), false],
    ['id differs from the name', tokenSecret({ ...signing, 'token-id': 'zzzzzz' }), false],
    ['no secret', tokenSecret({ ...signing, 'token-secret': '' }), false],
    ['bad name', tokenSecret(signing, { name: 'bootstrap-token-ABCDEF' }), false],
    ['wrong type', tokenSecret(signing, { type: 'Opaque' }), false],
  ])('signing tokens: %s', (_n, s, included) => {
    expect([...signingTokens([s], NOW).keys()]).toEqual(included ? [ID] : []);
  });
  it('writes one signature per signing token and drops the others', async () => {
    const other = tokenSecret({ 'token-id': 'zzzzzz', 'token-secret': 'ffffffffffffffff', 'usage-bootstrap-signing': 'true' }, { name: 'bootstrap-token-zzzzzz' });
    const data = { kubeconfig: 'apiVersion: v1\nkind: Config\n', 'jws-kubeconfig-gone00': 'stale', 'jws-kubeconfig-abcdef': 'stale' };
    const { data: out, changed } = await signClusterInfo(data, [tokenSecret(signing), other], NOW);
    expect(changed).toBe(true);
    expect(out).toEqual({
      kubeconfig: data.kubeconfig,
      'jws-kubeconfig-abcdef': await computeDetachedSignature(data.kubeconfig, ID, SECRET),
      'jws-kubeconfig-zzzzzz': await computeDetachedSignature(data.kubeconfig, 'zzzzzz', 'ffffffffffffffff'),
    });
    expect(await signClusterInfo(out, [tokenSecret(signing), other], NOW)).toEqual({ data: out, changed: false });
    const later = await signClusterInfo(out, [tokenSecret({ ...signing, expiration: '2026-01-01T00:00:01Z' }), other], NOW + 2000);
    expect(Object.keys(later.data).sort()).toEqual(['jws-kubeconfig-zzzzzz', 'kubeconfig']);
    expect(later.changed).toBe(true);
  });
  it('leaves a ConfigMap without kubeconfig alone', async () => {
    const data = { 'jws-kubeconfig-abcdef': 'x' };
    expect(await signClusterInfo(data, [tokenSecret(signing)], NOW)).toEqual({ data, changed: false });
  });
});
