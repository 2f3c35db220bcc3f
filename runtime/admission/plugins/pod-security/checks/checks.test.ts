// Each Pod Security check against compliant and violating pods: the reason
// and the detail texts exactly as upstream words them, and what each
// revision (by policy version) allows.

import { describe, expect, it } from 'vitest';
import { type Check, type PodMeta, type PodSpec } from './types.ts';
import { DEFAULT_CHECKS } from './index.ts';

const byId = new Map(DEFAULT_CHECKS.map((c) => [c.id, c]));

/** The revision of `id` in effect at v1.<minor> (the newest by default). */
function run(id: string, spec: PodSpec, meta: PodMeta = {}, minor = Infinity) {
  const check: Check = byId.get(id)!;
  const rev = [...check.versions].reverse().find((v) => !v.minVersion.latest && v.minVersion.minor <= minor)!;
  return rev.check(meta, spec);
}

type Case = [name: string, spec: PodSpec, want: [reason: string, detail: string] | null, meta?: PodMeta, minor?: number];

const c = (name: string, securityContext?: object, more: object = {}) => ({ name, ...(securityContext ? { securityContext } : {}), ...more });

const TABLES: Record<string, Case[]> = {
  appArmorProfile: [
    ['unset', { containers: [c('a')] }, null],
    ['RuntimeDefault and Localhost', { securityContext: { appArmorProfile: { type: 'RuntimeDefault' } }, containers: [c('a', { appArmorProfile: { type: 'Localhost' } })] }, null],
    ['pod Unconfined', { securityContext: { appArmorProfile: { type: 'Unconfined' } } }, ['forbidden AppArmor profile', 'pod must not set AppArmor profile type to "Unconfined"']],
    [
      'init container Unconfined',
      { initContainers: [c('i', { appArmorProfile: { type: 'Unconfined' } })], containers: [c('a')] },
      ['forbidden AppArmor profile', 'container "i" must not set AppArmor profile type to "Unconfined"'],
    ],
    [
      'annotations allowed',
      { containers: [c('a')] },
      null,
      {
        annotations: {
          'container.apparmor.security.beta.kubernetes.io/a': 'runtime/default',
          'container.apparmor.security.beta.kubernetes.io/b': 'localhost/x',
          'container.apparmor.security.beta.kubernetes.io/c': '',
        },
      },
    ],
    [
      'pod, containers and annotations',
      { securityContext: { appArmorProfile: { type: 'Unconfined' } }, containers: [c('a', { appArmorProfile: { type: 'Unconfined' } }), c('b', { appArmorProfile: { type: 'Unconfined' } })] },
      [
        'forbidden AppArmor profiles',
        // upstream quotes the annotation values (%q) and then quotes the whole entry without escaping
        'pod and containers "a", "b" and annotations must not set AppArmor profile type to "Unconfined", "container.apparmor.security.beta.kubernetes.io/a="unconfined"", "container.apparmor.security.beta.kubernetes.io/b="bad""',
      ],
      { annotations: { 'container.apparmor.security.beta.kubernetes.io/b': 'bad', 'container.apparmor.security.beta.kubernetes.io/a': 'unconfined' } },
    ],
  ],
  capabilities_baseline: [
    ['default set', { containers: [c('a', { capabilities: { add: ['CHOWN', 'NET_BIND_SERVICE', 'SYS_CHROOT'] } })] }, null],
    [
      'non-default in two containers',
      { initContainers: [c('i', { capabilities: { add: ['NET_RAW'] } })], containers: [c('a', { capabilities: { add: ['SYS_ADMIN', 'CHOWN', 'NET_RAW'] } }), c('b')] },
      ['non-default capabilities', 'containers "i", "a" must not include "NET_RAW", "SYS_ADMIN" in securityContext.capabilities.add'],
    ],
  ],
  hostNamespaces: [
    ['none', { hostNetwork: false }, null],
    ['all three', { hostPID: true, hostNetwork: true, hostIPC: true }, ['host namespaces', 'hostIPC, hostNetwork, hostPID']],
    ['network', { hostNetwork: true }, ['host namespaces', 'hostNetwork']],
  ],
  hostPathVolumes: [
    ['emptyDir', { volumes: [{ name: 'v', emptyDir: {} }] }, null],
    [
      'one',
      {
        volumes: [
          { name: 'a', hostPath: { path: '/' } },
          { name: 'b', emptyDir: {} },
        ],
      },
      ['hostPath volumes', 'volume "a"'],
    ],
    [
      'two',
      {
        volumes: [
          { name: 'a', hostPath: { path: '/' } },
          { name: 'b', hostPath: { path: '/x' } },
        ],
      },
      ['hostPath volumes', 'volumes "a", "b"'],
    ],
  ],
  hostPorts: [
    ['container ports only', { containers: [c('a', undefined, { ports: [{ containerPort: 80 }, { containerPort: 81, hostPort: 0 }] })] }, null],
    ['one', { containers: [c('a', undefined, { ports: [{ containerPort: 80, hostPort: 8080 }] })] }, ['hostPort', 'container "a" uses hostPort 8080']],
    [
      'several, sorted as strings',
      { initContainers: [c('i', undefined, { ports: [{ hostPort: 9090 }] })], containers: [c('a', undefined, { ports: [{ hostPort: 80 }, { hostPort: 10000 }] })] },
      ['hostPort', 'containers "i", "a" use hostPorts 10000, 80, 9090'],
    ],
  ],
  privileged: [
    ['false and unset', { containers: [c('a', { privileged: false }), c('b')] }, null],
    ['ephemeral container', { containers: [c('a')], ephemeralContainers: [c('e', { privileged: true })] }, ['privileged', 'container "e" must not set securityContext.privileged=true']],
    ['two', { containers: [c('a', { privileged: true }), c('b', { privileged: true })] }, ['privileged', 'containers "a", "b" must not set securityContext.privileged=true']],
  ],
  procMount: [
    ['Default', { containers: [c('a', { procMount: 'Default' }), c('b')] }, null],
    ['Unmasked', { containers: [c('a', { procMount: 'Unmasked' }), c('b', { procMount: 'Unmasked' })] }, ['procMount', 'containers "a", "b" must not set securityContext.procMount to "Unmasked"']],
  ],
  seLinuxOptions: [
    ['allowed types', { securityContext: { seLinuxOptions: { type: 'container_t', level: 's0' } }, containers: [c('a', { seLinuxOptions: { type: 'container_init_t' } })] }, null],
    ['container_engine_t from 1.31', { containers: [c('a', { seLinuxOptions: { type: 'container_engine_t' } })] }, null],
    [
      'container_engine_t before 1.31',
      { containers: [c('a', { seLinuxOptions: { type: 'container_engine_t' } })] },
      ['seLinuxOptions', 'container "a" set forbidden securityContext.seLinuxOptions: type "container_engine_t"'],
      {},
      30,
    ],
    [
      'pod and containers, type, user and role',
      { securityContext: { seLinuxOptions: { type: 'foo', user: 'u', role: 'r' } }, containers: [c('a', { seLinuxOptions: { type: 'bar' } }), c('b', { seLinuxOptions: { user: 'x' } })] },
      ['seLinuxOptions', 'pod and containers "a", "b" set forbidden securityContext.seLinuxOptions: types "bar", "foo"; user may not be set; role may not be set'],
    ],
    ['role only', { securityContext: { seLinuxOptions: { role: 'r' } } }, ['seLinuxOptions', 'pod set forbidden securityContext.seLinuxOptions: role may not be set']],
  ],
  seccompProfile_baseline: [
    ['unset', { containers: [c('a')] }, null],
    ['RuntimeDefault', { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [c('a', { seccompProfile: { type: 'Localhost' } })] }, null],
    [
      'Unconfined in pod and container',
      { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [c('a', { seccompProfile: { type: 'Unconfined' } })] },
      ['seccompProfile', 'pod and container "a" must not set securityContext.seccompProfile.type to "Unconfined"'],
    ],
    ['annotations ignored from 1.19', { containers: [c('a')] }, null, { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } }],
    [
      'annotations before 1.19',
      { containers: [c('a'), c('b')] },
      ['seccompProfile', 'forbidden annotations container.seccomp.security.alpha.kubernetes.io/a="unconfined", seccomp.security.alpha.kubernetes.io/pod="unconfined"'],
      {
        annotations: {
          'seccomp.security.alpha.kubernetes.io/pod': 'unconfined',
          'container.seccomp.security.alpha.kubernetes.io/a': 'unconfined',
          'container.seccomp.security.alpha.kubernetes.io/b': 'docker/default',
        },
      },
      18,
    ],
  ],
  sysctls: [
    ['safe', { securityContext: { sysctls: [{ name: 'kernel.shm_rmid_forced' }, { name: 'net.ipv4.tcp_keepalive_time' }] } }, null],
    ['unsafe', { securityContext: { sysctls: [{ name: 'kernel.msgmax' }, { name: 'net.ipv4.ip_local_port_range' }, { name: 'a.b' }] } }, ['forbidden sysctls', 'kernel.msgmax, a.b']],
    ['tcp_keepalive_time before 1.29', { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_keepalive_time' }] } }, ['forbidden sysctls', 'net.ipv4.tcp_keepalive_time'], {}, 28],
    ['ip_local_reserved_ports from 1.27', { securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports' }] } }, null, {}, 27],
    ['ip_local_reserved_ports before 1.27', { securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports' }] } }, ['forbidden sysctls', 'net.ipv4.ip_local_reserved_ports'], {}, 26],
  ],
  windowsHostProcess: [
    ['false', { securityContext: { windowsOptions: { hostProcess: false } }, containers: [c('a')] }, null],
    [
      'pod and containers',
      { securityContext: { windowsOptions: { hostProcess: true } }, containers: [c('a', { windowsOptions: { hostProcess: true } }), c('b', { windowsOptions: { hostProcess: true } })] },
      ['hostProcess', 'pod and containers "a", "b" must not set securityContext.windowsOptions.hostProcess=true'],
    ],
  ],
  allowPrivilegeEscalation: [
    ['false everywhere', { containers: [c('a', { allowPrivilegeEscalation: false })] }, null],
    [
      'unset, empty and true',
      { containers: [c('a'), c('b', {}), c('c', { allowPrivilegeEscalation: true }), c('d', { allowPrivilegeEscalation: false })] },
      ['allowPrivilegeEscalation != false', 'containers "a", "b", "c" must set securityContext.allowPrivilegeEscalation=false'],
    ],
    ['a Windows pod from 1.25', { os: { name: 'windows' }, containers: [c('a')] }, null],
    [
      'a Windows pod before 1.25',
      { os: { name: 'windows' }, containers: [c('a')] },
      ['allowPrivilegeEscalation != false', 'container "a" must set securityContext.allowPrivilegeEscalation=false'],
      {},
      24,
    ],
  ],
  capabilities_restricted: [
    ['drop ALL, add NET_BIND_SERVICE', { containers: [c('a', { capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } })] }, null],
    ['no capabilities', { containers: [c('a'), c('b', {})] }, ['unrestricted capabilities', 'containers "a", "b" must set securityContext.capabilities.drop=["ALL"]']],
    [
      'missing drop and forbidden add',
      { containers: [c('a', { capabilities: { drop: ['NET_RAW'], add: ['SYS_ADMIN', 'CHOWN'] } }), c('b', { capabilities: { drop: ['ALL'], add: ['CHOWN'] } })] },
      ['unrestricted capabilities', 'container "a" must set securityContext.capabilities.drop=["ALL"]; containers "a", "b" must not include "CHOWN", "SYS_ADMIN" in securityContext.capabilities.add'],
    ],
    ['a Windows pod', { os: { name: 'windows' }, containers: [c('a')] }, null],
  ],
  restrictedVolumes: [
    [
      'allowed types',
      {
        volumes: [
          { name: 'a', configMap: {} },
          { name: 'b', csi: {} },
          { name: 'c', downwardAPI: {} },
          { name: 'd', emptyDir: {} },
          { name: 'e', ephemeral: {} },
          { name: 'f', persistentVolumeClaim: {} },
          { name: 'g', projected: {} },
          { name: 'h', secret: {} },
        ],
      },
      null,
    ],
    ['hostPath', { volumes: [{ name: 'a', hostPath: {} }] }, ['restricted volume types', 'volume "a" uses restricted volume type "hostPath"']],
    [
      'several, unknown among them',
      {
        volumes: [
          { name: 'a', nfs: {} },
          { name: 'b', gitRepo: {} },
          { name: 'c', nfs: {} },
          { name: 'd', image: {} },
        ],
      },
      ['restricted volume types', 'volumes "a", "b", "c", "d" use restricted volume types "gitRepo", "nfs", "unknown"'],
    ],
  ],
  runAsNonRoot: [
    ['pod true', { securityContext: { runAsNonRoot: true }, containers: [c('a'), c('b', { runAsNonRoot: true })] }, null],
    ['every container true', { containers: [c('a', { runAsNonRoot: true })] }, null],
    ['unset', { containers: [c('a'), c('b', {})] }, ['runAsNonRoot != true', 'pod or containers "a", "b" must set securityContext.runAsNonRoot=true']],
    [
      'explicitly false beats unset',
      { securityContext: { runAsNonRoot: false }, containers: [c('a', { runAsNonRoot: false }), c('b')] },
      ['runAsNonRoot != true', 'pod and container "a" must not set securityContext.runAsNonRoot=false'],
    ],
    [
      'container false under pod true',
      { securityContext: { runAsNonRoot: true }, containers: [c('a', { runAsNonRoot: false })] },
      ['runAsNonRoot != true', 'container "a" must not set securityContext.runAsNonRoot=false'],
    ],
  ],
  runAsUser: [
    ['non-zero', { securityContext: { runAsUser: 1000 }, containers: [c('a', { runAsUser: 1 })] }, null],
    [
      'zero in pod and containers',
      { securityContext: { runAsUser: 0 }, containers: [c('a', { runAsUser: 0 }), c('b', { runAsUser: 0 })] },
      ['runAsUser=0', 'pod and containers "a", "b" must not set runAsUser=0'],
    ],
  ],
  seccompProfile_restricted: [
    ['pod RuntimeDefault', { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [c('a')] }, null],
    ['every container Localhost', { containers: [c('a', { seccompProfile: { type: 'Localhost' } })] }, null],
    ['unset', { containers: [c('a'), c('b')] }, ['seccompProfile', 'pod or containers "a", "b" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"']],
    [
      'explicitly bad',
      { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [c('a', { seccompProfile: { type: 'Unconfined' } }), c('b')] },
      ['seccompProfile', 'pod and container "a" must not set securityContext.seccompProfile.type to "Unconfined"'],
    ],
    ['a Windows pod', { os: { name: 'windows' }, containers: [c('a')] }, null],
  ],
};

describe('Pod Security checks', () => {
  it('every check has a table', () => {
    expect(Object.keys(TABLES).sort()).toEqual(DEFAULT_CHECKS.map((ch) => ch.id).sort());
  });

  for (const [id, cases] of Object.entries(TABLES)) {
    describe(id, () => {
      it.each(cases)('%s', (_name, spec, want, meta, minor) => {
        const r = run(id, spec, meta ?? {}, minor ?? Infinity);
        if (want === null) expect(r).toEqual({ allowed: true });
        else expect(r).toEqual({ allowed: false, reason: want[0], detail: want[1] });
      });
    });
  }
});
