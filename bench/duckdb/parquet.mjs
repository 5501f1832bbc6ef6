// Parquet: DuckDB (2 threads) against alkaid-go on the same 1M-row table
// (int64, float64, utf8 of 8-31 bytes, bool, list<int32>; 5% nulls in
// each column). Usage, from this directory: npm ci && node parquet.mjs [rows]
// DuckDB builds the table, writes it with snappy and with zstd and reads
// its files back; then pq/main.go reads DuckDB's snappy file into memory
// and times our writer and reader on those rows the same way. Times are
// the fastest of three runs, in milliseconds.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const rows = Number(process.argv[2] ?? 1_000_000);
const reps = 3;
const here = path.dirname(fileURLToPath(import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alkaid-pq-'));

const setup = `CREATE TABLE t AS SELECT
    CASE WHEN i % 20 = 0 THEN NULL ELSE (i * 2654435761) % 4294967291 END AS i64,
    CASE WHEN i % 20 = 1 THEN NULL ELSE ((i * 7919) % 100000) / 7.0 END AS f64,
    CASE WHEN i % 20 = 2 THEN NULL ELSE substr(md5(i::VARCHAR), 1, 8 + (i % 24)::INTEGER) END AS str,
    CASE WHEN i % 20 = 3 THEN NULL ELSE i % 3 = 0 END AS b,
    CASE WHEN i % 20 = 4 THEN NULL ELSE list_transform(range(i % 5), x -> ((x * i) % 1000)::INTEGER) END AS l
  FROM range(${rows}) r(i)`;

async function time(con, sql) {
  let best = Infinity;
  for (let k = 0; k < reps; k++) {
    const t0 = process.hrtime.bigint();
    await con.run(sql);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return best;
}

async function duck() {
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  const con = await db.connect();
  await con.run(setup);
  const out = {};
  for (const codec of ['snappy', 'zstd']) {
    const file = path.join(dir, `duckdb-${codec}.parquet`);
    out[`write ${codec}`] = await time(con,
      `COPY t TO '${file}' (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE 1048576)`);
    out[`read ${codec}`] = await time(con,
      `CREATE OR REPLACE TEMP TABLE r AS SELECT * FROM read_parquet('${file}')`);
  }
  return out;
}

function ours() {
  const txt = execFileSync('go', ['run', './duckdb/pq', '-in', path.join(dir, 'duckdb-snappy.parquet'), '-reps', String(reps)],
    { cwd: path.join(here, '..'), encoding: 'utf8', maxBuffer: 1 << 20 });
  const out = {};
  for (const line of txt.trim().split('\n')) {
    const r = JSON.parse(line);
    out[r.name] = r.ms;
  }
  return out;
}

try {
  const d = await duck();
  const o = ours();
  const fmt = (x, w) => String(x).padStart(w);
  console.log(`${rows} rows; DuckDB threads=2; times are the fastest of ${reps} runs`);
  console.log(['case'.padEnd(14), fmt('duckdb ms', 10), fmt('ours ms', 9), fmt('ours/duck', 10)].join(' '));
  for (const name of ['write snappy', 'write zstd', 'read snappy', 'read zstd']) {
    console.log([name.padEnd(14), fmt(d[name].toFixed(1), 10), fmt(o[name].toFixed(1), 9),
      fmt((o[name] / d[name]).toFixed(2) + 'x', 10)].join(' '));
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
