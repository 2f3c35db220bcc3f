// Health endpoints: /healthz (deprecated), /livez and /readyz with named
// checks, `?verbose` listing `[+]<check> ok`, `?exclude=<check>`, one check
// at /<endpoint>/<check>, and readiness that turns 503 at shutdown. Each
// check the endpoint itself runs (not a check's own path, not an excluded
// one) is told to the observer, as upstream's SLI metrics record them.

export type Check = { name: string; run: () => Promise<void> | void };

/** Told of each check run by an endpoint (the SLI metrics of /metrics/slis). */
export type CheckObserver = (name: string, endpoint: 'healthz' | 'livez' | 'readyz', passed: boolean) => void;

export function healthResponse(endpoint: 'healthz' | 'livez' | 'readyz', checks: Check[], url: URL, sub: string, observe?: CheckObserver): Promise<Response> {
  return (async () => {
    const exclude = new Set(url.searchParams.getAll('exclude'));
    const verbose = url.searchParams.has('verbose');
    const selected = sub ? checks.filter((c) => c.name === sub) : checks.filter((c) => !exclude.has(c.name));
    if (sub && selected.length === 0) return new Response('404 page not found\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
    const lines: string[] = [];
    let failed = false;
    let shutdown = false;
    for (const c of selected) {
      try {
        await c.run();
        lines.push(`[+]${c.name} ok`);
        if (!sub) observe?.(c.name, endpoint, true);
      } catch {
        if (!sub) observe?.(c.name, endpoint, false);
        failed = true;
        if (c.name === 'shutdown') shutdown = true;
        lines.push(`[-]${c.name} failed: reason withheld`);
      }
    }
    const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache, private' };
    if (sub) return new Response(failed ? `internal server error: ${sub} failed\n` : 'ok', { status: failed ? (shutdown ? 503 : 500) : 200, headers });
    for (const e of exclude) if (!checks.some((c) => c.name === e)) lines.push(`warn: some health checks cannot be excluded: no matches for "${e}"`);
    if (failed) {
      return new Response(`${lines.join('\n')}\n${endpoint} check failed\n`, { status: shutdown ? 503 : 500, headers });
    }
    return new Response(verbose ? `${lines.join('\n')}\n${endpoint} check passed\n` : 'ok', { status: 200, headers });
  })();
}
