// The watch client of the watch benches, one child process for both sides
// (our server and the bare fan-out baseline), driven over IPC:
//   {cmd: 'open', url, count, track}  opens `count` streaming GETs of url and
//                                     answers {opened} once all have their headers
//   {cmd: 'close'}                    ends them and answers {closed}
// With track, each line received is an event whose object's first "name"
// field names it; once an event has arrived on every stream the client
// answers {name, first, last}: the times it arrived on the first and on the
// last stream (process.hrtime in ms, the system's monotonic clock, which the
// parent reads too). Without track each stream's bytes are only scanned
// for line ends (one event a line; not decoded), which counts its events:
//   {cmd: 'count'}                    answers {counts: [min, max], ended}, the
//                                     fewest and most events a stream got, and
//                                     how many streams the server ended
// Plain JavaScript, so it runs the same with or without a TypeScript loader.
import { Agent, get } from 'node:http';

const now = () => Number(process.hrtime.bigint()) / 1e6;
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
const send = (m) => process.send(m);
let streams = [];
let arrivals = new Map();
/** Events counted per stream (without track). */
let counts = [];
/** Streams the server ended or dropped (not closed by this client). */
let ended = 0;
let closing = false;

function open({ url, count, track }) {
  arrivals = new Map();
  counts = new Array(count).fill(0);
  ended = 0;
  closing = false;
  let ready = 0;
  for (let i = 0; i < count; i++) {
    const req = get(url, { agent }, (res) => {
      if (res.statusCode !== 200) {
        send({ error: `watch ${url}: ${res.statusCode}` });
        res.resume();
        return;
      }
      if (!track) {
        // a line feed ends each event (JSON inside an event never holds a raw one)
        res.on('data', (chunk) => {
          let n = 0;
          for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) n++;
          counts[i] += n;
        });
        res.on('error', () => {});
        res.on('close', () => {
          if (!closing) ended++;
        });
        if (++ready === count) send({ opened: count });
        return;
      }
      let partial = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        const t = now();
        const lines = (partial + chunk).split('\n');
        partial = lines.pop();
        for (const line of lines) {
          const m = /"name":"([^"]+)"/.exec(line);
          if (!m) continue;
          const a = arrivals.get(m[1]);
          if (!a) arrivals.set(m[1], { n: 1, first: t, last: t });
          else {
            a.n++;
            a.last = t;
          }
          const b = arrivals.get(m[1]);
          if (b.n === count) {
            arrivals.delete(m[1]);
            send({ name: m[1], first: b.first, last: b.last });
          }
        }
      });
      res.on('error', () => {});
      if (++ready === count) send({ opened: count });
    });
    req.on('error', (err) => {
      if (!req.destroyed) send({ error: `watch ${url}: ${err.message}` });
    });
    streams.push(req);
  }
}

process.on('message', (m) => {
  if (m.cmd === 'open') open(m);
  if (m.cmd === 'count') send({ counts: counts.length ? [Math.min(...counts), Math.max(...counts)] : [0, 0], ended });
  if (m.cmd === 'close') {
    closing = true;
    for (const req of streams) req.destroy();
    streams = [];
    send({ closed: true });
  }
});
process.on('disconnect', () => process.exit(0));
