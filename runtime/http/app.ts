// The Hono application: the request path as a chain of stages —
// request info, authentication, impersonation, authorization — then the
// non-resource endpoints (health, version, discovery, OpenAPI) or a resource
// verb handler (admission and the registry store run inside the write
// handlers), all run by one route with our own dispatch. Errors anywhere
// become Kubernetes Status responses.

import { Context, Hono } from 'hono';
import type { ExecutionContext } from 'hono';
import type { AuthRequest, AuthResult } from '../auth/authenticator.ts';
import { impersonate, requestsImpersonation } from '../auth/impersonation.ts';
import { ANONYMOUS, type UserInfo } from '../auth/user.ts';
import { authRequestOf } from './auth-request.ts';
import type { Authorizer, RuleResolver } from '../authz/authorizer.ts';
import { authorizeRequest, impersonationBy } from './authorization.ts';
import { MEDIA_PROTOBUF, SERVER_VERSION } from '../api/k8s-names.ts';
import type { ApiIndex, ServedResource } from '../registry/served.ts';
import { type Check, healthResponse } from './health.ts';
import type { Discovery } from './discovery.ts';
import type { ServerServices, RequestContext } from './handlers/context.ts';
import { handleCreate } from './handlers/create.ts';
import { handleDelete, handleDeleteCollection } from './handlers/delete.ts';
import { handleGet } from './handlers/get.ts';
import { handleList } from './handlers/list.ts';
import { handlePatch } from './handlers/patch.ts';
import { handleUpdate } from './handlers/update.ts';
import { handleScale } from './handlers/scale.ts';
import { handlePodSubresource } from './handlers/pods/index.ts';
import { handleTokenRequest, type TokenRequestIssuer } from './handlers/token-request.ts';
import { JWKS_CONTENT_TYPE, JWKS_PATH, METADATA_MAX_AGE_SECONDS, OPENID_CONFIG_CONTENT_TYPE, OPENID_CONFIG_PATH } from '../auth/serviceaccount/oidc.ts';
import { handleReview } from './handlers/review.ts';
import { handleWatch } from './handlers/watch.ts';
import { InflightLimiter } from './inflight.ts';
import { isLongRunning } from './long-running.ts';
import { withDeadline } from './request-timeout.ts';
import { prefersProtobuf, wantsAggregatedDiscovery } from './negotiate.ts';
import { type OpenAPIServer } from './openapi.ts';
import { originGuard } from './origin-guard.ts';
import { checkRoute } from './path-verbs.ts';
import { parseRequestInfo, routingPath, type RequestInfo } from './request-info.ts';
import { responseBodySize, sendBytes, sendJSON, sendStatus } from './respond.ts';
import { ApiError, errors, toApiError } from '../api/errors.ts';
import { groupVersion } from '../api/keys.ts';
import { andThen, isPromise, settled, type Maybe } from '../api/maybe.ts';
import { prettyPrint } from './pretty.ts';
import { requestHeader, requestTarget } from './request-headers.ts';
import { newRequestRecord, type RequestRecord } from '../api/request-record.ts';
import { deprecatedVersionOf, recordDeprecatedUse } from '../api/deprecation.ts';
import { auditIDOnResponse, outgoingOf, setResponseAuditID } from './audit-id.ts';
import type { Auditor } from '../audit/auditor.ts';
import { auditStage } from './audit-stage.ts';
import type { ServerMetrics } from '../metrics/server-metrics.ts';
import { reportedVerb } from '../metrics/request-labels.ts';
import { Duration, serverLogger, type Logger } from '../logging/logger.ts';

/** Who a request is (auth/chain.ts): throws 401 for a bad credential, or for none where anonymous access is off. */
export interface Authentication {
  authenticate(req: AuthRequest): Maybe<UserInfo>;
  /** The token authenticators alone, for TokenReview. */
  authenticateToken(token: string, audiences: string[]): Promise<AuthResult | undefined>;
  /** The audiences a TokenReview without spec.audiences checks for. */
  readonly apiAudiences: string[];
}

export interface AppOptions {
  api: ApiIndex;
  services: ServerServices;
  authentication: Authentication;
  /** Issues service-account tokens (serviceaccounts/token); undefined: 405. */
  tokenRequests?: TokenRequestIssuer;
  /** The service-account issuer discovery documents, once known (undefined: 404). */
  openid?: () => { configJSON: string; keysetJSON: string } | undefined;
  /** The authorization chain (runtime/authz/modes.ts): requests, impersonation checks and the access reviews. */
  authorizer: Authorizer;
  /** The rules the modes list (SelfSubjectRulesReview). */
  ruleResolver: RuleResolver;
  health: { livez: Check[]; readyz: Check[] };
  openapi: OpenAPIServer;
  /** The server's discovery documents (the built-ins reorder them by APIService priority). */
  discovery: Discovery;
  /** --max-requests-inflight (default 400; 0: no limit). */
  maxRequestsInflight?: number;
  /** --max-mutating-requests-inflight (default 200; 0: no limit). */
  maxMutatingRequestsInflight?: number;
  /** --request-timeout in ms for non-long-running requests (default 60 s; 0: none). */
  requestTimeoutMs?: number;
  /** --bind-address: besides loopback, the Host an unauthenticated request may name (default 127.0.0.1). */
  bindAddress?: string;
  /** The audit policy and backends (--audit-policy-file); undefined: nothing is audited. */
  auditor?: Auditor;
  /** The server's metrics: requests are counted and /metrics serves them (absent: neither). */
  metrics?: ServerMetrics;
  /** The server's log (default: the process's): internal errors, and a line per request at -v=3 and above. */
  logger?: Logger;
}

/**
 * What the app's stages keep of a request for each other, in one variable of the context: with the three other
 * stages read (record, info, user) the context's map holds four entries, the most it holds without growing.
 */
interface RequestState {
  query: URLSearchParams;
  /** The request's deadline (request-timeout.ts), ms since the epoch; undefined: none. */
  deadline: number | undefined;
  /** The resource the request reached, for the request metrics' series. */
  served: ServedResource | undefined;
  /** The endpoint's warnings, also sent with its error. */
  warnings: string[] | undefined;
}

type Env = {
  Variables: { info: RequestInfo; user: UserInfo; record: RequestRecord; request: RequestState };
};

type VerbHandler = (rc: RequestContext) => Maybe<Response>;

const HANDLERS: Record<string, VerbHandler> = {
  get: handleGet,
  list: handleList,
  watch: handleWatch,
  create: handleCreate,
  update: handleUpdate,
  patch: handlePatch,
  delete: handleDelete,
  deletecollection: handleDeleteCollection,
};

/** The non-resource paths upstream's request metrics count (its instrumented health handlers); other non-resource paths are not counted. */
const METERED_PATHS = new Set(['/healthz', '/livez', '/readyz']);

const TEXT_404 = () => new Response('404 page not found\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' } });

/** The request URI as sent (path and query). */
function uriOf(target: { path: string; query: string }): string {
  return target.query ? `${target.path}?${target.query}` : target.path;
}

export function createApp(opts: AppOptions): Hono<Env> {
  const app = new Hono<Env>();
  const discovery = opts.discovery;
  const logger = opts.logger ?? serverLogger();

  const protobufResource = (info: RequestInfo | undefined): boolean => {
    if (!info?.isResourceRequest) return true; // Status of non-resource paths
    const res = opts.api.lookup(info.apiGroup, info.apiVersion, info.resource);
    if (!res) return true;
    const gv = groupVersion(res.def.group, res.def.version);
    return opts.services.protobuf.supports(gv, res.def.kind);
  };

  const audit = opts.auditor ? auditStage(opts.auditor, (bytes) => opts.services.protobuf.decode(bytes)) : undefined;

  const onError = async (err: Error, c: Context<Env>): Promise<Response> => {
    const apiErr = toApiError(err);
    await audit?.failed(c, err, apiErr);
    if (apiErr.code >= 500 && !(err instanceof ApiError)) {
      const target = requestTarget(c);
      logger.errorS(err, 'Internal error occurred', 'method', c.req.method, 'URI', uriOf(target), 'auditID', c.get('record')?.auditID, 'stack', err instanceof Error ? err.stack : undefined);
    }
    // a client that prefers protobuf gets its Status in protobuf, where the resource has a protobuf form
    if (prefersProtobuf(requestHeader(c, 'accept')) && protobufResource(c.get('info'))) {
      try {
        const codec = await opts.services.protobuf.codec('v1', 'Status');
        return auditIDOnResponse(c, sendBytes(codec.encode(apiErr.status()), MEDIA_PROTOBUF, { status: apiErr.code, headers: apiErr.headers, warnings: c.get('request')?.warnings }));
      } catch {
        /* fall back to JSON */
      }
    }
    // the warnings of an endpoint that was reached (a deprecated version's, admission's) go out with its error too, as upstream's
    const state = c.get('request') as RequestState | undefined;
    const warnings = state?.warnings;
    return auditIDOnResponse(c, sendStatus(apiErr, { pretty: prettyPrint(state?.query ?? new URLSearchParams(requestTarget(c).query), requestHeader(c, 'user-agent')), warnings }));
  };

  // The stages every request passes, in upstream's order (one module each), run by the app's one route:
  //   1. request info: what the request is about, from the raw request target, not the normalised URL (request-info.ts);
  //      then the deadline of non-long-running requests (504 Timeout; a bad ?timeout= is 400), before authentication as upstream;
  //   2. authentication, then the origin guard for callers no credential identified (no foreign Host, no cross-site browser writes);
  //   3. impersonation (Impersonate-User, -Group, -Uid, -Extra-*), each attribute checked for the requestor by the authorizer;
  //      in-flight limits (429), counted until the response is produced; watches are exempt;
  //   4. authorization;
  //   5. the endpoint: a non-resource path (endpoints below) or a resource verb handler.
  // Each stage runs as soon as the one before has its answer: a request whose stages all answer at once (an anonymous or
  // certificate-authenticated GET served from the watch cache) is answered in the turn that read it, with no promise.
  const timeoutMs = opts.requestTimeoutMs ?? 60_000;
  const guard = originGuard({ bindAddress: opts.bindAddress ?? '127.0.0.1', applies: (c) => c.get('user').name === ANONYMOUS.name });
  const mayImpersonate = impersonationBy(opts.authorizer);
  const limiter = new InflightLimiter(opts.maxRequestsInflight ?? 400, opts.maxMutatingRequestsInflight ?? 200);
  const metrics = opts.metrics;
  metrics?.setSources({ inflight: () => limiter.watermark() });

  const serve = (c: Context<Env>): Maybe<Response> => {
    const target = requestTarget(c);
    const record = newRequestRecord(requestHeader(c, 'audit-id'));
    c.set('record', record);
    // the Audit-Id response header of every answer, as upstream's WithAuditInit (audit-id.ts)
    const outgoing = outgoingOf(c);
    if (outgoing) setResponseAuditID(outgoing, record.auditID);
    const query = new URLSearchParams(target.query);
    const state: RequestState = { query, deadline: undefined, served: undefined, warnings: undefined };
    c.set('request', state);
    const info = parseRequestInfo(c.req.method, target.path, query);
    c.set('info', info);
    if (info.pathError) throw info.pathError;
    const setDeadline = (at: number) => (state.deadline = at);
    return withDeadline(
      info,
      query,
      timeoutMs,
      () => {
        const auth = authRequestOf(c, info.path);
        return andThen(authenticate(auth), (requestor) => {
          c.set('user', requestor);
          if (audit) {
            const began = audit.begin(c, info, requestor);
            // a blocking audit backend writing the first event, or one that could not (blocking-strict: 500)
            if (began !== undefined) return andThen(began, (refused) => (refused ? auditRefused(refused) : authenticated(c, info, auth, requestor)));
          }
          return authenticated(c, info, auth, requestor);
        });
      },
      Date.now,
      setDeadline,
    );
  };

  /** After authentication and the audit's first event: the origin guard, impersonation, then the rest. */
  const authenticated = (c: Context<Env>, info: RequestInfo, auth: AuthRequest, requestor: UserInfo): Maybe<Response> => {
    guard(c);
    if (!requestsImpersonation(auth)) return admitted(c, info, requestor);
    return impersonate(auth, requestor, mayImpersonate).then((as) => {
      if (as) {
        c.set('user', as.user);
        audit?.impersonated(c, as.user);
      }
      return admitted(c, info, as ? as.user : requestor);
    });
  };

  /** A request refused because its audit event could not be stored (apiserver_audit_requests_rejected_total). */
  const auditRefused = (res: Response): Response => {
    metrics?.auditRequestRejected();
    return res;
  };

  /** Authentication, counted in authentication_attempts when there are metrics. */
  const authenticate = (auth: AuthRequest): Maybe<UserInfo> => {
    if (!metrics) return opts.authentication.authenticate(auth);
    return settled(
      () => opts.authentication.authenticate(auth),
      (ok, _user, err) => metrics.authenticationAttempt(ok ? 'success' : err instanceof ApiError && err.code === 401 ? 'failure' : 'error'),
    );
  };

  /**
   * The request metrics of a request that reached its endpoint (or was refused by the in-flight limits), as
   * upstream's instrumented handlers count them: resource requests and the health probes.
   */
  const requestDone = (c: Context<Env>, info: RequestInfo, res: Response | undefined, err?: unknown): void => {
    if (!metrics || (!info.isResourceRequest && !METERED_PATHS.has(info.path))) return;
    const record = c.get('record');
    const code = res ? res.status : toApiError(err).code;
    const contentType = info.verb === 'patch' ? requestHeader(c, 'content-type') : undefined;
    const seconds = (Date.now() - record.receivedAt) / 1000;
    const state = c.get('request');
    metrics.requestDone(info, state.query, contentType ?? undefined, code, seconds, res && responseBodySize(res), info.isResourceRequest ? 'apiserver' : '', state.served);
    if (record.deprecated) metrics.deprecatedRequest(info, record.deprecated.removedRelease);
  };

  /** The endpoint, its outcome counted in the request metrics. */
  const metered = (c: Context<Env>, info: RequestInfo, user: UserInfo): Maybe<Response> => {
    if (!metrics) return endpoint(c, info, user);
    return settled(
      () => endpoint(c, info, user),
      (_ok, res, err) => requestDone(c, info, res, err),
    );
  };

  /** In-flight limits and authorization, then the endpoint; the request counts as in flight until its response is produced. */
  const admitted = (c: Context<Env>, info: RequestInfo, user: UserInfo): Maybe<Response> => {
    let leave: () => void;
    try {
      leave = limiter.enter(info, user, c.get('record').receivedAt);
    } catch (err) {
      // refused by the in-flight limits: counted with its 429, as upstream's dropped requests are
      requestDone(c, info, undefined, err);
      throw err;
    }
    let out: Maybe<Response>;
    try {
      out = andThen(authorizeRequest(opts.authorizer, user, info, c.get('record')), () => metered(c, info, user));
    } catch (err) {
      leave();
      throw err;
    }
    if (!isPromise(out)) {
      leave();
      return out;
    }
    return out.finally(leave);
  };

  // Non-resource endpoints (GET, and HEAD as GET), by path. /version, /api, /apis and /apis/<group> are go-restful routes
  // upstream, whose router ignores one trailing slash; health, OpenAPI and issuer paths are exact (with a slash they are 404).
  type Endpoint = (c: Context<Env>) => Maybe<Response>;
  const endpoints = new Map<string, Endpoint>();
  const health =
    (endpoint: 'healthz' | 'livez' | 'readyz'): Endpoint =>
    (c) => {
      const url = new URL(c.req.url);
      // a check's own path: its name may hold slashes (/readyz/poststarthook/rbac/bootstrap-roles); /readyz/ names none
      const sub = url.pathname.slice(endpoint.length + 2);
      if (url.pathname !== `/${endpoint}` && sub === '') return TEXT_404();
      const checks = endpoint === 'readyz' ? opts.health.readyz : opts.health.livez;
      return healthResponse(endpoint, checks, url, sub, observeCheck);
    };
  const observeCheck = metrics ? (name: string, type: 'healthz' | 'livez' | 'readyz', passed: boolean) => metrics.slis.observe(name, type, passed) : undefined;
  const healthChecks = new Map<string, Endpoint>();
  for (const ep of ['healthz', 'livez', 'readyz'] as const) {
    endpoints.set(`/${ep}`, health(ep));
    healthChecks.set(`/${ep}/`, health(ep));
  }
  const version = () => sendJSON(SERVER_VERSION, { pretty: true });
  endpoints.set('/version', version);
  endpoints.set('/version/', version);
  // service-account issuer discovery (OIDC), for relying parties that verify service-account tokens
  const discoveryDoc = (which: 'configJSON' | 'keysetJSON', type: string) => () => {
    const body = opts.openid?.()?.[which];
    if (body === undefined) return TEXT_404();
    return new Response(body, { headers: { 'Content-Type': type, 'Cache-Control': `public, max-age=${METADATA_MAX_AGE_SECONDS}` } });
  };
  endpoints.set(OPENID_CONFIG_PATH, discoveryDoc('configJSON', OPENID_CONFIG_CONTENT_TYPE));
  endpoints.set(JWKS_PATH, discoveryDoc('keysetJSON', JWKS_CONTENT_TYPE));
  endpoints.set('/openapi/v2', (c) => opts.openapi.v2(c));
  // Prometheus text format; authorized as any non-resource path (get on /metrics: system:monitoring's role)
  if (metrics) endpoints.set('/metrics', () => metrics.exposition().then((text) => new Response(text, { headers: { 'Content-Type': metrics.contentType } })));
  // component-base's SLI endpoint: the health checks' metrics (get on /metrics/slis, also system:monitoring's)
  if (metrics) endpoints.set('/metrics/slis', () => metrics.slis.exposition().then((text) => new Response(text, { headers: { 'Content-Type': metrics.slis.contentType } })));
  endpoints.set('/openapi/v3', (c) => opts.openapi.v3Index(c));
  const OPENAPI_V3 = '/openapi/v3/';

  const discoveryResponse = (c: Context, legacy: object, aggregated: object) => {
    const agg = wantsAggregatedDiscovery(requestHeader(c, 'accept'));
    if (agg) {
      const body = agg.version === 'v2' ? aggregated : { ...aggregated, apiVersion: 'apidiscovery.k8s.io/v2beta1' };
      return new Response(JSON.stringify(body), {
        headers: { 'Content-Type': `application/json;g=apidiscovery.k8s.io;v=${agg.version};as=APIGroupDiscoveryList`, 'Cache-Control': 'no-cache, private' },
      });
    }
    return sendJSON(legacy);
  };
  for (const p of ['/api', '/api/']) endpoints.set(p, (c) => discoveryResponse(c, discovery.documents.apiVersions, discovery.documents.aggregatedCore));
  for (const p of ['/apis', '/apis/']) endpoints.set(p, (c) => discoveryResponse(c, discovery.documents.apiGroupList, discovery.documents.aggregatedGroups));

  /** The non-resource endpoint serving GET of `path` (the path as a router sees it: percent-decoded), if any. */
  const endpointFor = (path: string): Endpoint | undefined => {
    const exact = endpoints.get(path);
    if (exact) return exact;
    if (path.startsWith(OPENAPI_V3)) return (c) => opts.openapi.v3(c);
    // /healthz/<check> and the like: a check's name follows (it may hold slashes)
    const slash = path.indexOf('/', 1);
    if (slash > 0 && slash < path.length - 1) return healthChecks.get(path.slice(0, slash + 1));
    return undefined;
  };

  /**
   * Nothing at this path. Under a group kube-apiserver serves, its group's handler answers a 404 Status; a
   * group it does not know falls through every handler to the last one, Go's plain-text 404 (as /api does
   * not: its handler answers the Status too).
   */
  const groupNotFound = (group: string): Response => {
    if (group && !discovery.documents.groups.has(group)) return TEXT_404();
    throw errors.notFoundPath();
  };

  // The endpoint of an admitted request: a non-resource path, per-group discovery, or a resource verb handler.
  const endpoint = (c: Context<Env>, info: RequestInfo, user: UserInfo): Maybe<Response> => {
    if (!info.isResourceRequest) {
      const method = c.req.method;
      if (method !== 'GET' && method !== 'HEAD') return TEXT_404();
      const serveNonResource = endpointFor(routingPath(info.path));
      if (serveNonResource) return serveNonResource(c);
      if (info.apiPrefix === 'api' && info.apiVersion) {
        const doc = discovery.documents.resourceLists.get(info.apiVersion);
        return doc ? sendJSON(doc) : sendStatus(errors.notFoundPath());
      }
      if (info.apiPrefix === 'apis' && info.apiGroup) {
        const doc = info.apiVersion ? discovery.documents.resourceLists.get(`${info.apiGroup}/${info.apiVersion}`) : discovery.documents.groups.get(info.apiGroup);
        return doc ? sendJSON(doc) : groupNotFound(info.apiGroup);
      }
      const segs = info.path.replace(/(.)\/$/, '$1').split('/');
      if (segs[1] === 'apis' && segs.length === 3) {
        const doc = discovery.documents.groups.get(segs[2]);
        return doc ? sendJSON(doc) : groupNotFound(segs[2]);
      }
      return TEXT_404();
    }
    const res = opts.api.lookup(info.apiGroup, info.apiVersion, info.resource);
    if (!res) return groupNotFound(info.apiPrefix === 'apis' ? info.apiGroup : '');
    // the request metrics find the resource's series through it
    const state = c.get('request');
    if (metrics) state.served = res;
    // 404/405/400 unless this path shape of this resource serves the verb (path-verbs.ts)
    checkRoute(res.def, info);
    const rc: RequestContext = { c, info, query: state.query, res, user, services: opts.services, warnings: [], record: c.get('record'), deadline: state.deadline };
    state.warnings = rc.warnings;
    // a deprecated version: upstream's Warning on every verb, the record's mark and its audit annotations
    const deprecated = deprecatedVersionOf(res.def);
    if (deprecated) {
      rc.warnings.push(deprecated.warning);
      recordDeprecatedUse(rc.record, deprecated);
    }
    if (info.subresource === 'token' && info.verb === 'create' && res.def.group === '' && res.def.resource === 'serviceaccounts') {
      return handleTokenRequest(rc, opts.tokenRequests);
    }
    // eviction, binding, the kubelet-facing subresources and the proxies (handlers/pods/, handlers/proxy/)
    const special = handlePodSubresource(rc, opts.api);
    if (special) return special;
    // no handler serves creates or deletes of other subresources:
    // they must never reach the handlers of the object itself
    if (info.subresource && (info.verb === 'create' || info.verb === 'delete')) throw errors.methodNotAllowed();
    if (res.def.virtual) {
      if (info.verb !== 'create') throw errors.methodNotAllowed();
      return handleReview(rc, { authorizer: opts.authorizer, ruleResolver: opts.ruleResolver }, opts.authentication);
    }
    const handler = info.subresource === 'scale' ? handleScale : HANDLERS[info.verb];
    if (!handler) throw errors.methodNotAllowed();
    return handler(rc);
  };

  /** The peer's address and port as the request log shows it (`[ipv6]:port`). */
  const srcIPOf = (c: Context<Env>): string => {
    const socket = (c.env as { incoming?: { socket?: { remoteAddress?: string; remotePort?: number } } } | undefined)?.incoming?.socket;
    return socket?.remoteAddress ? `${socket.remoteAddress.includes(':') ? `[${socket.remoteAddress}]` : socket.remoteAddress}:${socket.remotePort}` : '';
  };
  /** The request log line (upstream's httplog, at -v=3): what was asked, by whom, how long it took, the answer's code. */
  const logRequest = (c: Context<Env>, started: number, res: Response | undefined, err?: unknown, code?: number, srcIP = srcIPOf(c)): void => {
    const info = c.get('info');
    const target = requestTarget(c);
    const verb = info ? reportedVerb(info, info.verb === 'patch' ? requestHeader(c, 'content-type') : undefined) : c.req.method;
    logger.infoS(
      3,
      'HTTP',
      'verb',
      verb,
      'URI',
      uriOf(target),
      'latency',
      new Duration((performance.now() - started) * 1e6),
      'userAgent',
      requestHeader(c, 'user-agent') ?? '',
      'audit-ID',
      c.get('record')?.auditID ?? '',
      'srcIP',
      srcIP,
      'resp',
      code ?? (res ? res.status : toApiError(err).code),
    );
  };

  /**
   * serve(), then its line in the request log; a long-running request's (a watch) when it ends, as upstream's
   * httplog writes it when the handler returns, with the whole time it ran (in-process, without a socket to
   * watch close: when its answer starts).
   */
  const logged = (c: Context<Env>): Maybe<Response> => {
    const started = performance.now();
    return settled(
      () => serve(c),
      (_ok, res, err) => {
        const outgoing = res && outgoingOf(c);
        const info = c.get('info');
        if (outgoing && info && isLongRunning(info) && !outgoing.writableFinished) {
          // the peer's address is read now: a closed socket no longer has it
          const srcIP = srcIPOf(c);
          outgoing.once('close', () => logRequest(c, started, res, undefined, outgoing.statusCode, srcIP));
          return;
        }
        logRequest(c, started, res, err);
      },
    );
  };

  // One route, and an answer produced at once goes out at once.
  const entry = logger.enabled(3) ? logged : serve;
  const route = (c: Context<Env>): Maybe<Response> => {
    const out = entry(c);
    if (audit) return andThen(out, (res) => audit.answered(c, auditIDOnResponse(c, res)));
    return outgoingOf(c) ? out : andThen(out, (res) => auditIDOnResponse(c, res));
  };
  app.fetch = directDispatch(route, onError);

  return app;
}

/**
 * The answer to a HEAD request: the GET's status and headers, without its
 * body. Its headers are read first and given as they are now (reading
 * anything else of @hono/node-server's Response may build them anew from
 * those it was built with).
 */
function withoutBody(res: Response): Response {
  const headers = res.headers;
  return new Response(null, { status: res.status, headers });
}

/**
 * The app's fetch: every request to the one route, as Hono's own dispatch would send it there, without
 * its router (a match of the path against '*' for every method) or the path it extracts for the router
 * from the URL, which nothing here reads. As Hono's: a HEAD request is answered as the GET it is run as,
 * without a body; an Error thrown or rejected goes to the error handler, anything else propagates.
 */
function directDispatch<E extends Env>(
  route: (c: Context<E>) => Maybe<Response>,
  onError: (err: Error, c: Context<E>) => Response | Promise<Response>,
): (request: Request, env?: unknown, executionCtx?: ExecutionContext) => Response | Promise<Response> {
  const failed = (err: unknown, c: Context<E>): Response | Promise<Response> => {
    if (err instanceof Error) return onError(err, c);
    throw err;
  };
  const dispatch = (request: Request, env: unknown, executionCtx: ExecutionContext | undefined): Response | Promise<Response> => {
    const c = new Context<E>(request, { env: env as never, executionCtx });
    let out: Maybe<Response>;
    try {
      out = route(c);
    } catch (err) {
      return failed(err, c);
    }
    return isPromise(out) ? out.catch((err: unknown) => failed(err, c)) : out;
  };
  return (request, env, executionCtx) => {
    if (request.method === 'HEAD') return (async () => withoutBody(await dispatch(request, env, executionCtx)))();
    return dispatch(request, env, executionCtx);
  };
}
