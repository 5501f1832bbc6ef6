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
// buffers apache-arrow decoded (arrowCanon), as peer.mjs does; Arrow
// types Parquet files restore through their stored schema get the forms
// of interop/parquet_indep_test.go's pqCanon: dates of milliseconds as
// days, durations as their count, intervals as arrays of components,
// float16 as numbers, dictionaries as their values.

import { readFileSync } from 'node:fs';
import { parquetMetadata, parquetReadObjects, parquetSchema } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import {
  Type, Precision, DateUnit, IntervalUnit, makeVector, tableFromIPC,
} from 'apache-arrow';

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

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
// stream that apache-arrow decodes. Values are taken from the buffers
// apache-arrow decoded, not from its Vector.get, which rounds timestamps
// to milliseconds and misreads some decimals (see peer.mjs).

const nanosPer = [1000000000n, 1000000n, 1000n, 1n]; // by apache-arrow TimeUnit

function dataView(buf) {
  return new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
}

// leInt is the little-endian integer of n bytes at byte at of dv, as a
// BigInt.
function leInt(dv, at, n, signed) {
  let v = 0n;
  for (let k = n - 1; k >= 0; k--) v = (v << 8n) | BigInt(dv.getUint8(at + k));
  if (signed && n > 0 && dv.getUint8(at + n - 1) & 0x80) v -= 1n << BigInt(8 * n);
  return v;
}

function half(bits) {
  const s = bits & 0x8000 ? -1 : 1;
  const e = (bits >> 10) & 0x1f;
  const f = bits & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}

const utf8Strict = new TextDecoder('utf-8', { fatal: true });

// arrowCanon is slot i of apache-arrow Data d in the canonical form. The
// data comes from an IPC stream, where no array has an offset.
function arrowCanon(d, i) {
  const t = d.type;
  if (d.offset !== 0) throw new Error(`${t} data with offset ${d.offset}`);
  if (!d.getValid(i)) return null;
  switch (t.typeId) {
    case Type.Null:
      return null;
    case Type.Dictionary: {
      const w = t.indices.bitWidth / 8;
      return arrowVectorCanon(d.dictionary, Number(leInt(dataView(d.values), i * w, w, t.indices.isSigned)));
    }
    case Type.Bool:
      return ((d.values[i >> 3] >> (i & 7)) & 1) === 1;
    case Type.Int:
      return String(leInt(dataView(d.values), i * (t.bitWidth / 8), t.bitWidth / 8, t.isSigned));
    case Type.Float: {
      const dv = dataView(d.values);
      if (t.precision === Precision.HALF) return leaf(half(dv.getUint16(i * 2, true)), { type: 'FLOAT' });
      if (t.precision === Precision.SINGLE) return leaf(dv.getFloat32(i * 4, true), { type: 'FLOAT' });
      return leaf(dv.getFloat64(i * 8, true), { type: 'DOUBLE' });
    }
    case Type.Decimal:
      return String(leInt(dataView(d.values), i * (t.bitWidth / 8), t.bitWidth / 8, true));
    case Type.Date:
      return t.unit === DateUnit.DAY
        ? String(leInt(dataView(d.values), i * 4, 4, true))
        : String(leInt(dataView(d.values), i * 8, 8, true) / 86400000n);
    case Type.Time: {
      const w = t.bitWidth / 8;
      return String(leInt(dataView(d.values), i * w, w, true) * nanosPer[t.unit]);
    }
    case Type.Timestamp:
      return String(leInt(dataView(d.values), i * 8, 8, true) * nanosPer[t.unit]);
    case Type.Duration:
      return String(leInt(dataView(d.values), i * 8, 8, true));
    case Type.Interval: {
      const dv = dataView(d.values);
      if (t.unit === IntervalUnit.YEAR_MONTH) return String(leInt(dv, i * 4, 4, true));
      if (t.unit === IntervalUnit.DAY_TIME) return [String(leInt(dv, i * 8, 4, true)), String(leInt(dv, i * 8 + 4, 4, true))];
      return [String(leInt(dv, i * 16, 4, true)), String(leInt(dv, i * 16 + 4, 4, true)), String(leInt(dv, i * 16 + 8, 8, true))];
    }
    case Type.FixedSizeBinary:
      return hex(d.values.subarray(i * t.byteWidth, (i + 1) * t.byteWidth));
    case Type.Utf8:
    case Type.LargeUtf8:
    case Type.Binary:
    case Type.LargeBinary: {
      const bytes = d.values.subarray(Number(d.valueOffsets[i]), Number(d.valueOffsets[i + 1]));
      return t.typeId === Type.Utf8 || t.typeId === Type.LargeUtf8 ? utf8Strict.decode(bytes) : hex(bytes);
    }
    case Type.Utf8View:
    case Type.BinaryView: {
      const v = makeVector(d).get(i);
      return t.typeId === Type.Utf8View ? v : hex(v);
    }
    case Type.Map: {
      const out = [];
      const kv = d.children[0];
      for (let k = Number(d.valueOffsets[i]); k < Number(d.valueOffsets[i + 1]); k++) {
        const key = arrowCanon(kv.children[0], k);
        out.push([typeof key === 'string' ? key : String(key), arrowCanon(kv.children[1], k)]);
      }
      return out;
    }
    case Type.List:
    case Type.LargeList: {
      const out = [];
      for (let k = Number(d.valueOffsets[i]); k < Number(d.valueOffsets[i + 1]); k++) out.push(arrowCanon(d.children[0], k));
      return out;
    }
    case Type.FixedSizeList: {
      const out = [];
      for (let k = 0; k < t.listSize; k++) out.push(arrowCanon(d.children[0], i * t.listSize + k));
      return out;
    }
    case Type.Struct:
      return d.children.map((c) => arrowCanon(c, i));
  }
  throw new Error(`no canonical form for ${t}`);
}

// arrowVectorCanon is slot i of an apache-arrow Vector, over its chunks.
function arrowVectorCanon(vec, i) {
  for (const d of vec.data) {
    if (i < d.length) return arrowCanon(d, i);
    i -= d.length;
  }
  throw new Error(`slot ${i} beyond the vector`);
}

let parquetWasm;
async function wasmRead(path) {
  parquetWasm ??= await import('parquet-wasm');
  const ipc = parquetWasm.readParquet(new Uint8Array(readFileSync(path))).intoIPCStream();
  const table = tableFromIPC(ipc);
  const columns = {};
  table.schema.fields.forEach((f, c) => {
    const vec = table.getChildAt(c);
    const rows = [];
    for (let i = 0; i < vec.length; i++) rows.push(arrowVectorCanon(vec, i));
    columns[f.name] = rows;
  });
  return { columns };
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
} else if (cmd === 'duckdb-write') {
  process.stdout.write(await duckdbWrite(args[0]));
} else {
  console.error('usage: node parquet.mjs read PATH... | duckdb-read PATH... | wasm-read PATH... | duckdb-write DIR | duckdb-bloom PATH COLUMN VALUE...');
  process.exit(2);
}
