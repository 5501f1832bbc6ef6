package join

import (
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/memory"
)

// Type is a kind of join. Left is the probe side, streamed; right is
// the build side, held in memory.
type Type uint8

const (
	// Inner outputs every pair of matching rows.
	Inner Type = iota
	// LeftOuter outputs Inner's pairs and every left row without a
	// match, with nulls for the right columns.
	LeftOuter
	// RightOuter outputs Inner's pairs and every right row without a
	// match, with nulls for the left columns.
	RightOuter
	// FullOuter outputs Inner's pairs and the unmatched rows of both
	// sides.
	FullOuter
	// LeftSemi outputs each left row that has a match, once.
	LeftSemi
	// LeftAnti outputs each left row that has no match.
	LeftAnti
	// RightSemi outputs each right row that has a match, once.
	RightSemi
	// RightAnti outputs each right row that has no match.
	RightAnti
)

var typeNames = [...]string{"inner", "left", "right", "full", "left-semi", "left-anti", "right-semi", "right-anti"}

// String returns the type's name as ParseType takes it.
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// ParseType returns the Type of a name: inner, left, right, full,
// left-semi (or semi), left-anti (or anti), right-semi, right-anti.
func ParseType(s string) (Type, error) {
	switch s {
	case "semi":
		return LeftSemi, nil
	case "anti":
		return LeftAnti, nil
	}
	for i, n := range typeNames {
		if s == n {
			return Type(i), nil
		}
	}
	return 0, invalid("unknown join type %q (want %s, semi or anti)", s, strings.Join(typeNames[:], ", "))
}

// Key is a pair of columns compared for equality: Left names a column
// of the left side, Right one of the right side.
type Key struct {
	Left, Right string
}

// On returns keys of columns named the same on both sides.
func On(names ...string) []Key {
	keys := make([]Key, len(names))
	for i, n := range names {
		keys[i] = Key{n, n}
	}
	return keys
}

// Reader is a hash join's output as an [alkaid.RecordReader].
type Reader struct {
	typ     Type
	cfg     config
	left    alkaid.RecordReader
	schema  *alkaid.Schema // output
	full    *alkaid.Schema // every left then every right column, for the filter
	filter  *expr.Bound    // the residual filter bound to full, or nil
	sel     []int          // output columns as indices into full
	build   *alkaid.Record // the right side, one chunk per column
	table   *table
	leftKey []int
	fixed   bool
}

// NewReader reads right (the build side) fully into a hash table and
// returns a reader of the join of left (the probe side, streamed batch
// by batch as the result is read) with right on keys. It does not close
// left or right; the returned reader's Close closes neither either.
//
// Key columns must have the same type on both sides, where a
// dictionary counts as its value type and string, large string and
// string view are one type (binary likewise); nested types are not
// supported as keys. A key with a null matches nothing unless
// [WithNullsEqual]. Float keys follow DuckDB: -0 equals 0 and NaN
// equals NaN.
func NewReader(left, right alkaid.RecordReader, typ Type, keys []Key, opts ...Option) (*Reader, error) {
	cfg := defaults()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if typ > RightAnti {
		return nil, invalid("join type %d", uint8(typ))
	}
	if cfg.concurrency == 0 {
		cfg.concurrency = runtime.GOMAXPROCS(0)
	}
	if len(keys) == 0 {
		return nil, invalid("no key columns")
	}
	ls, rs := left.Schema(), right.Schema()
	j := &Reader{typ: typ, cfg: cfg, left: left}
	rightKey := make([]int, len(keys))
	j.leftKey = make([]int, len(keys))
	for i, k := range keys {
		l, r := ls.FieldIndex(k.Left), rs.FieldIndex(k.Right)
		if l < 0 {
			return nil, invalid("key %d: the left side has no column %q", i, k.Left)
		}
		if r < 0 {
			return nil, invalid("key %d: the right side has no column %q", i, k.Right)
		}
		lc, err := keyClass(ls.Field(l).Type)
		if err != nil {
			return nil, fmt.Errorf("join: key %d (%q): %w", i, k.Left, err)
		}
		rc, err := keyClass(rs.Field(r).Type)
		if err != nil {
			return nil, fmt.Errorf("join: key %d (%q): %w", i, k.Right, err)
		}
		if !datatype.Equal(lc, rc) {
			return nil, invalid("key %d: left %q is %s but right %q is %s", i, k.Left, ls.Field(l).Type, k.Right, rs.Field(r).Type)
		}
		j.leftKey[i], rightKey[i] = l, r
		j.fixed = len(keys) == 1 && fixedKey(lc)
	}
	if err := j.schemas(ls, rs); err != nil {
		return nil, err
	}
	if cfg.filter != nil {
		b, err := expr.Bind(cfg.filter, j.full)
		if err != nil {
			return nil, fmt.Errorf("join: WithFilter(%s): %w", cfg.filter, err)
		}
		if b.Type().Kind() != datatype.KindBool {
			return nil, invalid("WithFilter(%s): the filter must be boolean, not %s", cfg.filter, b.Type())
		}
		j.filter = b
	}
	if err := j.readBuild(right, rightKey); err != nil {
		return nil, err
	}
	return j, nil
}

// schemas sets the full and output schemas.
func (j *Reader) schemas(ls, rs *alkaid.Schema) error {
	names := map[string]int{}
	for _, f := range ls.Fields() {
		names[f.Name]++
	}
	for _, f := range rs.Fields() {
		names[f.Name] += 2
	}
	var fields []datatype.Field
	add := func(s *alkaid.Schema, side int, nullable bool) {
		for _, f := range s.Fields() {
			if names[f.Name]&1 != 0 && names[f.Name]&^1 != 0 {
				f.Name += j.cfg.suffixes[side]
			}
			f.Nullable = f.Nullable || nullable
			fields = append(fields, f)
		}
	}
	add(ls, 0, j.typ == RightOuter || j.typ == FullOuter)
	add(rs, 1, j.typ == LeftOuter || j.typ == FullOuter)
	seen := map[string]bool{}
	for _, f := range fields {
		if seen[f.Name] {
			return invalid("output column %q appears twice (after suffixes %q, %q)", f.Name, j.cfg.suffixes[0], j.cfg.suffixes[1])
		}
		seen[f.Name] = true
	}
	j.full = alkaid.NewSchema(fields, datatype.Metadata{})
	// The output: the full schema's columns, or for semi and anti joins
	// one side's columns under their own names (nothing collides).
	outFields, base := fields, 0
	switch j.typ {
	case LeftSemi, LeftAnti:
		outFields = ls.Fields()
	case RightSemi, RightAnti:
		outFields, base = rs.Fields(), ls.NumFields()
	}
	var sel []int
	var out []datatype.Field
	if j.cfg.columns == nil {
		for i, f := range outFields {
			sel, out = append(sel, base+i), append(out, fields[base+i])
			out[i].Name = f.Name
		}
	} else {
		for _, name := range j.cfg.columns {
			i := slices.IndexFunc(outFields, func(f datatype.Field) bool { return f.Name == name })
			if i < 0 {
				return invalid("WithColumns: no output column %q (a %s join outputs %s)", name, j.typ, fieldNames(outFields))
			}
			f := fields[base+i]
			f.Name = name
			sel, out = append(sel, base+i), append(out, f)
		}
	}
	j.sel = sel
	j.schema = alkaid.NewSchema(out, datatype.Metadata{})
	return nil
}

func fieldNames(fs []datatype.Field) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = fmt.Sprintf("%q", f.Name)
	}
	return strings.Join(s, ", ")
}

// readBuild reads the right side within the limits, concatenates each
// column into one array and builds the hash table.
func (j *Reader) readBuild(right alkaid.RecordReader, key []int) error {
	lim := j.cfg.limits
	var rows, size int64
	var recs []*alkaid.Record
	seen := map[*memory.Buffer]bool{} // batches sliced from one record share buffers
	for rec, err := range right.Records() {
		if err != nil {
			return fmt.Errorf("join: reading the right side: %w", err)
		}
		rows += int64(rec.NumRows())
		if rows > lim.MaxBuildRows {
			return fmt.Errorf("join: the right side has more than %d rows (Limits.MaxBuildRows): %w", lim.MaxBuildRows, datatype.ErrLimit)
		}
		if lim.MaxBuildBytes > 0 {
			for _, c := range rec.Columns() {
				size += dataBytes(c.Data(), seen)
			}
			if size > lim.MaxBuildBytes {
				return fmt.Errorf("join: the right side takes more than %d bytes (Limits.MaxBuildBytes): %w", lim.MaxBuildBytes, datatype.ErrLimit)
			}
		}
		recs = append(recs, rec)
	}
	rs := right.Schema()
	cols := make([]array.Array, rs.NumFields())
	for c := range cols {
		parts := make([]array.Array, 0, len(recs))
		for _, r := range recs {
			parts = append(parts, r.Column(c))
		}
		var err error
		switch len(parts) {
		case 0:
			b, err2 := array.TryNewBuilder(rs.Field(c).Type)
			if err2 != nil {
				return fmt.Errorf("join: right column %q: %w", rs.Field(c).Name, err2)
			}
			cols[c] = b.NewArray()
		case 1:
			cols[c] = parts[0]
		default:
			cols[c], err = array.Concatenate(parts...)
		}
		if err != nil {
			return fmt.Errorf("join: right column %q: %w", rs.Field(c).Name, err)
		}
	}
	build, err := alkaid.NewRecord(rs, cols, int(rows))
	if err != nil {
		return fmt.Errorf("join: right side: %w", err)
	}
	j.build = build
	k := new(keyBatch)
	if err := j.encode(k, build, key); err != nil {
		return fmt.Errorf("join: right side: %w", err)
	}
	j.table = newTable(k, int(rows), j.fixed, j.cfg.nullsEqual)
	return nil
}

// dataBytes is the size of the buffers d references, children and
// dictionary included, that are not in seen; it adds them to seen.
func dataBytes(d *array.Data, seen map[*memory.Buffer]bool) int64 {
	var n int64
	for _, b := range d.Buffers {
		if b != nil && !seen[b] {
			seen[b] = true
			n += int64(b.Len())
		}
	}
	for _, c := range d.Children {
		n += dataBytes(c, seen)
	}
	if d.Dictionary != nil {
		n += dataBytes(d.Dictionary, seen)
	}
	return n
}

func (j *Reader) encode(k *keyBatch, rec *alkaid.Record, key []int) error {
	if j.fixed {
		return encodeFixed(k, rec.Column(key[0]))
	}
	cols := make([]array.Array, len(key))
	for i, c := range key {
		cols[i] = rec.Column(c)
	}
	return encodeBytes(k, cols, rec.NumRows(), j.cfg.nullsEqual)
}

// Schema returns the output schema: the chosen columns, those of a side
// that outer joins fill with nulls marked nullable.
func (j *Reader) Schema() *alkaid.Schema { return j.schema }

// Close releases nothing but the hash table; it closes neither input.
func (j *Reader) Close() error {
	j.table, j.build = nil, nil
	return nil
}
