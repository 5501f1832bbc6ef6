// dataset.mjs drives DuckDB (@duckdb/node-api) for the dataset interop
// tests (dataset_duckdb_test.go):
//
//   node dataset.mjs write DIR   write a Hive-partitioned dataset under DIR with
//                                COPY ... (FORMAT parquet, PARTITION_BY (year, city))
//                                and print DuckDB's reading of it
//   node dataset.mjs read DIR    print DuckDB's reading of the dataset under DIR
//                                (read_parquet('DIR/**/*.parquet', hive_partitioning = true))
//
// A reading is JSON {"types": {column: DuckDB type}, "columns": {column:
// [value...]}}, rows ordered by id; integers are base-10 strings, floats
// numbers, dates day counts as strings, nulls null.
import process from 'node:process';

const { DuckDBInstance } = await import('@duckdb/node-api');
const con = await (await DuckDBInstance.create(':memory:')).connect();

function value(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return v;
  if ('days' in v) return String(v.days);
  throw new Error(`no JSON form for ${v.constructor.name}`);
}

async function read(dir) {
  const q = (s) => s.replaceAll("'", "''");
  const r = await con.runAndReadAll(
    `SELECT * FROM read_parquet('${q(dir)}/**/*.parquet', hive_partitioning = true) ORDER BY id`);
  const names = r.columnNames();
  const types = r.columnTypes();
  const cols = r.getColumns();
  const out = { types: {}, columns: {} };
  names.forEach((n, k) => {
    out.types[n] = String(types[k]);
    out.columns[n] = (cols[k] ?? []).map(value);
  });
  return out;
}

const [cmd, dir] = process.argv.slice(2);
if (cmd === 'write') {
  await con.run(`COPY (
    SELECT i::BIGINT AS id,
      CASE WHEN i % 7 = 0 THEN NULL ELSE 2020 + i % 3 END::INTEGER AS year,
      (['Oslo', 'New York', 'a/b', 'x=y', 'caf\u00e9'])[1 + i % 5] AS city,
      CASE WHEN i % 11 = 0 THEN NULL ELSE i * 0.25 END::DOUBLE AS amount,
      'row ' || i AS note, DATE '2024-01-01' + i::INTEGER AS day
    FROM range(200) t(i)
  ) TO '${dir.replaceAll("'", "''")}' (FORMAT parquet, PARTITION_BY (year, city))`);
  console.log(JSON.stringify(await read(dir)));
} else if (cmd === 'read') {
  console.log(JSON.stringify(await read(dir)));
} else {
  console.error('usage: node dataset.mjs write|read DIR');
  process.exit(2);
}
