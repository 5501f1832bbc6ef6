// year, month and floor to the month of 10M timestamps in a time zone:
// DuckDB (2 threads) against alkaid-go's package expr and arrow-go (its
// floor_temporal; it has no year or month kernel), on the same instants.
// Usage, from this directory: npm ci && node timefn.mjs [rows]
// Prints, per case, the times (the fastest of three runs), the ratios and
// the sums each side computed (they must agree).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const rows = Number(process.argv[2] ?? 10_000_000);
const reps = 3;
const here = path.dirname(fileURLToPath(import.meta.url));

// The same instants as timefn/main.go.
const setup = `CREATE TABLE tt AS SELECT
    timezone('UTC', make_timestamp(946684800000000 + ((i * 2654435761) % 946080000) * 1000000 + i % 1000000)) AS t
  FROM range(${rows}) r(i)`;

const cases = [
  ['year of 10M timestamps in a zone', `SELECT sum(year(t))::BIGINT FROM tt`],
  ['month of 10M timestamps in a zone', `SELECT sum(month(t))::BIGINT FROM tt`],
  ['floor to the month in a zone', `SELECT sum(epoch(date_trunc('month', t))::BIGINT)::BIGINT FROM tt`],
];

async function duck() {
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  const con = await db.connect();
  await con.run(`SET TimeZone = 'America/New_York'`);
  await con.run(setup);
  const out = {};
  for (const [name, sql] of cases) {
    let best = Infinity;
    let sum;
    for (let k = 0; k < reps; k++) {
      const t0 = process.hrtime.bigint();
      const r = await con.runAndReadAll(sql);
      best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
      sum = String(r.getRows()[0][0]);
    }
    out[name] = { ms: best, sum };
  }
  return out;
}

function go() {
  const txt = execFileSync('go', ['run', './duckdb/timefn', '-rows', String(rows), '-reps', String(reps)],
    { cwd: path.join(here, '..'), encoding: 'utf8', maxBuffer: 1 << 20 });
  const out = { ours: {}, 'arrow-go': {} };
  for (const line of txt.trim().split('\n')) {
    const r = JSON.parse(line);
    out[r.side][r.name] = { ms: r.ms, sum: String(r.sum) };
  }
  return out;
}

const d = await duck();
const g = go();
const fmt = (x, w) => String(x).padStart(w);
const ms = (x) => (x ? x.ms.toFixed(1) : '-');
console.log(`${rows} rows; DuckDB threads=2, ours and arrow-go 2 goroutines; times are the fastest of ${reps} runs`);
console.log(['case'.padEnd(36), fmt('duckdb ms', 10), fmt('ours ms', 9), fmt('arrow-go ms', 12),
  fmt('ours/duck', 10), fmt('arrow/ours', 11)].join(' '));
for (const [name] of cases) {
  const o = g.ours[name], a = g['arrow-go'][name], k = d[name];
  console.log([name.padEnd(36), fmt(ms(k), 10), fmt(ms(o), 9), fmt(ms(a), 12),
    fmt((o.ms / k.ms).toFixed(2) + 'x', 10), fmt(a ? (a.ms / o.ms).toFixed(2) + 'x' : '-', 11)].join(' '));
  const sums = [`duckdb ${k.sum}`, `ours ${o.sum}`].concat(a ? [`arrow-go ${a.sum}`] : []);
  console.log(`  sums: ${sums.join(', ')}`);
}
