// Hash joins: DuckDB (2 threads) against alkaid-go on the same rows.
// Usage, from this directory: npm ci && node join.mjs [probe rows] [build rows]
// Prints, per case, both wall and CPU times (the least of five runs),
// the ratios and both answers (count and sum, which must agree).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const probe = Number(process.argv[2] ?? 10_000_000);
const build = Number(process.argv[3] ?? 1_000_000);
const reps = 5;
const here = path.dirname(fileURLToPath(import.meta.url));

// The same columns as join/main.go.
const setup = [
  `CREATE TABLE b AS SELECT (i * 7919) % ${build} AS k, i % 1000 AS v FROM range(${build}) r(i)`,
  `CREATE TABLE p AS SELECT ((i * 2654435761) % 4294967291) % ${2 * build} AS k, i % 100 AS w FROM range(${probe}) r(i)`,
  `CREATE TABLE bs AS SELECT k * 2654435761 AS k, v FROM b`,
  `CREATE TABLE ps AS SELECT k * 2654435761 AS k, w FROM p`,
];

// Each case materialises its output in a temporary table, as ours
// yields record batches, and then counts and sums it (untimed).
const cases = [
  ['inner join, count + sum', 'SELECT b.v FROM p JOIN b ON p.k = b.k'],
  ['inner join, three columns', 'SELECT p.k, p.w, b.v FROM p JOIN b ON p.k = b.k'],
  ['left join, count + sum', 'SELECT b.v FROM p LEFT JOIN b ON p.k = b.k'],
  ['inner, sparse keys', 'SELECT bs.v FROM ps JOIN bs ON ps.k = bs.k'],
];

async function duck() {
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  const con = await db.connect();
  for (const s of setup) await con.run(s);
  const out = {};
  for (const [name, sql] of cases) {
    let best = Infinity, bestCPU = Infinity;
    for (let k = 0; k < reps; k++) {
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      await con.run(`CREATE OR REPLACE TEMP TABLE r AS ${sql}`);
      best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
      const c = process.cpuUsage(c0);
      bestCPU = Math.min(bestCPU, (c.user + c.system) / 1e3);
    }
    const rows = (await con.runAndReadAll('SELECT count(*), sum(v) FROM r')).getRows()[0];
    out[name] = { ms: best, cpu_ms: bestCPU, count: String(rows[0]), sum: String(rows[1]) };
  }
  return out;
}

function ours() {
  const txt = execFileSync('go', ['run', './duckdb/join', '-probe', String(probe), '-build', String(build), '-reps', String(reps)],
    { cwd: path.join(here, '..'), encoding: 'utf8', maxBuffer: 1 << 20 });
  const out = {};
  for (const line of txt.trim().split('\n')) {
    const r = JSON.parse(line);
    out[r.name] = r;
  }
  return out;
}

const d = await duck();
const o = ours();
const fmt = (x, w) => String(x).padStart(w);
console.log(`${probe} probe rows x ${build} build rows (int64 keys); DuckDB threads=2; fastest of ${reps} runs`);
console.log('wall: elapsed time; cpu: user + system time of the process (all threads), less sensitive to a busy machine');
console.log(['case'.padEnd(28), fmt('duckdb ms', 10), fmt('ours ms', 9), fmt('ours/duck', 10),
  fmt('duck cpu', 9), fmt('ours cpu', 9), fmt('cpu ratio', 10), 'answers (count, sum)'].join(' '));
for (const [name] of cases) {
  const same = d[name].count === String(o[name].count) && d[name].sum === String(o[name].sum);
  console.log([name.padEnd(28), fmt(d[name].ms.toFixed(1), 10), fmt(o[name].ms.toFixed(1), 9),
    fmt((o[name].ms / d[name].ms).toFixed(2) + 'x', 10),
    fmt(d[name].cpu_ms.toFixed(1), 9), fmt(o[name].cpu_ms.toFixed(1), 9), fmt((o[name].cpu_ms / d[name].cpu_ms).toFixed(2) + 'x', 10),
    same ? `agree (${o[name].count}, ${o[name].sum})` : `DIFFER: duckdb (${d[name].count}, ${d[name].sum}) ours (${o[name].count}, ${o[name].sum})`].join(' '));
}
