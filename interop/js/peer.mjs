// The apache-arrow (JS) side of Alkaid's interop tests, driven by
// interop/js_test.go.
//
//   node peer.mjs read PATH...          print every batch of each IPC stream
//                                       or file as canonical JSON
//   node peer.mjs write STREAM FILE [EMPTY]
//                                       write a fixed record batch with
//                                       apache-arrow, as a stream and a file
//                                       (and its schema alone, as a file
//                                       without batches, to EMPTY)
//
// read prints one JSON object keyed by path: {"format": "file"|"stream",
// "fields": [{"name", "type", "nullable", "childNames"}], "batches":
// [[column values]]}, where childNames are the nested fields' names depth
// first (apache-arrow gives an empty name as null),
// or {"error": message} when apache-arrow cannot read the path. Values are
// canonical, matching interop/js_test.go: null; booleans; every integer
// (64-bit ones included), decimal (unscaled), date, time, timestamp,
// duration and interval component as a base-10 string; floats as numbers;
// utf8 as strings; binary as lowercase hex; lists as arrays; structs as
// arrays of their fields in order; maps as arrays of [key, value]; unions
// as [type code, value]; dictionaries as their values.
//
// Values are read from the buffers apache-arrow decoded (its Data), so
// what is checked is its IPC reading, not its value accessors: in 21.2.0
// Vector.get converts timestamps to millisecond numbers (rounding, and
// throwing beyond 2^53 ms), prints negative decimal64 values as unsigned
// and returns wrong decimal256 values.

import { readFileSync, writeFileSync } from 'node:fs';
import {
  Type, UnionMode, Precision, DateUnit, IntervalUnit, TimeUnit,
  RecordBatchReader, makeVector, makeData, vectorFromArray, Table, tableToIPC,
  Field, Null, Int32, Int64, Float64, Utf8, Bool, List, Struct, Dictionary,
  TimestampMicrosecond, Decimal, DateDay,
} from 'apache-arrow';

const utf8 = new TextDecoder('utf-8', { fatal: true });

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function view(buf) {
  return new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
}

function isValid(data, j) {
  const bm = data.nullBitmap;
  if (data.nullCount === 0 || !bm || bm.length === 0) return true;
  return ((bm[j >> 3] >> (j & 7)) & 1) === 1;
}

// Signed or unsigned little-endian integer of `bytes` bytes at `at`, as a
// BigInt.
function int(dv, at, bytes, signed) {
  let v = 0n;
  for (let k = bytes - 1; k >= 0; k--) v = (v << 8n) | BigInt(dv.getUint8(at + k));
  if (signed && bytes > 0 && (dv.getUint8(at + bytes - 1) & 0x80)) v -= 1n << BigInt(8 * bytes);
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

// unitBytes is the width of a time, timestamp or duration value.
function timeBytes(type) {
  if (type.typeId === Type.Time) return type.bitWidth / 8;
  return 8;
}

// canon is slot i (logical, counted from data.offset) of data.
function canon(data, i) {
  const t = data.type;
  const j = data.offset + i;
  switch (t.typeId) {
    case Type.Null:
      return null;
    case Type.Union: {
      const code = data.typeIds[j];
      const child = data.children[t.typeIdToChildIndex[code]];
      const at = t.mode === UnionMode.Dense ? data.valueOffsets[j] : i;
      return [String(code), canon(child, at)];
    }
    case Type.Dictionary: {
      if (!isValid(data, j)) return null;
      const idx = Number(int(view(data.values), j * (t.indices.bitWidth / 8), t.indices.bitWidth / 8, t.indices.isSigned));
      return canonVector(data.dictionary, idx);
    }
  }
  if (!isValid(data, j)) return null;
  switch (t.typeId) {
    case Type.Bool:
      return ((data.values[j >> 3] >> (j & 7)) & 1) === 1;
    case Type.Int:
      return String(int(view(data.values), j * (t.bitWidth / 8), t.bitWidth / 8, t.isSigned));
    case Type.Float: {
      const dv = view(data.values);
      if (t.precision === Precision.HALF) return half(dv.getUint16(j * 2, true));
      if (t.precision === Precision.SINGLE) return dv.getFloat32(j * 4, true);
      return dv.getFloat64(j * 8, true);
    }
    case Type.Decimal:
      return String(int(view(data.values), j * (t.bitWidth / 8), t.bitWidth / 8, true));
    case Type.Date:
      return t.unit === DateUnit.DAY
        ? String(int(view(data.values), j * 4, 4, true))
        : String(int(view(data.values), j * 8, 8, true));
    case Type.Time:
    case Type.Timestamp:
    case Type.Duration: {
      const w = timeBytes(t);
      return String(int(view(data.values), j * w, w, true));
    }
    case Type.Interval: {
      const dv = view(data.values);
      if (t.unit === IntervalUnit.YEAR_MONTH) return String(int(dv, j * 4, 4, true));
      if (t.unit === IntervalUnit.DAY_TIME) return [String(int(dv, j * 8, 4, true)), String(int(dv, j * 8 + 4, 4, true))];
      return [String(int(dv, j * 16, 4, true)), String(int(dv, j * 16 + 4, 4, true)), String(int(dv, j * 16 + 8, 8, true))];
    }
    case Type.FixedSizeBinary:
      return hex(data.values.subarray(j * t.byteWidth, (j + 1) * t.byteWidth));
    case Type.Utf8:
    case Type.LargeUtf8:
    case Type.Binary:
    case Type.LargeBinary: {
      const s = Number(data.valueOffsets[j]);
      const e = Number(data.valueOffsets[j + 1]);
      const bytes = data.values.subarray(s, e);
      return t.typeId === Type.Utf8 || t.typeId === Type.LargeUtf8 ? utf8.decode(bytes) : hex(bytes);
    }
    case Type.Utf8View:
    case Type.BinaryView: {
      const v = makeVector(data).get(i);
      return t.typeId === Type.Utf8View ? v : hex(v);
    }
    case Type.List:
    case Type.LargeList:
    case Type.Map: {
      const s = Number(data.valueOffsets[j]);
      const e = Number(data.valueOffsets[j + 1]);
      const out = [];
      for (let k = s; k < e; k++) out.push(canon(data.children[0], k));
      return out;
    }
    case Type.FixedSizeList: {
      const out = [];
      for (let k = 0; k < t.listSize; k++) out.push(canon(data.children[0], j * t.listSize + k));
      return out;
    }
    case Type.Struct:
      return data.children.map((c) => canon(c, j));
  }
  throw new Error(`no canonical form for ${t}`);
}

function canonVector(vec, i) {
  for (const d of vec.data) {
    if (i < d.length) return canon(d, i);
    i -= d.length;
  }
  throw new Error(`index ${i} beyond the dictionary`);
}

// childNames lists the names of a type's nested fields, depth first, as
// apache-arrow read them (a list's child name included, even when empty).
function childNames(type) {
  return (type.children || []).flatMap((c) => [c.name, ...childNames(c.type)]);
}

function read(path) {
  try {
    const reader = RecordBatchReader.from(readFileSync(path)).open();
    // schema and format before iterating: a finished reader drops them
    const { schema } = reader;
    const format = reader.isFile() ? 'file' : 'stream';
    const batches = [];
    for (const batch of reader) {
      const cols = [];
      for (let c = 0; c < batch.numCols; c++) {
        const vec = batch.getChildAt(c);
        const out = [];
        for (let i = 0; i < vec.length; i++) out.push(canonVector(vec, i));
        cols.push(out);
      }
      batches.push(cols);
    }
    return {
      format,
      fields: schema.fields.map((f) => ({
        name: f.name, type: String(f.type), nullable: f.nullable, childNames: childNames(f.type),
      })),
      batches,
    };
  } catch (e) {
    return { error: String(e && e.message ? e.message : e) };
  }
}

// The batch the write command writes; js_test.go holds the same values.
function fixedTable() {
  const n = 5;
  const decimals = new Uint32Array(4 * n);
  const unscaled = [12345n, -1n, 0n, 10n ** 30n + 7n, -(10n ** 20n)];
  unscaled.forEach((v, i) => {
    let u = BigInt.asUintN(128, v);
    for (let k = 0; k < 4; k++) {
      decimals[4 * i + k] = Number(u & 0xffffffffn);
      u >>= 32n;
    }
  });
  const decType = new Decimal(4, 38, 128);
  const decValid = new Uint8Array([0b11101]); // slot 1 null
  const dec = makeVector(makeData({ type: decType, length: n, nullCount: 1, nullBitmap: decValid, data: decimals }));

  const columns = {
    int32: vectorFromArray([1, null, -3, 2147483647, -2147483648], new Int32()),
    int64: vectorFromArray([9007199254740993n, null, -9223372036854775808n, 0n, 42n], new Int64()),
    float64: vectorFromArray([1.5, -0.25, null, 1e300, 3.141592653589793], new Float64()),
    utf8: vectorFromArray(['alkaid', null, '', 'µ矢€', 'a string longer than twelve'], new Utf8()),
    bool: vectorFromArray([true, false, null, true, false], new Bool()),
    list: vectorFromArray([[1, 2], [], null, [3, null, 5], [6]], new List(new Field('item', new Int32(), true))),
    // Some writers name a list's child "": readers must keep the name.
    list_unnamed: vectorFromArray([[7], null, [], [8, 9], [null]], new List(new Field('', new Int32(), true))),
    struct: vectorFromArray(
      [{ a: 1n, b: 'x' }, null, { a: null, b: 'zz' }, { a: -5n, b: null }, { a: 7n, b: 'w' }],
      new Struct([new Field('a', new Int64(), true), new Field('b', new Utf8(), true)]),
    ),
    dictionary: vectorFromArray(['red', 'green', null, 'red', 'blue'], new Dictionary(new Utf8(), new Int32())),
    // apache-arrow's timestamp builders take epoch milliseconds.
    timestamp: vectorFromArray([1700000000123, null, -1, 0, 4102444800000], new TimestampMicrosecond('UTC')),
    date32: vectorFromArray([19000, null, -1, 0, 2932896].map((d) => (d === null ? null : new Date(d * 86400000))), new DateDay()),
    decimal128: dec,
    nulls: vectorFromArray([null, null, null, null, null], new Utf8()),
    null: vectorFromArray([null, null, null, null, null], new Null()),
  };
  return new Table(columns);
}

function write(streamPath, filePath, emptyPath) {
  const table = fixedTable();
  writeFileSync(streamPath, tableToIPC(table, 'stream'));
  writeFileSync(filePath, tableToIPC(table, 'file'));
  // The same schema without a batch: a file of a schema and a footer.
  if (emptyPath) writeFileSync(emptyPath, tableToIPC(new Table(table.schema), 'file'));
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === 'read') {
  const out = {};
  for (const p of args) out[p] = read(p);
  process.stdout.write(JSON.stringify(out));
} else if (cmd === 'write' && (args.length === 2 || args.length === 3)) {
  write(args[0], args[1], args[2]);
} else {
  process.stderr.write('usage: node peer.mjs read PATH... | node peer.mjs write STREAM FILE [EMPTY_FILE]\n');
  process.exit(2);
}
