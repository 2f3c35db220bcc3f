// End-to-end: the real kubectl against a server process sees the
// deprecation warning of flowcontrol v1beta3 (printed on stderr as
// `Warning: ...`), and none for v1; the CLI refuses a --runtime-config that
// names a removed group-version, and a locked or unknown feature gate, with
// upstream's message and exit code 1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Kubectl, type KubectlSession, kubectlSession, ok } from '../support/kubectl.ts';
import { runCliToExit } from '../support/server-process.ts';

let session: KubectlSession;
const k: Kubectl = (args, opts) => session.k(args, opts);

beforeAll(async () => {
  session = await kubectlSession();
});
afterAll(async () => {
  await session?.stop();
});

const WARNING = 'Warning: flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 FlowSchema';

describe('kubectl and a deprecated version', () => {
  it('prints the warning for flowschemas.v1beta3, and still answers', async () => {
    const r = await k(['get', 'flowschemas.v1beta3.flowcontrol.apiserver.k8s.io']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(WARNING);
  });

  it('prints nothing for v1', async () => {
    const r = await k(['get', 'flowschemas.v1.flowcontrol.apiserver.k8s.io']);
    ok(r);
    expect(r.stderr).not.toContain('deprecated');
  });
});

describe('the CLI refuses bad --runtime-config and --feature-gates', () => {
  it.each([
    ['--runtime-config=extensions/v1beta1=true', 'Error: unknown api groups extensions'],
    ['--runtime-config=policy/v1beta1=true', 'Error: group version policy/v1beta1 that has not been registered'],
    ['--runtime-config=apps/v1=maybe', 'Error: invalid value of apps/v1: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax'],
    ['--feature-gates=ValidatingAdmissionPolicy=false', 'Error: cannot set feature gate ValidatingAdmissionPolicy to false, feature is locked to true'],
    ['--feature-gates=NoSuchGate=true', 'Error: unrecognized feature gate: NoSuchGate'],
  ])('%s: exits 1 with "%s"', async (flag, message) => {
    const r = await runCliToExit(['--secure-port', '0', '--data-dir', ':memory:', flag]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(message);
  });
});
