// MutatingAdmissionWebhook and ValidatingAdmissionWebhook: the webhooks of
// the stored configurations (configs.ts) called for the requests they
// match (rules, selectors, matchPolicy and matchConditions: ../matching/),
// as upstream's dispatchers. Mutating webhooks run one after another in the
// mutating half, each patch applied before the next call; a webhook with
// reinvocationPolicy IfNeeded is called once more when a later webhook (or,
// in the chain's second round, a plugin) changed the object after it ran
// (the chain's reinvocation, chain.ts). Validating webhooks run in parallel
// in the validating half. A failed call is skipped under failurePolicy
// Ignore and is a 500 under Fail; a denial is the webhook's Status. Writes
// of the admission configuration kinds themselves never call webhooks
// (upstream's exemption), so a broken webhook cannot lock them out. Each
// call (with its patch, for a mutating webhook) is timed and reported to
// the observer the services name (observe.ts). A webhook matched through
// matchPolicy Equivalent is sent the objects converted into the version it
// matched, and a mutating one's patch is converted back (../matching/versioned.ts);
// its matchConditions see them in that version too.

import { jsonEqual } from '../../api/json-equal.ts';
import { errors } from '../../api/errors.ts';
import type { Authorizer } from '../../authz/authorizer.ts';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../chain.ts';
import { activation } from '../matching/cel.ts';
import { evaluateMatchConditions } from '../matching/conditions.ts';
import { matchWebhook, type MatchServices, type WebhookCriteria } from '../matching/index.ts';
import { admissionRequest, type RequestVersions } from '../matching/request.ts';
import { callWebhook } from './call.ts';
import type { WebhookConfigs, WebhookEntry } from './configs.ts';
import { failedClosed, WebhookCallFailure } from './errors.ts';
import { applyWebhookPatch, identityError, identityOf } from './patch.ts';
import { callOutcome, type WebhookObserver } from './observe.ts';
import { convertBack, versionedObjects, withObjects } from '../matching/versioned.ts';

const EXEMPT = new Set([
  'mutatingwebhookconfigurations',
  'validatingwebhookconfigurations',
  'validatingadmissionpolicies',
  'validatingadmissionpolicybindings',
  'mutatingadmissionpolicies',
  'mutatingadmissionpolicybindings',
]);

/** Upstream's IsExemptAdmissionConfigurationResource. */
export const exemptFromWebhooks = (a: AdmissionAttributes): boolean => a.group === 'admissionregistration.k8s.io' && EXEMPT.has(a.resource);

export interface WebhookPluginServices {
  match: MatchServices;
  /** For the `authorizer` variable of matchConditions. */
  authorizer?: Authorizer;
  /** Where failed-open calls are noted (kube-apiserver logs a warning). */
  log?: (msg: string) => void;
  /** Told of every call (the webhook metrics). */
  observer?: WebhookObserver;
}

/** Whether to call the webhook for this request, and as which resource and kind; throws the error upstream returns. */
async function shouldCall(s: WebhookPluginServices, e: WebhookEntry, attrs: AdmissionAttributes): Promise<RequestVersions | undefined> {
  const outcome = await matchWebhook(s.match, e.hook as WebhookCriteria, attrs);
  if (!outcome.matches) {
    if (outcome.error) throw outcome.error;
    return undefined;
  }
  const gr = { group: attrs.group, resource: attrs.resource };
  if (e.conditionsError) {
    if (e.failurePolicy === 'Ignore') return undefined;
    throw errors.forbidden(gr, attrs.name, e.conditionsError);
  }
  if (e.conditions) {
    const versioned = withObjects(attrs, await versionedObjects(s.match.resources, attrs, outcome.versions));
    const act = activation({ attrs: versioned, request: admissionRequest(attrs, outcome.versions), authorizer: s.authorizer });
    const r = evaluateMatchConditions(e.conditions, act, e.failurePolicy);
    if ('error' in r && r.error !== undefined) throw errors.forbidden(gr, attrs.name, r.error);
    if (!r.matches) return undefined;
  }
  return outcome.versions;
}

/** Per request: which webhooks to call again (upstream's webhookReinvokeContext). */
interface ReinvokeState {
  lastOutput?: Obj | null;
  previouslyInvoked: Set<string>;
  reinvoke: Set<string>;
}

const STATE_KEY = 'MutatingAdmissionWebhook';

function requireReinvokingPrevious(st: ReinvokeState): void {
  for (const k of st.previouslyInvoked) st.reinvoke.add(k);
  st.previouslyInvoked.clear();
}

export function mutatingWebhookPlugin(configs: WebhookConfigs, s: WebhookPluginServices): AdmissionPlugin {
  return {
    name: 'MutatingAdmissionWebhook',
    handles: (attrs) => configs.hooks.length > 0 && !exemptFromWebhooks(attrs),
    async admit(attrs) {
      if (exemptFromWebhooks(attrs) || configs.hooks.length === 0) return;
      const ctx = attrs.reinvocation;
      let st = ctx?.values.get(STATE_KEY) as ReinvokeState | undefined;
      if (!st) {
        st = { previouslyInvoked: new Set(), reinvoke: new Set() };
        ctx?.values.set(STATE_KEY, st);
      }
      const isReinvoke = ctx?.isReinvoke === true;
      // plugins that ran after this one changed the object: the reinvocable webhooks that ran see it again
      if (isReinvoke && !jsonEqual(st.lastOutput ?? null, attrs.object)) requireReinvokingPrevious(st);
      try {
        for (const e of configs.hooks) {
          const versions = await shouldCall(s, e, attrs);
          if (!versions) continue;
          // a reinvocation never calls a webhook for the first time
          if (isReinvoke && !st.reinvoke.has(e.key)) continue;
          let changed = false;
          let failure: unknown;
          const started = performance.now();
          try {
            const v = await versionedObjects(s.match.resources, attrs, versions);
            const result = await callWebhook(e, attrs, versions, true, undefined, undefined, v);
            const before = identityOf(attrs.object);
            if (result.patch) changed = applyWebhookPatch(e.name, v.object, result.patch, result.patchType);
            if (changed && v.converted) await convertBack(s.match.resources, attrs, v.object!);
            const refused = changed ? identityError(attrs, before) : undefined;
            if (refused) throw refused;
          } catch (err) {
            failure = err;
          }
          s.observer?.call(e.name, 'admit', attrs.operation, callOutcome(failure, e.failurePolicy), (performance.now() - started) / 1000);
          if (changed) {
            requireReinvokingPrevious(st);
            if (ctx) ctx.shouldReinvoke = true;
          }
          if (e.hook.reinvocationPolicy === 'IfNeeded') st.previouslyInvoked.add(e.key);
          if (failure === undefined) continue;
          if (failure instanceof WebhookCallFailure) {
            if (e.failurePolicy === 'Ignore') {
              s.log?.(`Failed calling webhook, failing open ${e.name}: ${failure.message}`);
              s.observer?.failOpen(e.name, 'admit');
              continue;
            }
            throw failedClosed(failure);
          }
          throw failure;
        }
      } finally {
        st.lastOutput = attrs.object ? structuredClone(attrs.object) : null;
      }
    },
  };
}

export function validatingWebhookPlugin(configs: WebhookConfigs, s: WebhookPluginServices): AdmissionPlugin {
  return {
    name: 'ValidatingAdmissionWebhook',
    handles: (attrs) => configs.hooks.length > 0 && !exemptFromWebhooks(attrs),
    async validate(attrs) {
      if (exemptFromWebhooks(attrs) || configs.hooks.length === 0) return;
      const calls: { e: WebhookEntry; versions: RequestVersions }[] = [];
      for (const e of configs.hooks) {
        const versions = await shouldCall(s, e, attrs);
        if (versions) calls.push({ e, versions });
      }
      if (calls.length === 0) return;
      const outcomes = await Promise.all(
        calls.map(async ({ e, versions }) => {
          const started = performance.now();
          const observe = (err: unknown) => s.observer?.call(e.name, 'validating', attrs.operation, callOutcome(err, e.failurePolicy), (performance.now() - started) / 1000);
          try {
            await callWebhook(e, attrs, versions, false, undefined, undefined, await versionedObjects(s.match.resources, attrs, versions));
            observe(undefined);
            return undefined;
          } catch (err) {
            observe(err);
            if (err instanceof WebhookCallFailure) {
              if (e.failurePolicy === 'Ignore') {
                s.log?.(`Failed calling webhook, failing open ${e.name}: ${err.message}`);
                s.observer?.failOpen(e.name, 'validating');
                return undefined;
              }
              return failedClosed(err);
            }
            return err;
          }
        }),
      );
      // several refusals: the first webhook's, in calling order
      const first = outcomes.find((o) => o !== undefined);
      if (first !== undefined) throw first;
    },
  };
}
