// Reads of custom resources whose CRD schema prunes and has defaults (each
// stored object is read through the schema: pruned, then defaulted), against
// the same reads under a CRD whose schema neither prunes nor defaults (storage
// read as it is), on the same server in the same run, interleaved (schema,
// plain, schema, ...), medians: GET of one object and LIST of 100 (autocannon,
// 16 connections), and WATCH: 20 watchers over sockets each taking the 100
// objects as initial events, to the bookmark that ends them. The aim: at
// least 0.8 of the plain reads' rate.
// Usage: npx tsx bench/crd/reads.ts [--quick]

import http from 'node:http';
import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { cannon, createMany } from '../support/http.ts';
import { spawnOurs } from '../support/servers.ts';
import { interleave, load1, median } from '../support/stats.ts';
import type { Row } from '../support/summary.ts';
import { benchCr, benchCrd, CRDS_PATH, crPath, waitServed, type Json } from './fixtures.ts';

const CONNECTIONS = 16;
const OBJECTS = 100;
const WATCHERS = 20;
const WATCH_ROUNDS = 10;

/** benchCrd(id) with a schema that keeps every field and sets none: reads leave storage as it is. */
function plainCrd(id: string): Json {
  const crd = benchCrd(id);
  const versions = (crd.spec as Json).versions as Json[];
  versions[0].schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
  return crd;
}

async function createCrd(url: string, crd: Json): Promise<void> {
  const r = await fetch(url + CRDS_PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(crd) });
  if (r.status !== 201) throw new Error(`CRD: ${r.status} ${(await r.text()).slice(0, 300)}`);
}

/** Milliseconds until `watchers` socket watches have each received every initial event and the bookmark ending them. */
function initialEvents(url: string, watchers: number): Promise<number> {
  const started = performance.now();
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.get(`${url}&watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=60`, { agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
          if (text.includes('"k8s.io/initial-events-end":"true"')) {
            req.destroy();
            resolve();
          }
        });
      });
      req.on('error', (err) => (err.message.includes('socket hang up') ? undefined : reject(err)));
    });
  return Promise.all(Array.from({ length: watchers }, one)).then(() => performance.now() - started);
}

async function run({ quick, scratch, log }: FigureOptions): Promise<Row[]> {
  const pairs = quick ? 3 : 5;
  const duration = quick ? 2 : 5;
  // the watchers ask for sendInitialEvents: WatchList is alpha (off) in 1.31
  const ours = await spawnOurs(join(scratch, 'data'), ['--feature-gates=WatchList=true']);
  try {
    const url = ours.url;
    await createCrd(url, benchCrd('schema'));
    await createCrd(url, plainCrd('plain'));
    for (const id of ['schema', 'plain']) {
      await waitServed(url, id);
      await createMany(url + crPath(id), OBJECTS - 1, (i) => benchCr(id, `o-${i}`));
    }
    const rate = (path: string) => async () => (await cannon({ url: url + path, connections: CONNECTIONS, duration })).requests.average;
    const rows: Row[] = [];
    const figures: [string, (id: string) => () => Promise<number>, string][] = [
      ['GET', (id) => rate(`${crPath(id)}/o-1`), '/s'],
      [`LIST of ${OBJECTS}`, (id) => rate(crPath(id)), '/s'],
      // watches per second: the rate at which WATCHERS watchers get through the initial events
      [
        `WATCH of ${OBJECTS} initial events, ${WATCHERS} watchers`,
        (id) => async () => {
          let ms = 0;
          for (let i = 0; i < WATCH_ROUNDS; i++) ms += await initialEvents(`${url}${crPath(id)}?labelSelector=`, WATCHERS);
          return (WATCH_ROUNDS * WATCHERS * 1000) / ms;
        },
        'watches/s',
      ],
    ];
    for (const [name, measure, unit] of figures) {
      await measure('schema')();
      await measure('plain')();
      const p = await interleave(pairs, measure('schema'), measure('plain'));
      const detail = `medians of ${pairs} interleaved runs; schema with defaults ${p.ours.map((x) => x.toFixed(0)).join(', ')}; without ${p.baseline.map((x) => x.toFixed(0)).join(', ')} ${unit}`;
      log(`${name}: ${detail} (load ${load1()})`);
      rows.push({
        figure: `custom resource ${name}, schema that prunes and defaults`,
        unit,
        ours: median(p.ours),
        baseline: median(p.baseline),
        baselineIs: 'the same reads under a CRD whose schema neither prunes nor defaults, same server',
        aim: { of: 'ratio', op: '>=', value: 0.8 },
        load: load1(),
        detail,
      });
    }
    return rows;
  } finally {
    await ours.stop();
  }
}

export const figure: Figure = { name: 'crd-reads', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
