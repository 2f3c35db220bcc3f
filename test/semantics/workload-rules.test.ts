// Deployment, ReplicaSet, StatefulSet, Job and CronJob validation, and the
// container rules wherever a PodSpec appears (Pod, Deployment, Job), one
// row per rule: status 422, reason Invalid, field path and upstream text.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../runtime/index.ts';
import { call, causeMessages, server } from './helpers.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await server();
});
afterAll(async () => {
  await s?.stop();
});

let n = 0;
const uniq = (p: string) => `${p}-${++n}`;
const c = { name: 'c', image: 'nginx:1.25' };
type Row = [string, (o: any) => void, string, string];

function expect422(r: { code: number; body: any }, field: string, msg: string) {
  expect(r.code, JSON.stringify(r.body)).toBe(422);
  expect(r.body.reason).toBe('Invalid');
  expect(
    causeMessages(r).some((m) => m.startsWith(`${field}: ${msg}`)),
    causeMessages(r).join('\n'),
  ).toBe(true);
}

const DEP = '/apis/apps/v1/namespaces/default/deployments';
const RS = '/apis/apps/v1/namespaces/default/replicasets';
const STS = '/apis/apps/v1/namespaces/default/statefulsets';
const JOB = '/apis/batch/v1/namespaces/default/jobs';
const CJ = '/apis/batch/v1/namespaces/default/cronjobs';
const POD = '/api/v1/namespaces/default/pods';

const template = (extra: Record<string, any> = {}) => ({ metadata: { labels: { app: 'a' } }, spec: { containers: [{ ...c }], ...extra } });
const deployment = () => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: uniq('d') }, spec: { selector: { matchLabels: { app: 'a' } }, template: template() } });
const replicaSet = () => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: uniq('rs') }, spec: { selector: { matchLabels: { app: 'a' } }, template: template() } });
const statefulSet = () => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: uniq('ss') }, spec: { serviceName: 's', selector: { matchLabels: { app: 'a' } }, template: template() } });
const job = () => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: uniq('j') }, spec: { template: { spec: { containers: [{ ...c }], restartPolicy: 'Never' } } } });
const cronJob = () => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name: uniq('cj') },
  spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { containers: [{ ...c }], restartPolicy: 'OnFailure' } } } } },
});
const pod = () => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: uniq('p') }, spec: { containers: [{ ...c }] } });

async function rows(path: string, make: () => any, table: Row[]) {
  for (const [name, edit, field, msg] of table) {
    const body = make();
    edit(body);
    const r = await call(s, 'POST', path, body);
    try {
      expect422(r, field, msg);
    } catch (e) {
      throw new Error(`${name}: ${(e as Error).message}`, { cause: e });
    }
  }
}

const SEL_EMPTY = 'v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}';

describe('Deployment', () => {
  it('valid with defaults', async () => {
    const r = await call(s, 'POST', DEP, deployment());
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    expect(r.body.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
  });
  it('rules', () =>
    rows(DEP, deployment, [
      [
        'negative replicas',
        (o) => {
          o.spec.replicas = -1;
        },
        'spec.replicas',
        'Invalid value: -1: must be greater than or equal to 0',
      ],
      [
        'selector required',
        (o) => {
          delete o.spec.selector;
        },
        'spec.selector',
        'Required value',
      ],
      [
        'empty selector',
        (o) => {
          o.spec.selector = {};
        },
        'spec.selector',
        `Invalid value: ${SEL_EMPTY}: empty selector is invalid for deployment`,
      ],
      [
        'selector does not match',
        (o) => {
          o.spec.selector = { matchLabels: { app: 'b' } };
        },
        'spec.template.metadata.labels',
        'Invalid value: map[string]string{"app":"a"}: `selector` does not match template `labels`',
      ],
      [
        'restartPolicy',
        (o) => {
          o.spec.template.spec.restartPolicy = 'OnFailure';
        },
        'spec.template.spec.restartPolicy',
        'Unsupported value: "OnFailure": supported values: "Always"',
      ],
      [
        'activeDeadlineSeconds',
        (o) => {
          o.spec.template.spec.activeDeadlineSeconds = 10;
        },
        'spec.template.spec.activeDeadlineSeconds',
        'Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
      ],
      [
        'strategy type',
        (o) => {
          o.spec.strategy = { type: 'Rolling' };
        },
        'spec.strategy',
        'Unsupported value: apps.DeploymentStrategy{Type:"Rolling", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"',
      ],
      [
        'Recreate with rollingUpdate',
        (o) => {
          o.spec.strategy = { type: 'Recreate', rollingUpdate: { maxSurge: 1 } };
        },
        'spec.strategy.rollingUpdate',
        "Forbidden: may not be specified when strategy `type` is 'Recreate'",
      ],
      [
        'both zero',
        (o) => {
          o.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '0%' } };
        },
        'spec.strategy.rollingUpdate.maxUnavailable',
        'Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
      ],
      [
        'percent syntax',
        (o) => {
          o.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '5 percent' } };
        },
        'spec.strategy.rollingUpdate.maxSurge',
        'Invalid value: "5 percent": a valid percent string must be',
      ],
      [
        'maxUnavailable over 100%',
        (o) => {
          o.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '101%' } };
        },
        'spec.strategy.rollingUpdate.maxUnavailable',
        'Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%',
      ],
      [
        'negative maxSurge',
        (o) => {
          o.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: -2 } };
        },
        'spec.strategy.rollingUpdate.maxSurge',
        'Invalid value: -2: must be greater than or equal to 0',
      ],
      [
        'negative revisionHistoryLimit',
        (o) => {
          o.spec.revisionHistoryLimit = -1;
        },
        'spec.revisionHistoryLimit',
        'Invalid value: -1: must be greater than or equal to 0',
      ],
      [
        'negative minReadySeconds',
        (o) => {
          o.spec.minReadySeconds = -1;
        },
        'spec.minReadySeconds',
        'Invalid value: -1: must be greater than or equal to 0',
      ],
      [
        'progressDeadlineSeconds not above minReadySeconds',
        (o) => {
          o.spec.minReadySeconds = 30;
          o.spec.progressDeadlineSeconds = 30;
        },
        'spec.progressDeadlineSeconds',
        'Invalid value: 30: must be greater than minReadySeconds',
      ],
    ]));
  it('maxSurge may exceed 100%; selector is immutable', async () => {
    const d = deployment();
    (d.spec as any).strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '200%' } };
    const r = await call(s, 'POST', DEP, d);
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    const up = structuredClone(r.body);
    up.spec.selector = { matchLabels: { app: 'a', tier: 'x' } };
    up.spec.template.metadata.labels.tier = 'x';
    expect422(
      await call(s, 'PUT', `${DEP}/${r.body.metadata.name}`, up),
      'spec.selector',
      'Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"a", "tier":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    );
    const scale = structuredClone(r.body);
    scale.spec.replicas = 3;
    expect((await call(s, 'PUT', `${DEP}/${r.body.metadata.name}`, scale)).code).toBe(200);
  });
});

describe('ReplicaSet', () => {
  it('rules', () =>
    rows(RS, replicaSet, [
      [
        'negative replicas',
        (o) => {
          o.spec.replicas = -3;
        },
        'spec.replicas',
        'Invalid value: -3: must be greater than or equal to 0',
      ],
      [
        'empty selector',
        (o) => {
          o.spec.selector = { matchLabels: {} };
        },
        'spec.selector',
        'Invalid value: v1.LabelSelector{MatchLabels:map[string]string{}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
      ],
      [
        'selector does not match',
        (o) => {
          o.spec.selector = { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['a'] }] };
        },
        'spec.template.metadata.labels',
        'Invalid value: map[string]string{"app":"a"}',
      ],
      [
        'restartPolicy',
        (o) => {
          o.spec.template.spec.restartPolicy = 'Never';
        },
        'spec.template.spec.restartPolicy',
        'Unsupported value: "Never": supported values: "Always"',
      ],
    ]));
  it('selector is immutable', async () => {
    const r = await call(s, 'POST', RS, replicaSet());
    expect(r.code).toBe(201);
    const up = structuredClone(r.body);
    up.spec.selector = { matchExpressions: [{ key: 'app', operator: 'Exists' }] };
    expect422(
      await call(s, 'PUT', `${RS}/${r.body.metadata.name}`, up),
      'spec.selector',
      'Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"Exists", Values:[]string(nil)}}}: field is immutable',
    );
  });
});

describe('StatefulSet', () => {
  it('rules', () =>
    rows(STS, statefulSet, [
      [
        'podManagementPolicy',
        (o) => {
          o.spec.podManagementPolicy = 'Random';
        },
        'spec.podManagementPolicy',
        `Invalid value: "Random": must be 'OrderedReady' or 'Parallel'`,
      ],
      [
        'update strategy type',
        (o) => {
          o.spec.updateStrategy = { type: 'Rolling' };
        },
        'spec.updateStrategy',
        "Invalid value: apps.StatefulSetUpdateStrategy{Type:\"Rolling\", RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}: must be 'RollingUpdate' or 'OnDelete'",
      ],
      [
        'OnDelete with rollingUpdate',
        (o) => {
          o.spec.updateStrategy = { type: 'OnDelete', rollingUpdate: { partition: 1 } };
        },
        'spec.updateStrategy.rollingUpdate',
        "Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:1, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'",
      ],
      [
        'negative partition',
        (o) => {
          o.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: -1 } };
        },
        'spec.updateStrategy.rollingUpdate.partition',
        'Invalid value: -1: must be greater than or equal to 0',
      ],
      [
        'retention policy',
        (o) => {
          o.spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Keep' };
        },
        'spec.persistentVolumeClaimRetentionPolicy.whenDeleted',
        'Unsupported value: "Keep": supported values: "Retain", "Delete"',
      ],
      [
        'negative replicas',
        (o) => {
          o.spec.replicas = -1;
        },
        'spec.replicas',
        'Invalid value: -1: must be greater than or equal to 0',
      ],
      [
        'negative ordinals.start',
        (o) => {
          o.spec.ordinals = { start: -1 };
        },
        'spec.ordinals.start',
        'Invalid value: -1: must be greater than or equal to 0',
      ],
      [
        'empty selector',
        (o) => {
          o.spec.selector = {};
        },
        'spec.selector',
        `Invalid value: ${SEL_EMPTY}: empty selector is invalid for statefulset`,
      ],
      [
        'restartPolicy',
        (o) => {
          o.spec.template.spec.restartPolicy = 'OnFailure';
        },
        'spec.template.spec.restartPolicy',
        'Unsupported value: "OnFailure": supported values: "Always"',
      ],
      [
        'activeDeadlineSeconds',
        (o) => {
          o.spec.template.spec.activeDeadlineSeconds = 5;
        },
        'spec.template.spec.activeDeadlineSeconds',
        'Forbidden: activeDeadlineSeconds in StatefulSet is not Supported',
      ],
    ]));
  it('only some spec fields may change', async () => {
    const r = await call(s, 'POST', STS, statefulSet());
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    const ok = structuredClone(r.body);
    ok.spec.replicas = 4;
    ok.spec.template.spec.containers[0].image = 'nginx:1.26';
    ok.spec.minReadySeconds = 5;
    const up = await call(s, 'PUT', `${STS}/${r.body.metadata.name}`, ok);
    expect(up.code, JSON.stringify(up.body)).toBe(200);
    const bad = structuredClone(up.body);
    bad.spec.serviceName = 'other';
    expect422(
      await call(s, 'PUT', `${STS}/${r.body.metadata.name}`, bad),
      'spec',
      "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    );
  });
});

describe('Job', () => {
  it('generates its selector and template labels', async () => {
    const r = await call(s, 'POST', JOB, job());
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    const { uid, name } = r.body.metadata;
    expect(r.body.spec.selector).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
    expect(r.body.spec.template.metadata.labels).toEqual({
      'batch.kubernetes.io/controller-uid': uid,
      'batch.kubernetes.io/job-name': name,
      'controller-uid': uid,
      'job-name': name,
    });
    const gen = await call(s, 'POST', JOB, { ...job(), metadata: { generateName: 'gen-' } });
    expect(gen.code, JSON.stringify(gen.body)).toBe(201);
    expect(gen.body.spec.template.metadata.labels['batch.kubernetes.io/job-name']).toBe(gen.body.metadata.name);
  });
  it('rules', () =>
    rows(JOB, job, [
      [
        'restartPolicy Always',
        (o) => {
          delete o.spec.template.spec.restartPolicy;
        },
        'spec.template.spec.restartPolicy',
        'Unsupported value: "Always": supported values: "OnFailure", "Never"',
      ],
      [
        'negative parallelism',
        (o) => {
          o.spec.parallelism = -1;
        },
        'spec.parallelism',
        'Invalid value: -1: must be greater than or equal to 0',
      ],
      [
        'negative completions',
        (o) => {
          o.spec.completions = -1;
        },
        'spec.completions',
        'Invalid value: -1: must be greater than or equal to 0',
      ],
      [
        'negative backoffLimit',
        (o) => {
          o.spec.backoffLimit = -1;
        },
        'spec.backoffLimit',
        'Invalid value: -1: must be greater than or equal to 0',
      ],
      [
        'negative activeDeadlineSeconds',
        (o) => {
          o.spec.activeDeadlineSeconds = -5;
        },
        'spec.activeDeadlineSeconds',
        'Invalid value: -5: must be greater than or equal to 0',
      ],
      [
        'negative ttlSecondsAfterFinished',
        (o) => {
          o.spec.ttlSecondsAfterFinished = -1;
        },
        'spec.ttlSecondsAfterFinished',
        'Invalid value: -1: must be greater than or equal to 0',
      ],
      [
        'completion mode',
        (o) => {
          o.spec.completionMode = 'Sorted';
        },
        'spec.completionMode',
        'Unsupported value: "Sorted": supported values: "NonIndexed", "Indexed"',
      ],
      [
        'Indexed parallelism cap',
        (o) => {
          o.spec.completionMode = 'Indexed';
          o.spec.completions = 5;
          o.spec.parallelism = 100001;
        },
        'spec.parallelism',
        'Invalid value: 100001: must be less than or equal to 100000 when completion mode is Indexed',
      ],
      [
        'pod replacement policy',
        (o) => {
          o.spec.podReplacementPolicy = 'Sometimes';
        },
        'spec.podReplacementPolicy',
        'Unsupported value: "Sometimes": supported values: "TerminatingOrFailed", "Failed"',
      ],
      [
        'selector without manualSelector',
        (o) => {
          o.spec.selector = { matchLabels: { a: 'b' } };
          o.spec.template.metadata = { labels: { a: 'b' } };
        },
        'spec.selector',
        'Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b", "batch.kubernetes.io/controller-uid":"',
      ],
      [
        'manual selector that does not match',
        (o) => {
          o.spec.manualSelector = true;
          o.spec.selector = { matchLabels: { a: 'b' } };
          o.spec.template.metadata = { labels: { a: 'c' } };
        },
        'spec.template.metadata.labels',
        'Invalid value: map[string]string{"a":"c"}: `selector` does not match template `labels`',
      ],
      [
        'manual selector required',
        (o) => {
          o.spec.manualSelector = true;
        },
        'spec.selector',
        'Required value',
      ],
    ]));
  it('update: completions, selector and template are fixed', async () => {
    const r = await call(s, 'POST', JOB, job());
    expect(r.code).toBe(201);
    const path = `${JOB}/${r.body.metadata.name}`;
    const comp = structuredClone(r.body);
    comp.spec.completions = 3;
    expect422(await call(s, 'PUT', path, comp), 'spec.completions', 'Invalid value: 3: field is immutable');
    const tmpl = structuredClone(r.body);
    tmpl.spec.template.spec.containers[0].image = 'other';
    expect422(await call(s, 'PUT', path, tmpl), 'spec.template', 'Invalid value');
    const par = structuredClone(r.body);
    par.spec.parallelism = 4;
    expect((await call(s, 'PUT', path, par)).code).toBe(200);
  });
  it('a suspended job that never started may change scheduling fields', async () => {
    const j = job();
    (j.spec as any).suspend = true;
    const r = await call(s, 'POST', JOB, j);
    expect(r.code).toBe(201);
    const up = structuredClone(r.body);
    up.spec.template.spec.nodeSelector = { zone: 'a' };
    expect((await call(s, 'PUT', `${JOB}/${r.body.metadata.name}`, up)).code).toBe(200);
  });
});

describe('CronJob', () => {
  it('valid schedules and zones', async () => {
    for (const [schedule, timeZone] of [
      ['@hourly', undefined],
      ['0 0 1 jan,jul *', 'Europe/Paris'],
      ['*/15 9-17 * * MON-FRI', 'UTC'],
      ['@every 1h30m', undefined],
    ] as const) {
      const o = cronJob();
      (o.spec as any).schedule = schedule;
      if (timeZone) (o.spec as any).timeZone = timeZone;
      const r = await call(s, 'POST', CJ, o);
      expect(r.code, `${schedule}: ${JSON.stringify(r.body)}`).toBe(201);
    }
  });
  it('rules', () =>
    rows(CJ, cronJob, [
      [
        'name too long',
        (o) => {
          o.metadata.name = 'c'.repeat(53);
        },
        'metadata.name',
        `Invalid value: "${'c'.repeat(53)}": must be no more than 52 characters`,
      ],
      [
        'schedule required',
        (o) => {
          o.spec.schedule = '';
        },
        'spec.schedule',
        'Required value',
      ],
      [
        'too few fields',
        (o) => {
          o.spec.schedule = '* * *';
        },
        'spec.schedule',
        'Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]',
      ],
      [
        'minute out of range',
        (o) => {
          o.spec.schedule = '60 * * * *';
        },
        'spec.schedule',
        'Invalid value: "60 * * * *": end of range (60) above maximum (59): 60',
      ],
      [
        'day of month zero',
        (o) => {
          o.spec.schedule = '0 0 0 * *';
        },
        'spec.schedule',
        'Invalid value: "0 0 0 * *": beginning of range (0) below minimum (1): 0',
      ],
      [
        'not a number',
        (o) => {
          o.spec.schedule = 'x * * * *';
        },
        'spec.schedule',
        'Invalid value: "x * * * *": failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax',
      ],
      [
        'reversed range',
        (o) => {
          o.spec.schedule = '0 5-2 * * *';
        },
        'spec.schedule',
        'Invalid value: "0 5-2 * * *": beginning of range (5) beyond end of range (2): 5-2',
      ],
      [
        'zero step',
        (o) => {
          o.spec.schedule = '*/0 * * * *';
        },
        'spec.schedule',
        'Invalid value: "*/0 * * * *": step of range should be a positive number: */0',
      ],
      [
        'unknown descriptor',
        (o) => {
          o.spec.schedule = '@sometimes';
        },
        'spec.schedule',
        'Invalid value: "@sometimes": unrecognized descriptor: @sometimes',
      ],
      [
        'bad @every',
        (o) => {
          o.spec.schedule = '@every soon';
        },
        'spec.schedule',
        'Invalid value: "@every soon": failed to parse duration @every soon: time: invalid duration "soon"',
      ],
      [
        'TZ in schedule',
        (o) => {
          o.spec.schedule = 'TZ=UTC 0 * * * *';
        },
        'spec.schedule',
        'Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
      ],
      [
        'unknown time zone',
        (o) => {
          o.spec.timeZone = 'Mars/Olympus';
        },
        'spec.timeZone',
        'Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus',
      ],
      [
        'time zone syntax',
        (o) => {
          o.spec.timeZone = 'Europe/../Paris';
        },
        'spec.timeZone',
        'Invalid value: "Europe/../Paris": unknown time zone Europe/../Paris',
      ],
      [
        'Local time zone',
        (o) => {
          o.spec.timeZone = 'Local';
        },
        'spec.timeZone',
        'Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      ],
      [
        'empty time zone',
        (o) => {
          o.spec.timeZone = '';
        },
        'spec.timeZone',
        'Invalid value: "": timeZone must be nil or non-empty string',
      ],
      [
        'concurrencyPolicy',
        (o) => {
          o.spec.concurrencyPolicy = 'Sometimes';
        },
        'spec.concurrencyPolicy',
        'Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
      ],
      [
        'negative startingDeadlineSeconds',
        (o) => {
          o.spec.startingDeadlineSeconds = -1;
        },
        'spec.startingDeadlineSeconds',
        'Invalid value: -1: must be greater than or equal to 0',
      ],
      [
        'negative history limit',
        (o) => {
          o.spec.failedJobsHistoryLimit = -1;
        },
        'spec.failedJobsHistoryLimit',
        'Invalid value: -1: must be greater than or equal to 0',
      ],
      [
        'job template selector',
        (o) => {
          o.spec.jobTemplate.spec.selector = { matchLabels: { a: 'b' } };
        },
        'spec.jobTemplate.spec.selector',
        'Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` will be auto-generated',
      ],
      [
        'job template manualSelector',
        (o) => {
          o.spec.jobTemplate.spec.manualSelector = true;
        },
        'spec.jobTemplate.spec.manualSelector',
        'Unsupported value: true: supported values: "nil", "false"',
      ],
      [
        'job template restartPolicy',
        (o) => {
          o.spec.jobTemplate.spec.template.spec.restartPolicy = 'Always';
        },
        'spec.jobTemplate.spec.template.spec.restartPolicy',
        'Unsupported value: "Always": supported values: "OnFailure", "Never"',
      ],
      [
        'job template negative completions',
        (o) => {
          o.spec.jobTemplate.spec.completions = -2;
        },
        'spec.jobTemplate.spec.completions',
        'Invalid value: -2: must be greater than or equal to 0',
      ],
    ]));
});

describe('containers wherever a PodSpec appears', () => {
  const containerRows: Row[] = [
    [
      'containers required',
      (p) => {
        p.containers = [];
      },
      'containers',
      'Required value',
    ],
    [
      'name required',
      (p) => {
        p.containers[0].name = '';
      },
      'containers[0].name',
      'Required value',
    ],
    [
      'name a DNS label',
      (p) => {
        p.containers[0].name = 'Web_1';
      },
      'containers[0].name',
      'Invalid value: "Web_1": a lowercase RFC 1123 label must consist of',
    ],
    [
      'duplicate across init and regular',
      (p) => {
        p.initContainers = [{ name: 'c', image: 'busybox' }];
      },
      'containers[0].name',
      'Duplicate value: "c"',
    ],
    [
      'image whitespace',
      (p) => {
        p.containers[0].image = ' nginx';
      },
      'containers[0].image',
      'Invalid value: " nginx": must not have leading or trailing whitespace',
    ],
    [
      'containerPort range',
      (p) => {
        p.containers[0].ports = [{ containerPort: 70000 }];
      },
      'containers[0].ports[0].containerPort',
      'Invalid value: 70000: must be between 1 and 65535, inclusive',
    ],
    [
      'containerPort required',
      (p) => {
        p.containers[0].ports = [{ name: 'http' }];
      },
      'containers[0].ports[0].containerPort',
      'Required value',
    ],
    [
      'hostPort range',
      (p) => {
        p.containers[0].ports = [{ containerPort: 80, hostPort: -1 }];
      },
      'containers[0].ports[0].hostPort',
      'Invalid value: -1: must be between 1 and 65535, inclusive',
    ],
    [
      'protocol',
      (p) => {
        p.containers[0].ports = [{ containerPort: 80, protocol: 'HTTP' }];
      },
      'containers[0].ports[0].protocol',
      'Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
    ],
    [
      'port name syntax',
      (p) => {
        p.containers[0].ports = [{ containerPort: 80, name: 'Web' }];
      },
      'containers[0].ports[0].name',
      'Invalid value: "Web": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    ],
    [
      'port name too long',
      (p) => {
        p.containers[0].ports = [{ containerPort: 80, name: 'a-very-long-port-name' }];
      },
      'containers[0].ports[0].name',
      'Invalid value: "a-very-long-port-name": must be no more than 15 characters',
    ],
    [
      'port name unique',
      (p) => {
        p.containers[0].ports = [
          { containerPort: 80, name: 'web' },
          { containerPort: 81, name: 'web' },
        ];
      },
      'containers[0].ports[1].name',
      'Duplicate value: "web"',
    ],
    [
      'env name',
      (p) => {
        p.containers[0].env = [{ name: '1ST', value: 'x' }];
      },
      'containers[0].env[0].name',
      `Invalid value: "1ST": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit`,
    ],
    [
      'env name required',
      (p) => {
        p.containers[0].env = [{ value: 'x' }];
      },
      'containers[0].env[0].name',
      'Required value',
    ],
    [
      'env value and valueFrom',
      (p) => {
        p.containers[0].env = [{ name: 'A', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }];
      },
      'containers[0].env[0].valueFrom',
      'Invalid value: "": may not be specified when `value` is not empty',
    ],
    [
      'env two sources',
      (p) => {
        p.containers[0].env = [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } } }];
      },
      'containers[0].env[0].valueFrom',
      'Invalid value: "": may not have more than one field specified at a time',
    ],
    [
      'request above limit',
      (p) => {
        p.containers[0].resources = { requests: { cpu: '2' }, limits: { cpu: '1500m' } };
      },
      'containers[0].resources.requests',
      'Invalid value: "2": must be less than or equal to cpu limit of 1500m',
    ],
    [
      'memory request above limit',
      (p) => {
        p.containers[0].resources = { requests: { memory: '2Gi' }, limits: { memory: '1Gi' } };
      },
      'containers[0].resources.requests',
      'Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi',
    ],
    [
      'negative quantity',
      (p) => {
        p.containers[0].resources = { limits: { memory: '-1' } };
      },
      'containers[0].resources.limits[memory]',
      'Invalid value: "-1": must be greater than or equal to 0',
    ],
    [
      'quantity syntax',
      (p) => {
        p.containers[0].resources = { limits: { cpu: 'lots' } };
      },
      'containers[0].resources.limits[cpu]',
      'Invalid value: "lots"',
    ],
    [
      'probe handler required',
      (p) => {
        p.containers[0].livenessProbe = { periodSeconds: 5 };
      },
      'containers[0].livenessProbe',
      'Required value: must specify a handler type',
    ],
    [
      'probe one handler',
      (p) => {
        p.containers[0].readinessProbe = { exec: { command: ['true'] }, tcpSocket: { port: 80 } };
      },
      'containers[0].readinessProbe.tcpSocket',
      'Forbidden: may not specify more than 1 handler type',
    ],
    [
      'liveness successThreshold',
      (p) => {
        p.containers[0].livenessProbe = { exec: { command: ['true'] }, successThreshold: 2 };
      },
      'containers[0].livenessProbe.successThreshold',
      'Invalid value: 2: must be 1',
    ],
    [
      'probe negative delay',
      (p) => {
        p.containers[0].startupProbe = { exec: { command: ['true'] }, initialDelaySeconds: -1 };
      },
      'containers[0].startupProbe.initialDelaySeconds',
      'Invalid value: -1: must be greater than or equal to 0',
    ],
    [
      'probe port',
      (p) => {
        p.containers[0].readinessProbe = { httpGet: { port: 0 } };
      },
      'containers[0].readinessProbe.httpGet.port',
      'Invalid value: 0: must be between 1 and 65535, inclusive',
    ],
    [
      'probe scheme',
      (p) => {
        p.containers[0].readinessProbe = { httpGet: { port: 80, scheme: 'FTP' } };
      },
      'containers[0].readinessProbe.httpGet.scheme',
      'Unsupported value: "FTP": supported values: "HTTP", "HTTPS"',
    ],
    [
      'init container probe',
      (p) => {
        p.initContainers = [{ name: 'i', image: 'b', readinessProbe: { exec: { command: ['true'] } } }];
      },
      'initContainers[0].readinessProbe',
      'Forbidden: may not be set for init containers without restartPolicy=Always',
    ],
    [
      'volume mount of an undeclared volume',
      (p) => {
        p.containers[0].volumeMounts = [{ name: 'data', mountPath: '/d' }];
      },
      'containers[0].volumeMounts[0].name',
      'Not found: "data"',
    ],
    [
      'extended resource limit required',
      (p) => {
        p.containers[0].resources = { requests: { 'example.com/gpu': '1' } };
      },
      'containers[0].resources.limits',
      'Required value: Limit must be set for non overcommitable resources',
    ],
    [
      'imagePullPolicy',
      (p) => {
        p.containers[0].imagePullPolicy = 'Sometimes';
      },
      'containers[0].imagePullPolicy',
      'Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
    ],
  ];

  it('Pod: image required, restartPolicy values, activeDeadlineSeconds', () =>
    rows(POD, pod, [
      [
        'image required',
        (o) => {
          delete o.spec.containers[0].image;
        },
        'spec.containers[0].image',
        'Required value',
      ],
      [
        'restartPolicy',
        (o) => {
          o.spec.restartPolicy = 'Sometimes';
        },
        'spec.restartPolicy',
        'Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      ],
      [
        'activeDeadlineSeconds',
        (o) => {
          o.spec.activeDeadlineSeconds = 0;
        },
        'spec.activeDeadlineSeconds',
        'Invalid value: 0: must be between 1 and 2147483647, inclusive',
      ],
    ]));

  it('Pod updates: the image may change, other spec fields may not', async () => {
    const r = await call(s, 'POST', POD, pod());
    expect(r.code).toBe(201);
    const path = `${POD}/${r.body.metadata.name}`;
    const img = structuredClone(r.body);
    img.spec.containers[0].image = 'nginx:1.26';
    const up = await call(s, 'PUT', path, img);
    expect(up.code, JSON.stringify(up.body)).toBe(200);
    const env = structuredClone(up.body);
    env.spec.containers[0].env = [{ name: 'A', value: 'b' }];
    expect422(
      await call(s, 'PUT', path, env),
      'spec',
      'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    );
    const more = structuredClone(up.body);
    more.spec.containers.push({ name: 'd', image: 'busybox' });
    expect422(await call(s, 'PUT', path, more), 'spec.containers', 'Forbidden: pod updates may not add or remove containers');
    const labels = structuredClone(up.body);
    labels.metadata.labels = { team: 'x' };
    expect((await call(s, 'PUT', path, labels)).code).toBe(200);
  });

  it('templates may leave the image out', async () => {
    const d = deployment();
    delete (d.spec.template.spec.containers[0] as any).image;
    expect((await call(s, 'POST', DEP, d)).code).toBe(201);
  });

  it.each([
    ['Pod', POD, pod, 'spec', (o: any) => o.spec],
    ['Deployment', DEP, deployment, 'spec.template.spec', (o: any) => o.spec.template.spec],
    ['Job', JOB, job, 'spec.template.spec', (o: any) => o.spec.template.spec],
  ] as const)('%s', async (_k, path, make, prefix, specOf) => {
    await rows(
      path,
      make,
      containerRows.map(([name, edit, field, msg]) => [name, (o: any) => edit(specOf(o)), `${prefix}.${field}`, msg] as Row),
    );
  });

  it('a valid pod with ports, env, resources and probes', async () => {
    const p = pod();
    Object.assign(p.spec.containers[0], {
      ports: [
        { name: 'http', containerPort: 80 },
        { name: 'metrics', containerPort: 9090, protocol: 'UDP' },
      ],
      env: [
        { name: 'MY_VAR.x-1', value: 'v' },
        { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      ],
      resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '1024Mi' } },
      livenessProbe: { httpGet: { port: 'http', path: '/' } },
      readinessProbe: { tcpSocket: { port: 80 }, successThreshold: 3 },
    });
    (p.spec as any).initContainers = [{ name: 'sidecar', image: 'b', restartPolicy: 'Always', startupProbe: { exec: { command: ['true'] } } }];
    const r = await call(s, 'POST', POD, p);
    expect(r.code, JSON.stringify(r.body)).toBe(201);
  });
});
