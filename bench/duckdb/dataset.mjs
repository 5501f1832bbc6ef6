// Datasets: DuckDB (2 threads) against alkaid-go's dataset package on the
// same files. Usage, from this directory: npm ci && node dataset.mjs [rows]
// DuckDB writes the rows (id, x uniform in [0, 1e6), f double) as snappy
// Parquet under year=2023..2024/month=1..10 (20 files) and times three
// queries over read_parquet(..., hive_partitioning = true); then ds/main.go
// (GOMAXPROCS=2) times the same scans, and the results are compared.
// Times are the fastest of three runs, in milliseconds.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const rows = Number(process.argv[2] ?? 10_000_000);
const reps = 3;
const here = path.dirname(fileURLToPath(import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alkaid-ds-'));
const data = path.join(dir, 'sales');
const src = `read_parquet('${data}/**/*.parquet', hive_partitioning = true)`;

const cases = [
  ['full scan: count, sum(f)', `SELECT count(*), sum(f) FROM ${src}`],
  ['partition filter: count, sum(f)', `SELECT count(*), sum(f) FROM ${src} WHERE year = 2024 AND month = 3`],
  ['x < 100000: sum(f) by month', `SELECT month, count(*), sum(f) FROM ${src} WHERE x < 100000 GROUP BY month ORDER BY month`],
];

async function duck() {
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  const con = await db.connect();
  await con.run(`COPY (SELECT i AS id, (i * 2654435761) % 4294967291 % 1000000 AS x,
      ((i * 7919) % 100000) / 7.0 AS f, 2023 + i % 2 AS year, 1 + (i // 2) % 10 AS month
    FROM range(${rows}) r(i)) TO '${data}' (FORMAT parquet, COMPRESSION snappy, PARTITION_BY (year, month))`);
  const out = {};
  for (const [name, sql] of cases) {
    let best = Infinity;
    let rs;
    for (let k = 0; k < reps; k++) {
      const t0 = process.hrtime.bigint();
      rs = await con.runAndReadAll(sql);
      best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const rowsOut = rs.getRows();
    const res = rowsOut.length === 1
      ? { count: Number(rowsOut[0][0]), sum: Number(rowsOut[0][1]) }
      : { count: rowsOut.reduce((a, r) => a + Number(r[1]), 0), sum: rowsOut.reduce((a, r) => a + Number(r[2]), 0) };
    out[name] = { ms: best, result: res };
  }
  return out;
}

function ours() {
  const txt = execFileSync('go', ['run', './duckdb/ds', '-dir', data, '-reps', String(reps)],
    { cwd: path.join(here, '..'), encoding: 'utf8', maxBuffer: 1 << 20, env: { ...process.env, GOMAXPROCS: '2' } });
  const out = {};
  for (const line of txt.trim().split('\n')) {
    const r = JSON.parse(line);
    out[r.name] = r;
  }
  return out;
}

try {
  const d = await duck();
  const o = ours();
  const fmt = (x, w) => String(x).padStart(w);
  console.log(`${rows} rows in 20 snappy files; DuckDB threads=2, ours GOMAXPROCS=2; times are the fastest of ${reps} runs`);
  console.log(['case'.padEnd(32), fmt('duckdb ms', 10), fmt('ours ms', 9), fmt('ours/duck', 10), ' same result'].join(' '));
  for (const [name] of cases) {
    const same = d[name].result.count === o[name].result.count &&
      Math.abs(d[name].result.sum - o[name].result.sum) <= 1e-9 * Math.abs(d[name].result.sum);
    console.log([name.padEnd(32), fmt(d[name].ms.toFixed(1), 10), fmt(o[name].ms.toFixed(1), 9),
      fmt((o[name].ms / d[name].ms).toFixed(2) + 'x', 10), same ? ' yes' : ` NO (duckdb ${JSON.stringify(d[name].result)}, ours ${JSON.stringify(o[name].result)})`].join(' '));
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
