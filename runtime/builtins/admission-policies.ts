// ValidatingAdmissionPolicy wiring: two watches (policies, bindings) keep
// the plugin's PolicyState current, so a policy or binding takes effect as
// soon as its event arrives; the CEL module is loaded only once a policy
// exists (start-up does not pay for it).

import type { Authorizer } from '../authz/authorizer.ts';
import { apiMatchServices } from '../admission/matching/index.ts';
import { loadAdmissionCel } from '../admission/matching/cel.ts';
import { apiParamSource } from '../admission/policy/params.ts';
import { PolicyState, validatingAdmissionPolicyPlugin } from '../admission/policy/plugin.ts';
import type { AdmissionPlugin } from '../admission/chain.ts';
import type { ApiIndex } from '../registry/served.ts';
import { startWatchLoop, type WatchLoop } from './watch-loop.ts';

const GROUP = 'admissionregistration.k8s.io';

export interface AdmissionPolicies {
  plugin: AdmissionPlugin;
  stop(): Promise<void>;
}

export function startAdmissionPolicies(api: ApiIndex, authorizer: Authorizer): AdmissionPolicies {
  const state = new PolicyState();
  const plugin = validatingAdmissionPolicyPlugin(state, { match: apiMatchServices(api), params: apiParamSource(api), authorizer });
  const loops: WatchLoop[] = [];
  const policies = api.lookup(GROUP, 'v1', 'validatingadmissionpolicies')?.store;
  const bindings = api.lookup(GROUP, 'v1', 'validatingadmissionpolicybindings')?.store;
  if (policies && bindings) {
    loops.push(
      startWatchLoop(policies, '', {
        async resync(items) {
          if (items.length) await loadAdmissionCel();
          state.resyncPolicies(items);
        },
        async event(ev) {
          if (ev.type === 'DELETED') state.deletePolicy(String(ev.object.metadata?.name ?? ''));
          else {
            await loadAdmissionCel();
            state.setPolicy(ev.object);
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
