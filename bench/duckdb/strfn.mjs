// String functions: DuckDB (2 threads) against alkaid-go's package expr
// on the same strings. Usage, from this directory:
// npm ci && node strfn.mjs [rows]
// Prints, per case, both times (the fastest of three runs), the ratio and
// the rows each side counted (they must agree).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const rows = Number(process.argv[2] ?? 1_000_000);
const reps = 3;
const here = path.dirname(fileURLToPath(import.meta.url));

// The same strings as strfn/main.go.
const setup = `CREATE TABLE t AS SELECT
    ['Hello World', 'ÄÖÜ straße', 'banana split', 'emoji 🎉 party', 'MiXeD cAsE text'][(i * 31) % 7 % 5 + 1]
      || ' ' || i AS s
  FROM range(${rows}) r(i)`;

// name, the timed SQL, the SQL counting the rows (compared with ours).
const cases = [
  ['lower, materialised', 'CREATE OR REPLACE TEMP TABLE r AS SELECT lower(s) AS l FROM t', 'SELECT count(lower(s)) FROM t'],
  ['contains, count', "SELECT count(*) FROM t WHERE contains(s, 'an')", "SELECT count(*) FROM t WHERE contains(s, 'an')"],
  ['regexp_matches, count', "SELECT count(*) FROM t WHERE regexp_matches(s, '[0-9]{3}$')",
    "SELECT count(*) FROM t WHERE regexp_matches(s, '[0-9]{3}$')"],
];

async function duck() {
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  const con = await db.connect();
  await con.run(setup);
  const out = {};
  for (const [name, sql, count] of cases) {
    let best = Infinity;
    for (let k = 0; k < reps; k++) {
      const t0 = process.hrtime.bigint();
      await con.run(sql);
      best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const r = await con.runAndReadAll(count);
    out[name] = { ms: best, rows: Number(r.getRows()[0][0]) };
  }
  return out;
}

function ours() {
  const txt = execFileSync('go', ['run', './duckdb/strfn', '-rows', String(rows), '-reps', String(reps)],
    { cwd: path.join(here, '..'), encoding: 'utf8', maxBuffer: 1 << 20 });
  const out = {};
  for (const line of txt.trim().split('\n')) {
    const r = JSON.parse(line);
    out[r.name] = { ms: r.ms, rows: r.rows };
  }
  return out;
}

const d = await duck();
const o = ours();
const fmt = (x, w) => String(x).padStart(w);
console.log(`${rows} strings; DuckDB threads=2, ours 2 goroutines; times are the fastest of ${reps} runs`);
console.log(['case'.padEnd(24), fmt('duckdb ms', 10), fmt('ours ms', 9), fmt('ours/duck', 10), fmt('rows duck', 10), fmt('rows ours', 10)].join(' '));
for (const [name] of cases) {
  console.log([name.padEnd(24), fmt(d[name].ms.toFixed(1), 10), fmt(o[name].ms.toFixed(1), 9),
    fmt((o[name].ms / d[name].ms).toFixed(2) + 'x', 10), fmt(d[name].rows, 10), fmt(o[name].rows, 10)].join(' '));
}
