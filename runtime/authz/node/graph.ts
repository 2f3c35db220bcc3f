// The Node authorizer's graph, as upstream's: vertices for API objects, edges
// pointing toward the nodes that may read them (secret, configmap, pvc,
// serviceaccount, resourceclaim -> pod -> node; pv -> pvc; secret -> pv;
// volumeattachment and resourceslice -> node). A node may read an object when
// a path leads from the object's vertex to the node's. Deleting a vertex
// also drops neighbours left without edges, so the graph holds only what
// some bound pod, PV or attachment still references. Kept current by
// runtime/builtins/node-graph.ts from watches.

import type { Obj } from '../../storage/interface.ts';
import { podClaimNames, podConfigMapNames, podResourceClaimNames, podSecretNames, pvSecretRefs } from './references.ts';

export type VertexType = 'configmap' | 'node' | 'pod' | 'pvc' | 'pv' | 'resourceclaim' | 'resourceslice' | 'secret' | 'serviceAccount' | 'volumeattachment';

export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

interface Vertex {
  type: VertexType;
  namespace: string;
  name: string;
  out: Set<Vertex>;
  in: Set<Vertex>;
}

const key = (type: VertexType, namespace: string, name: string) => `${type}\u0000${namespace}\u0000${name}`;

export class NodeGraph {
  private readonly vertices = new Map<string, Vertex>();

  /** Vertices in the graph (tests and diagnostics). */
  get size(): number {
    return this.vertices.size;
  }

  has(type: VertexType, namespace: string, name: string): boolean {
    return this.vertices.has(key(type, namespace, name));
  }

  /**
   * A Pod bound to a node (spec.nodeName set): pod -> node, and every object
   * it references -> pod. A mirror pod gets only its node edge: a node must not
   * gain access to anything by creating a pod.
   */
  addPod(pod: Obj): void {
    const namespace: string = pod.metadata?.namespace ?? '';
    const name: string = pod.metadata?.name ?? '';
    const nodeName: unknown = pod.spec?.nodeName;
    this.deleteVertex('pod', namespace, name);
    if (typeof nodeName !== 'string' || !nodeName || !name) return;
    const podV = this.vertex('pod', namespace, name);
    this.addEdge(podV, this.vertex('node', '', nodeName));
    if (pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return;
    const sa: unknown = pod.spec?.serviceAccountName;
    if (typeof sa === 'string' && sa) this.addEdge(this.vertex('serviceAccount', namespace, sa), podV);
    for (const s of podSecretNames(pod)) this.addEdge(this.vertex('secret', namespace, s), podV);
    for (const c of podConfigMapNames(pod)) this.addEdge(this.vertex('configmap', namespace, c), podV);
    for (const c of podClaimNames(pod)) this.addEdge(this.vertex('pvc', namespace, c), podV);
    for (const c of podResourceClaimNames(pod)) this.addEdge(this.vertex('resourceclaim', namespace, c), podV);
  }

  deletePod(namespace: string, name: string): void {
    this.deleteVertex('pod', namespace, name);
  }

  /** A PersistentVolume: pv -> its bound claim, and the secrets the kubelet reads -> pv. */
  addPV(pv: Obj): void {
    const name: string = pv.metadata?.name ?? '';
    this.deleteVertex('pv', '', name);
    const claim = pv.spec?.claimRef;
    if (!name || !claim || typeof claim.name !== 'string' || !claim.name) return;
    const pvV = this.vertex('pv', '', name);
    this.addEdge(pvV, this.vertex('pvc', typeof claim.namespace === 'string' ? claim.namespace : '', claim.name));
    for (const ref of pvSecretRefs(pv)) if (ref.kubeletVisible) this.addEdge(this.vertex('secret', ref.namespace, ref.name), pvV);
  }

  deletePV(name: string): void {
    this.deleteVertex('pv', '', name);
  }

  /** A VolumeAttachment -> the node it attaches to. */
  addVolumeAttachment(name: string, nodeName: string): void {
    this.addNodeScoped('volumeattachment', name, nodeName);
  }

  deleteVolumeAttachment(name: string): void {
    this.deleteVertex('volumeattachment', '', name);
  }

  /** A ResourceSlice -> the node that publishes it. */
  addResourceSlice(name: string, nodeName: string): void {
    this.addNodeScoped('resourceslice', name, nodeName);
  }

  deleteResourceSlice(name: string): void {
    this.deleteVertex('resourceslice', '', name);
  }

  /** Names (namespace/name) of the vertices of one type, for a resync. */
  names(type: VertexType): { namespace: string; name: string }[] {
    const out: { namespace: string; name: string }[] = [];
    for (const v of this.vertices.values()) if (v.type === type) out.push({ namespace: v.namespace, name: v.name });
    return out;
  }

  /** Whether a path leads from the object's vertex to the node's. */
  hasPathFrom(nodeName: string, type: VertexType, namespace: string, name: string): boolean {
    const target = this.vertices.get(key('node', '', nodeName));
    const start = this.vertices.get(key(type, namespace, name));
    if (!target || !start) return false;
    const seen = new Set<Vertex>([start]);
    const stack = [start];
    while (stack.length) {
      const v = stack.pop()!;
      for (const next of v.out) {
        if (next === target) return true;
        // edges into other nodes lead nowhere further
        if (next.type === 'node' || seen.has(next)) continue;
        seen.add(next);
        stack.push(next);
      }
    }
    return false;
  }

  private addNodeScoped(type: VertexType, name: string, nodeName: string): void {
    this.deleteVertex(type, '', name);
    if (name && nodeName) this.addEdge(this.vertex(type, '', name), this.vertex('node', '', nodeName));
  }

  private vertex(type: VertexType, namespace: string, name: string): Vertex {
    const k = key(type, namespace, name);
    let v = this.vertices.get(k);
    if (!v) {
      v = { type, namespace, name, out: new Set(), in: new Set() };
      this.vertices.set(k, v);
    }
    return v;
  }

  private addEdge(from: Vertex, to: Vertex): void {
    from.out.add(to);
    to.in.add(from);
  }

  /** Removes the vertex and every neighbour it leaves without edges. */
  private deleteVertex(type: VertexType, namespace: string, name: string): void {
    const v = this.vertices.get(key(type, namespace, name));
    if (!v) return;
    this.vertices.delete(key(type, namespace, name));
    for (const n of v.out) {
      n.in.delete(v);
      this.dropIfIsolated(n);
    }
    for (const n of v.in) {
      n.out.delete(v);
      this.dropIfIsolated(n);
    }
  }

  private dropIfIsolated(v: Vertex): void {
    if (v.in.size === 0 && v.out.size === 0) this.vertices.delete(key(v.type, v.namespace, v.name));
  }
}
