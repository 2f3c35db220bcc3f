// PodSpec defaults (the Go defaulters' facts; api-specs declares none of
// them): restart and DNS policy, scheduler, grace period, security context,
// and per container the termination message, image pull policy, port
// protocol (and hostPort with hostNetwork), probe timings and env fieldRef
// apiVersion; plus the volumes'. What only Pods get is pod/create.ts.

import type { Obj } from '../../../storage/interface.ts';
import { defaultVolumes } from './volumes.ts';

/** Always for `:latest` or no tag, IfNotPresent otherwise (digests included). */
export function imagePullPolicyFor(image: string): string {
  if (image.includes('@')) return 'IfNotPresent';
  const last = image.slice(image.lastIndexOf('/') + 1);
  const tag = last.includes(':') ? last.slice(last.indexOf(':') + 1) : '';
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultProbe(p: Obj | undefined): void {
  if (!p || typeof p !== 'object') return;
  p.timeoutSeconds ??= 1;
  p.periodSeconds ??= 10;
  p.successThreshold ??= 1;
  p.failureThreshold ??= 3;
}

function defaultContainer(c: Obj): void {
  if (!c || typeof c !== 'object') return;
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  if (c.imagePullPolicy === undefined && typeof c.image === 'string') c.imagePullPolicy = imagePullPolicyFor(c.image);
  if (Array.isArray(c.ports)) for (const p of c.ports) if (p && !p.protocol) p.protocol = 'TCP';
  if (Array.isArray(c.env)) for (const e of c.env) if (e?.valueFrom?.fieldRef && !e.valueFrom.fieldRef.apiVersion) e.valueFrom.fieldRef.apiVersion = 'v1';
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
}

/** With hostNetwork, a port's hostPort is its containerPort. */
function defaultHostNetworkPorts(c: Obj): void {
  if (!c || typeof c !== 'object' || !Array.isArray(c.ports)) return;
  for (const p of c.ports) if (p && typeof p === 'object' && !p.hostPort) p.hostPort = p.containerPort;
}

/** Defaults a PodSpec, its containers included, wherever it appears (Pods and workload templates). */
export function defaultPodSpec(spec: Obj | undefined): void {
  if (!spec || typeof spec !== 'object') return;
  spec.restartPolicy ??= 'Always';
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.securityContext ??= {};
  for (const list of [spec.containers, spec.initContainers, spec.ephemeralContainers]) if (Array.isArray(list)) list.forEach(defaultContainer);
  if (spec.hostNetwork === true) for (const list of [spec.containers, spec.initContainers]) if (Array.isArray(list)) list.forEach(defaultHostNetworkPorts);
  defaultVolumes(spec.volumes);
}
