// A filter of four predicates: DuckDB (2 threads) against alkaid-go's
// package expr on the same rows. Usage, from this directory:
// npm ci && node filter.mjs [rows]
// Prints, per case, both times (the fastest of three runs), the ratio and
// the rows each side kept (they must agree).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const rows = Number(process.argv[2] ?? 10_000_000);
const reps = 3;
const here = path.dirname(fileURLToPath(import.meta.url));

// The same columns as filter/main.go.
const setup = `CREATE TABLE t AS SELECT
    (i * 2654435761) % 4294967291 % 1000 AS a,
    ((i * 7919) % 1000) / 1000.0 AS b,
    ['x', 'y', 'z', 'w'][(i * 31) % 7 % 4 + 1] AS s,
    CASE WHEN i % 10 = 0 THEN NULL ELSE i END AS c
  FROM range(${rows}) r(i)`;
const where = `a > 100 AND b < 0.5 AND s IN ('x', 'y') AND c IS NOT NULL`;

const cases = [
  ['filter of 4 predicates, count', `SELECT count(*) FROM t WHERE ${where}`],
  ['filter of 4 predicates, rows kept', `CREATE OR REPLACE TEMP TABLE r AS SELECT * FROM t WHERE ${where}`],
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
  const kept = await con.runAndReadAll(`SELECT count(*) FROM t WHERE ${where}`);
  out.rows = Number(kept.getRows()[0][0]);
  return out;
}

function ours() {
  const txt = execFileSync('go', ['run', './duckdb/filter', '-rows', String(rows), '-reps', String(reps)],
    { cwd: path.join(here, '..'), encoding: 'utf8', maxBuffer: 1 << 20 });
  const out = {};
  for (const line of txt.trim().split('\n')) {
    const r = JSON.parse(line);
    out[r.name] = r.ms;
    out.rows = r.rows;
  }
  return out;
}

const d = await duck();
const o = ours();
const fmt = (x, w) => String(x).padStart(w);
console.log(`${rows} rows; DuckDB threads=2, ours 2 goroutines; times are the fastest of ${reps} runs`);
console.log(`rows kept: DuckDB ${d.rows}, ours ${o.rows}`);
console.log(['case'.padEnd(36), fmt('duckdb ms', 10), fmt('ours ms', 9), fmt('ours/duck', 10)].join(' '));
for (const [name] of cases) {
  console.log([name.padEnd(36), fmt(d[name].toFixed(1), 10), fmt(o[name].toFixed(1), 9),
    fmt((o[name] / d[name]).toFixed(2) + 'x', 10)].join(' '));
}
