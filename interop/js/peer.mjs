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
// canonical, matching interop/js_test.go: arrowcanon.mjs's 'ipc' form
// (null; booleans; every integer, decimal (unscaled), date, time,
// timestamp, duration and interval component as a base-10 string; floats
// as numbers; utf8 as strings; binary as lowercase hex; lists as arrays;
// structs as arrays of their fields in order; maps as arrays of [key,
// value]; unions as [type code, value]; dictionaries as their values),
// read from the buffers apache-arrow decoded.

import { readFileSync, writeFileSync } from 'node:fs';
import {
  RecordBatchReader, makeVector, makeData, vectorFromArray, Table, tableToIPC,
  Field, Null, Int32, Int64, Float64, Utf8, Bool, List, Struct, Dictionary,
  TimestampMicrosecond, Decimal, DateDay,
} from 'apache-arrow';
import { canonVector } from './arrowcanon.mjs';

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
