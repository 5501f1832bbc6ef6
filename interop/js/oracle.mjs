// DuckDB as the oracle of Alkaid's compute tests, driven by
// interop/compute_duckdb_test.go.
//
//   node oracle.mjs < REQUEST
//
// REQUEST is JSON {"parquet": PATH, "queries": [SQL...]}: the file is
// the view t, each query runs over it, and the answer is a JSON array
// with one {"rows": [[value...]...]} or {"error": message} per query.
// Values: null; booleans; strings; integers (hugeints too) as base-10
// strings; floats as strings JavaScript's String gives ("-0", "NaN",
// "Infinity", "1e+21"); decimals as "UNSCALED@SCALE".

import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

function value(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (v.constructor.name === 'DuckDBDecimalValue') return `${v.value}@${v.scale}`;
  if (typeof v.toString === 'function') return v.toString();
  throw new Error(`no form for ${v.constructor.name}`);
}

const req = JSON.parse(readFileSync(0, 'utf8'));
const con = await (await DuckDBInstance.create(':memory:')).connect();
await con.run(`CREATE VIEW t AS SELECT * FROM read_parquet('${req.parquet.replaceAll("'", "''")}')`);
const out = [];
for (const q of req.queries) {
  try {
    const r = await con.runAndReadAll(q);
    out.push({ rows: r.getRows().map((row) => row.map(value)) });
  } catch (e) {
    out.push({ error: String(e.message ?? e) });
  }
}
process.stdout.write(JSON.stringify(out));
