// Group-by and sort: DuckDB (2 threads) against alkaid-go on the same
// rows. Usage, from this directory: npm ci && node run.mjs [rows]
// Prints, per case, both times (the fastest of three runs), the ratio,
// rows per second and each side's time over one pass over its data.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const rows = Number(process.argv[2] ?? 10_000_000);
const reps = 3;
const here = path.dirname(fileURLToPath(import.meta.url));

// The same columns as ours/main.go.
const setup = `CREATE TABLE t AS SELECT
    (i * 2654435761) % 4294967291 % 1000 AS k1k,
    (i * 2654435761) % 4294967291 % 1000000 AS k1m,
    (i * 7919) % 1000 AS v,
    (i * 2654435761) % 4294967291 * 1000003 AS x
  FROM range(${rows}) r(i)`;

const cases = [
  ['one pass (sum of two columns)', 'SELECT sum(k1k), sum(v) FROM t'],
  ['group by, 1k groups', 'CREATE OR REPLACE TEMP TABLE r AS SELECT k1k, sum(v), count(v), avg(v) FROM t GROUP BY k1k'],
  ['group by, 1M groups', 'CREATE OR REPLACE TEMP TABLE r AS SELECT k1m, sum(v), count(v), avg(v) FROM t GROUP BY k1m'],
  ['sort 10M int64 into a table', 'CREATE OR REPLACE TEMP TABLE s AS SELECT x FROM t ORDER BY x'],
];

async function duck() {
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  const con = await db.connect();
  await con.run(setup);
  const out = {};
  for (const [name, sql] of cases) {
    let best = Infinity;
    for (let k = 0; k < reps; k++) {
      const t0 = process.hrtime.bigint();
      await con.run(sql);
      best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
    }
    out[name] = best;
  }
  return out;
}

function ours() {
  const txt = execFileSync('go', ['run', './duckdb/ours', '-rows', String(rows), '-reps', String(reps)],
    { cwd: path.join(here, '..'), encoding: 'utf8', maxBuffer: 1 << 20 });
  const out = {};
  for (const line of txt.trim().split('\n')) {
    const r = JSON.parse(line);
    out[r.name] = r.ms;
  }
  return out;
}

const d = await duck();
const o = ours();
const pass = 'one pass (sum of two columns)';
const fmt = (x, w) => String(x).padStart(w);
console.log(`${rows} rows; DuckDB ${'threads=2'}; times are the fastest of ${reps} runs`);
console.log(['case'.padEnd(30), fmt('duckdb ms', 10), fmt('ours ms', 9), fmt('ours/duck', 10),
  fmt('ours Mrows/s', 13), fmt('duck/pass', 10), fmt('ours/pass', 10)].join(' '));
for (const [name] of cases) {
  const row = [name.padEnd(30), fmt(d[name].toFixed(1), 10), fmt(o[name].toFixed(1), 9),
    fmt((o[name] / d[name]).toFixed(2) + 'x', 10), fmt((rows / o[name] / 1e3).toFixed(1), 13),
    fmt((d[name] / d[pass]).toFixed(1) + 'x', 10), fmt((o[name] / o[pass]).toFixed(1) + 'x', 10)];
  console.log(row.join(' '));
}
