// The independent Parquet readers of Alkaid's interop tests, driven by
// interop/parquet_indep_test.go.
//
//   node parquet.mjs read PATH...    read each file with hyparquet; print
//                                    {path: {"columns": {name: [rows]}}}
//                                    or {path: {"error": message}}
//   node parquet.mjs duckdb-read PATH...
//                                    the same with DuckDB (read_parquet)
//   node parquet.mjs wasm-read PATH...
//                                    the same with parquet-wasm (arrow-rs's
//                                    reader in WebAssembly, its node build:
//                                    the wasm loads from node_modules), its
//                                    Arrow result decoded by apache-arrow
//   node parquet.mjs wasm-write JOBS
//                                    write Parquet files with parquet-wasm
//                                    from Arrow IPC streams, as the JSON
//                                    file JOBS lists (see wasmWrite)
//   node parquet.mjs duckdb-write DIR
//                                    write DIR/duckdb.parquet with DuckDB
//                                    (COPY ... TO) and print its name
//   node parquet.mjs duckdb-bloom PATH COLUMN VALUE...
//                                    probe the bloom filters of COLUMN
//                                    (integers) for each VALUE; print
//                                    {value: [excluded per row group]}
//
// Values are canonical, matching interop/parquet_indep_test.go: null;
// booleans; integers, decimals (unscaled), dates (days), times and
// timestamps (nanoseconds, INT96 included) as base-10 strings; floats as
// numbers, NaN and infinities as "NaN", "Infinity", "-Infinity"; strings
// as strings; other byte arrays (UUIDs included) as lowercase hex; lists
// as arrays; structs as arrays of their fields in schema order; maps as
// arrays of [key as hyparquet gives it, value].
//
// hyparquet turns decimals into floating-point numbers, so the DECIMAL
// annotation is taken off the leaves before reading and the unscaled
// integer is decoded here. parquet-wasm's values are read from the Arrow
// buffers apache-arrow decoded, in arrowcanon.mjs's 'parquet' form, as
// peer.mjs reads IPC files; Arrow types Parquet files restore through
// their stored schema get the forms of interop/parquet_indep_test.go's
// pqCanon: dates of milliseconds as days, durations as their count,
// intervals as arrays of components, float16 as numbers, dictionaries as
// their values.

import { readFileSync, writeFileSync } from 'node:fs';
import { parquetMetadata, parquetReadObjects, parquetSchema } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { tableFromIPC } from 'apache-arrow';
import { canonVector, hex } from './arrowcanon.mjs';

const parsers = {
  timestampFromMilliseconds: (v) => String(BigInt(v) * 1000000n),
  timestampFromMicroseconds: (v) => String(BigInt(v) * 1000n),
  timestampFromNanoseconds: (v) => String(BigInt(v)),
  dateFromDays: (v) => String(v),
  stringFromBytes: (b) => b && new TextDecoder().decode(b),
  jsonFromBytes: (b) => b && new TextDecoder().decode(b),
  geometryFromBytes: (b) => b && hex(b),
  geographyFromBytes: (b) => b && hex(b),
  uuidFromBytes: (b) => b && hex(b),
};

function signedBE(bytes) {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  if (bytes.length && bytes[0] & 0x80) v -= 1n << BigInt(8 * bytes.length);
  return v;
}

function isDecimal(e) {
  return e.__decimal === true;
}

function timeFactor(e) {
  const lt = e.logical_type;
  if (lt?.type === 'TIME') return { MILLIS: 1000000n, MICROS: 1000n, NANOS: 1n }[lt.unit];
  if (e.converted_type === 'TIME_MILLIS') return 1000000n;
  if (e.converted_type === 'TIME_MICROS') return 1000n;
  return 0n;
}

function leaf(v, e) {
  if (v === null || v === undefined) return null;
  if (isDecimal(e)) {
    if (v instanceof Uint8Array) return String(signedBE(v));
    return String(BigInt(v));
  }
  const tf = timeFactor(e);
  if (tf) return String(BigInt(v) * tf);
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean' || typeof v === 'string') return v;
  if (v instanceof Uint8Array) return hex(v);
  if (typeof v === 'number') {
    if (e.type === 'INT32' || e.type === 'INT64') return String(v);
    if (Number.isNaN(v)) return 'NaN';
    if (v === Infinity) return 'Infinity';
    if (v === -Infinity) return '-Infinity';
    return v;
  }
  throw new Error(`no canonical form for ${e.name}: ${typeof v} ${v?.constructor?.name}`);
}

// canon is value v of schema node n, repetition already handled by the caller
// when inner is set.
function canon(v, n, inner = false) {
  if (v === null || v === undefined) return null;
  const e = n.element;
  if (!inner && e.repetition_type === 'REPEATED') {
    return Array.from(v, (x) => canon(x, n, true));
  }
  if (!n.children.length) return leaf(v, e);
  const ct = e.converted_type;
  const lt = e.logical_type?.type;
  if ((ct === 'MAP' || ct === 'MAP_KEY_VALUE' || lt === 'MAP') && n.children.length === 1) {
    const kv = n.children[0];
    const vn = kv.children[1];
    if (!(v instanceof Object) || Array.isArray(v)) throw new Error(`map ${e.name} is not an object`);
    return Object.entries(v).map(([k, x]) => [k, canon(x, vn, true)]);
  }
  if ((ct === 'LIST' || lt === 'LIST') && n.children.length === 1) {
    const rep = n.children[0];
    const elem = rep.children.length === 1 && rep.element.name !== 'array' && !rep.element.name.endsWith('_tuple') ? rep.children[0] : rep;
    return Array.from(v, (x) => canon(x, elem, true));
  }
  return n.children.map((c) => canon(v[c.element.name], c));
}

async function read(path) {
  const buf = readFileSync(path);
  const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  const metadata = parquetMetadata(file);
  for (const e of metadata.schema) {
    if (e.converted_type === 'DECIMAL' || e.logical_type?.type === 'DECIMAL') {
      delete e.converted_type;
      delete e.logical_type;
      e.__decimal = true;
    }
  }
  const root = parquetSchema(metadata);
  const rows = await parquetReadObjects({ file, metadata, parsers, compressors, utf8: false });
  const columns = {};
  for (const c of root.children) {
    columns[c.element.name] = rows.map((r) => canon(r[c.element.name], c));
  }
  return { columns };
}

// duck is DuckDB value v of type ty in the canonical form (maps as
// [key, value] pairs in order, keys canonical too).
function duck(v, ty) {
  if (v === null || v === undefined) return null;
  const id = ty.typeId;
  if (id === 10 || id === 11) return leaf(v, { type: 'FLOAT' });
  if (typeof v === 'bigint' || typeof v === 'number') return String(v);
  if (typeof v === 'boolean' || typeof v === 'string') return v;
  if (ty.entryNames) return ty.entryNames.map((n, k) => duck(v.entries[n], ty.entryTypes[k]));
  if (ty.keyType) return v.entries.map((e) => [String(duck(e.key, ty.keyType)), duck(e.value, ty.valueType)]);
  if (ty.valueType) return v.items.map((x) => duck(x, ty.valueType));
  const c = v.constructor.name;
  if (c === 'DuckDBDecimalValue') return String(v.value);
  if (c === 'DuckDBBlobValue') return hex(v.bytes);
  if (c === 'DuckDBUUIDValue') return v.toString().replaceAll('-', '');
  if (c === 'DuckDBDateValue') return String(v.days);
  if ('micros' in v && (c.startsWith('DuckDBTime'))) return String(BigInt(v.micros) * 1000n);
  if ('nanos' in v) return String(v.nanos);
  if ('millis' in v) return String(BigInt(v.millis) * 1000000n);
  if ('seconds' in v) return String(BigInt(v.seconds) * 1000000000n);
  throw new Error(`no canonical form for DuckDB ${c} of ${ty}`);
}

let duckdbConnection;
async function duckdbRead(path) {
  if (!duckdbConnection) {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    duckdbConnection = await (await DuckDBInstance.create(':memory:')).connect();
  }
  const r = await duckdbConnection.runAndReadAll(`SELECT * FROM read_parquet('${path.replaceAll("'", "''")}')`);
  const names = r.columnNames();
  const types = r.columnTypes();
  const cols = r.getColumns();
  const columns = {};
  names.forEach((n, k) => { columns[n] = (cols[k] ?? []).map((v) => duck(v, types[k])); });
  return { columns };
}

async function duckdbWrite(dir) {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  const path = `${dir}/duckdb.parquet`;
  await con.run(`COPY (
    SELECT i::INTEGER AS i32, (i * 1000000007)::BIGINT AS i64, (i % 100)::TINYINT AS i8, i::USMALLINT AS u16,
      (i * 4000000000)::UBIGINT AS u64,
      CASE WHEN i % 5 = 0 THEN NULL ELSE i / 7.0 END::DOUBLE AS f64, (i / 3.0)::FLOAT AS f32,
      (i * 12.345)::DECIMAL(9, 3) AS d9, (i * -98765.4321)::DECIMAL(18, 4) AS d18,
      (i * 123456789012345.678)::DECIMAL(38, 3) AS d38,
      'row ' || i AS s, ('\\x' || lpad(to_hex(i), 2, '0'))::BLOB AS b, i % 2 = 0 AS flag,
      DATE '2000-01-01' + i::INTEGER AS dt, TIMESTAMP '2020-02-29 12:34:56.789' + to_microseconds(i * 1001) AS ts,
      TIMESTAMPTZ '2020-02-29 12:34:56+00' + to_seconds(i) AS tstz, TIME '01:02:03' + to_microseconds(i) AS tm,
      CASE WHEN i % 4 = 0 THEN NULL ELSE range(i % 4)::INTEGER[] END AS ints,
      {'a': i, 'b': 'x' || i, 'c': [i::DOUBLE, NULL]} AS st,
      MAP(['k' || i, 'z'], [i, NULL]::BIGINT[]) AS m,
      [{'p': i, 'q': ['u', NULL]}, NULL] AS lst,
      gen_random_uuid() AS uuid
    FROM range(0, 300) t(i)
  ) TO '${path}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 128)`);
  return path;
}

// The parquet-wasm reader: arrow-rs's Parquet reader compiled to
// WebAssembly, whose Arrow result leaves WebAssembly memory as an IPC
// stream that apache-arrow decodes; arrowcanon.mjs turns the decoded
// buffers into the canonical form.
let parquetWasm;
async function wasmRead(path) {
  parquetWasm ??= await import('parquet-wasm');
  const ipc = parquetWasm.readParquet(new Uint8Array(readFileSync(path))).intoIPCStream();
  const table = tableFromIPC(ipc);
  const columns = {};
  table.schema.fields.forEach((f, c) => {
    const vec = table.getChildAt(c);
    const rows = [];
    for (let i = 0; i < vec.length; i++) rows.push(canonVector(vec, i, 'parquet'));
    columns[f.name] = rows;
  });
  return { columns };
}

// wasmWrite has parquet-wasm write each job of the JSON file jobs:
// [{"in": IPC stream, "out": Parquet file, "compression": a name of its
// Compression enum, "v2": data pages v2, "dictionary": on or off}]; it
// gives {out: {} or {"error": message}}.
async function wasmWrite(jobs) {
  parquetWasm ??= await import('parquet-wasm');
  const { Table: WasmTable, WriterPropertiesBuilder, Compression, WriterVersion, writeParquet } = parquetWasm;
  const out = {};
  for (const j of JSON.parse(readFileSync(jobs, 'utf8'))) {
    try {
      const props = new WriterPropertiesBuilder()
        .setCompression(Compression[j.compression])
        .setWriterVersion(j.v2 ? WriterVersion.V2 : WriterVersion.V1)
        .setDictionaryEnabled(j.dictionary)
        .setMaxRowGroupSize(64)
        .setDataPageSizeLimit(512)
        .build();
      writeFileSync(j.out, writeParquet(WasmTable.fromIPCStream(new Uint8Array(readFileSync(j.in))), props));
      out[j.out] = {};
    } catch (err) {
      out[j.out] = { error: String(err?.message ?? err) };
    }
  }
  return out;
}

const readers = { read, 'duckdb-read': duckdbRead, 'wasm-read': wasmRead };

const [cmd, ...args] = process.argv.slice(2);
if (readers[cmd]) {
  const out = {};
  for (const p of args) {
    try {
      out[p] = await readers[cmd](p);
    } catch (err) {
      out[p] = { error: String(err?.message ?? err) };
    }
  }
  process.stdout.write(JSON.stringify(out));
} else if (cmd === 'duckdb-bloom') {
  const [path, column, ...values] = args;
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const con = await (await DuckDBInstance.create(':memory:')).connect();
  const out = {};
  for (const v of values) {
    const r = await con.runAndReadAll(
      `SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe('${path.replaceAll("'", "''")}', '${column}', ${BigInt(v)}) ORDER BY row_group_id`);
    out[v] = r.getRowObjects().map((o) => o.bloom_filter_excludes);
  }
  console.log(JSON.stringify(out));
} else if (cmd === 'wasm-write') {
  process.stdout.write(JSON.stringify(await wasmWrite(args[0])));
} else if (cmd === 'duckdb-write') {
  process.stdout.write(await duckdbWrite(args[0]));
} else {
  console.error('usage: node parquet.mjs read PATH... | duckdb-read PATH... | wasm-read PATH... | wasm-write JOBS | duckdb-write DIR | duckdb-bloom PATH COLUMN VALUE...');
  process.exit(2);
}
