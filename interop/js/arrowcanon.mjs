// Canonical JSON values of apache-arrow data, shared by peer.mjs (Arrow
// IPC round trips, interop/js_test.go) and parquet.mjs (parquet-wasm's
// results, interop/parquet_indep_test.go).
//
// Values are read from the buffers apache-arrow decoded (its Data), so
// what is checked is the decoding, not apache-arrow's value accessors:
// in 21.2.0 Vector.get converts timestamps to millisecond numbers
// (rounding, and throwing beyond 2^53 ms), prints negative decimal64
// values as unsigned and returns wrong decimal256 values.
//
// Two forms. 'ipc' (peer.mjs): every integer (64-bit ones included),
// decimal (unscaled), date, time, timestamp, duration and interval
// component as the base-10 string of the stored count; floats as numbers;
// utf8 as strings; binary as lowercase hex; lists as arrays; structs as
// arrays of their fields in order; maps as arrays of [key, value]; unions
// as [type code, value]; dictionaries as their values. 'parquet'
// (parquet.mjs): the same but times and timestamps in nanoseconds, dates
// of milliseconds in days, NaN and the infinities as the strings "NaN",
// "Infinity", "-Infinity", and map keys as strings.
//
// Data read from IPC has no offsets of its own: slot i of a Data is at
// data.offset + i in its buffers.

import { Type, UnionMode, Precision, DateUnit, IntervalUnit, makeVector } from 'apache-arrow';

const utf8 = new TextDecoder('utf-8', { fatal: true });

const nanosPer = [1000000000n, 1000000n, 1000n, 1n]; // by apache-arrow TimeUnit

export function hex(bytes) {
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

// float is a float in the given form.
function float(v, form) {
  if (form !== 'parquet') return v;
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  return v;
}

// unitBytes is the width of a time, timestamp or duration value.
function timeBytes(type) {
  if (type.typeId === Type.Time) return type.bitWidth / 8;
  return 8;
}

// canon is slot i (logical, counted from data.offset) of data in form.
export function canon(data, i, form = 'ipc') {
  const t = data.type;
  const j = data.offset + i;
  switch (t.typeId) {
    case Type.Null:
      return null;
    case Type.Union: {
      const code = data.typeIds[j];
      const child = data.children[t.typeIdToChildIndex[code]];
      const at = t.mode === UnionMode.Dense ? data.valueOffsets[j] : i;
      return [String(code), canon(child, at, form)];
    }
    case Type.Dictionary: {
      if (!isValid(data, j)) return null;
      const idx = Number(int(view(data.values), j * (t.indices.bitWidth / 8), t.indices.bitWidth / 8, t.indices.isSigned));
      return canonVector(data.dictionary, idx, form);
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
      if (t.precision === Precision.HALF) return float(half(dv.getUint16(j * 2, true)), form);
      if (t.precision === Precision.SINGLE) return float(dv.getFloat32(j * 4, true), form);
      return float(dv.getFloat64(j * 8, true), form);
    }
    case Type.Decimal:
      return String(int(view(data.values), j * (t.bitWidth / 8), t.bitWidth / 8, true));
    case Type.Date: {
      if (t.unit === DateUnit.DAY) return String(int(view(data.values), j * 4, 4, true));
      const ms = int(view(data.values), j * 8, 8, true);
      return String(form === 'parquet' ? ms / 86400000n : ms);
    }
    case Type.Time:
    case Type.Timestamp:
    case Type.Duration: {
      const w = timeBytes(t);
      const v = int(view(data.values), j * w, w, true);
      return String(form === 'parquet' && t.typeId !== Type.Duration ? v * nanosPer[t.unit] : v);
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
      for (let k = s; k < e; k++) {
        const v = canon(data.children[0], k, form);
        if (t.typeId === Type.Map && form === 'parquet' && typeof v[0] !== 'string') v[0] = String(v[0]);
        out.push(v);
      }
      return out;
    }
    case Type.FixedSizeList: {
      const out = [];
      for (let k = 0; k < t.listSize; k++) out.push(canon(data.children[0], j * t.listSize + k, form));
      return out;
    }
    case Type.Struct:
      return data.children.map((c) => canon(c, j, form));
  }
  throw new Error(`no canonical form for ${t}`);
}

// canonVector is slot i of an apache-arrow Vector, over its chunks, in
// form.
export function canonVector(vec, i, form = 'ipc') {
  for (const d of vec.data) {
    if (i < d.length) return canon(d, i, form);
    i -= d.length;
  }
  throw new Error(`index ${i} beyond the vector`);
}
