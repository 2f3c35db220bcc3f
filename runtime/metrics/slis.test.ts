import { describe, expect, it } from 'vitest';
import { SliMetrics } from './slis.ts';

describe('SliMetrics', () => {
  it.each<[string, [string, 'livez' | 'readyz', boolean][], string[]]>([
    ['a passing check', [['ping', 'livez', true]], ['kubernetes_healthcheck{name="ping",type="livez"} 1', 'kubernetes_healthchecks_total{name="ping",type="livez",status="success"} 1']],
    [
      'a check that failed after passing: the gauge says the last run, the counter both',
      [
        ['etcd', 'readyz', true],
        ['etcd', 'readyz', false],
      ],
      [
        'kubernetes_healthcheck{name="etcd",type="readyz"} 0',
        'kubernetes_healthchecks_total{name="etcd",type="readyz",status="success"} 1',
        'kubernetes_healthchecks_total{name="etcd",type="readyz",status="error"} 1',
      ],
    ],
  ])('%s', async (_name, runs, lines) => {
    const m = new SliMetrics();
    for (const [name, type, ok] of runs) m.observe(name, type, ok);
    const text = await m.exposition();
    expect(text).toContain('# HELP kubernetes_healthcheck [BETA] This metric records the result of a single healthcheck.');
    expect(text).toContain('# HELP kubernetes_healthchecks_total [BETA] This metric records the results of all healthcheck.');
    for (const l of lines) expect(text).toContain(l);
  });
  it('records nothing of a disabled metric', async () => {
    const m = new SliMetrics(new Set(['kubernetes_healthcheck']));
    m.observe('ping', 'livez', true);
    const text = await m.exposition();
    expect(text).not.toContain('kubernetes_healthcheck{');
    expect(text).toContain('kubernetes_healthchecks_total{name="ping",type="livez",status="success"} 1');
  });
});
