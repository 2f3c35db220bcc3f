// ValidatingAdmissionPolicy wiring: two watches (policies, bindings) keep
// the plugin's PolicyState current, so a policy or binding takes effect as
// soon as its event arrives; the CEL module is loaded only once a policy
// exists (start-up does not pay for it). The same policy watch runs the
// status controller: a policy whose generation was not yet observed is
// type-checked against the schemas of the kinds it matches and of its
// paramKind (admission/policy/typecheck.ts; the built-in kinds' OpenAPI
// schemas, the custom resources' published CRD schemas) and
// gets status.observedGeneration and status.typeChecking, written through
// the registry as kube-controller-manager's
// validatingadmissionpolicy-status-controller.

import type { Authorizer } from '../authz/authorizer.ts';
import { apiMatchServices } from '../admission/matching/index.ts';
import { loadAdmissionCel } from '../admission/matching/cel.ts';
import { apiParamSource } from '../admission/policy/params.ts';
import { PolicyState, validatingAdmissionPolicyPlugin } from '../admission/policy/plugin.ts';
import type { AdmissionPlugin } from '../admission/chain.ts';
import type { ApiIndex } from '../registry/served.ts';
import { startWatchLoop, type WatchLoop } from './watch-loop.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JSONSchema } from '../cel/index.ts';
import { typeCheckPolicy, type KindSchema, type TypeCheckServices } from '../admission/policy/typecheck.ts';
import { GROUP_AUTHENTICATED, GROUP_SERVICE_ACCOUNTS, NS_SYSTEM, SERVICE_ACCOUNT_GROUP_PREFIX, SERVICE_ACCOUNT_USER_PREFIX } from '../api/k8s-names.ts';
import type { Writer } from '../registry/write-services.ts';
import type { RegistryStore } from '../registry/store.ts';
import type { Obj } from '../storage/interface.ts';
import type { CustomSchemas } from '../registry/custom-schemas.ts';

const GROUP = 'admissionregistration.k8s.io';

export interface AdmissionPolicies {
  plugin: AdmissionPlugin;
  stop(): Promise<void>;
}

const STATUS_CONTROLLER = 'validatingadmissionpolicy-status-controller';
const STATUS_WRITER: Writer = {
  user: { name: `${SERVICE_ACCOUNT_USER_PREFIX}${NS_SYSTEM}:${STATUS_CONTROLLER}`, groups: [GROUP_SERVICE_ACCOUNTS, SERVICE_ACCOUNT_GROUP_PREFIX + NS_SYSTEM, GROUP_AUTHENTICATED] },
  manager: 'kube-controller-manager',
};
const REF_PREFIX = '#/components/schemas/';

/** The published schemas of the custom resources served while running (the CRD schemas' publishedOf). */
export type PublishedCustomSchemas = Pick<CustomSchemas, 'publishedOf'>;

/**
 * Kinds and schemas of the served resources: built-in kinds from the
 * generated OpenAPI v3 documents in openapiDir, custom resources from their
 * CRD's published schema (its metadata resolved as ObjectMeta).
 */
export function typeCheckServices(api: ApiIndex, openapiDir: string | undefined, custom?: PublishedCustomSchemas): TypeCheckServices {
  const docs = new Map<string, Record<string, JSONSchema> | undefined>();
  const components = (group: string, version: string) => {
    const file = group ? `apis__${group}__${version}.json` : `api__${version}.json`;
    if (!docs.has(file)) {
      let schemas: Record<string, JSONSchema> | undefined;
      try {
        schemas = openapiDir ? (JSON.parse(readFileSync(join(openapiDir, 'v3', file), 'utf8')).components?.schemas as Record<string, JSONSchema>) : undefined;
      } catch {
        schemas = undefined;
      }
      docs.set(file, schemas);
    }
    return docs.get(file);
  };
  return {
    kindsFor(group, version, resource) {
      const s = api.lookup(group, version, resource);
      return s ? [{ group, version, kind: s.def.kind }] : [];
    },
    schemaFor(gvk): KindSchema | undefined {
      const s = api.served.find((x) => x.def.group === gvk.group && x.def.version === gvk.version && x.def.kind === gvk.kind);
      if (!s) return undefined;
      if (s.def.custom) {
        const schema = custom?.publishedOf([s.def])[0]?.schemas[0]?.schema as JSONSchema | undefined;
        // ObjectMeta and what it refers to are in the core group's document
        const meta = components('', 'v1');
        if (!schema || !meta) return undefined;
        return { schema, resolveRef: (ref) => (ref.startsWith(REF_PREFIX) ? meta[ref.slice(REF_PREFIX.length)] : undefined) };
      }
      const all = components(gvk.group, gvk.version);
      const schema = all?.[s.def.schema];
      if (!all || !schema) return undefined;
      return { schema, resolveRef: (ref) => (ref.startsWith(REF_PREFIX) ? all[ref.slice(REF_PREFIX.length)] : undefined) };
    },
  };
}

/** Writes the status of a policy whose generation was not observed yet. */
async function writeTypeChecking(store: RegistryStore, services: TypeCheckServices, policy: Obj): Promise<void> {
  const generation = policy.metadata?.generation;
  if (generation === undefined || policy.status?.observedGeneration === generation) return;
  const warnings = typeCheckPolicy(policy, services);
  await store.update(
    '',
    String(policy.metadata.name),
    (cur) => {
      if (!cur) throw new Error('gone');
      if (cur.metadata?.generation !== generation) return cur;
      const typeChecking = warnings.length ? { expressionWarnings: warnings } : {};
      return { ...cur, status: { ...(cur.status ?? {}), observedGeneration: generation, typeChecking } };
    },
    { subresource: 'status', writer: STATUS_WRITER },
  );
}

export function startAdmissionPolicies(api: ApiIndex, authorizer: Authorizer, openapiDir?: string, custom?: PublishedCustomSchemas): AdmissionPolicies {
  const state = new PolicyState();
  const plugin = validatingAdmissionPolicyPlugin(state, { match: apiMatchServices(api), params: apiParamSource(api), authorizer });
  const loops: WatchLoop[] = [];
  const policies = api.lookup(GROUP, 'v1', 'validatingadmissionpolicies')?.store;
  const bindings = api.lookup(GROUP, 'v1', 'validatingadmissionpolicybindings')?.store;
  const checks = typeCheckServices(api, openapiDir, custom);
  const statusOf = async (p: Obj) => {
    try {
      await writeTypeChecking(policies!, checks, p);
    } catch {
      // the policy changed or went away meanwhile: its next event writes again
    }
  };
  if (policies && bindings) {
    loops.push(
      startWatchLoop(policies, '', {
        async resync(items) {
          if (items.length) await loadAdmissionCel();
          state.resyncPolicies(items);
          for (const p of items) await statusOf(p);
        },
        async event(ev) {
          if (ev.type === 'DELETED') state.deletePolicy(String(ev.object.metadata?.name ?? ''));
          else {
            await loadAdmissionCel();
            state.setPolicy(ev.object);
            await statusOf(ev.object);
          }
        },
      }),
      startWatchLoop(bindings, '', {
        resync: (items) => state.resyncBindings(items),
        event(ev) {
          if (ev.type === 'DELETED') state.deleteBinding(String(ev.object.metadata?.name ?? ''));
          else state.setBinding(ev.object);
        },
      }),
    );
  }
  return {
    plugin,
    async stop() {
      await Promise.all(loops.map((l) => l.stop()));
    },
  };
}
