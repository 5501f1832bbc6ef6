package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// The kinds type inference tells apart, from narrow to wide.
type inferKind uint8

const (
	inferNull inferKind = iota // only nulls seen
	inferBool
	inferInt
	inferFloat
	inferDate
	inferTimestamp
	inferString
	inferList
	inferStruct
)

// inferred is what the sample says about one column or nested value.
type inferred struct {
	kind   inferKind
	zone   bool // timestamps: some value had a zone
	nanos  bool // timestamps: some value had sub-microsecond digits
	elem   *inferred
	names  []string // struct fields in order of first appearance
	fields map[string]*inferred
}

// classifyText is the kind of a CSV cell or JSON string. Only CSV cells
// (text) may be booleans or numbers.
func classifyText(s string, text bool) (k inferKind, zone, nanos bool) {
	if text {
		t := strings.TrimSpace(s)
		switch strings.ToLower(t) {
		case "true", "false":
			return inferBool, false, false
		}
		if _, err := strconv.ParseInt(t, 10, 64); err == nil {
			return inferInt, false, false
		}
		if isJSONNumber(t) {
			if _, err := strconv.ParseFloat(t, 64); err == nil {
				return inferFloat, false, false
			}
		}
		s = t
	}
	if len(s) == 10 {
		if _, err := time.Parse(time.DateOnly, s); err == nil {
			return inferDate, false, false
		}
	}
	if ts, z, ok := parseTimestamp(s); ok {
		return inferTimestamp, z, ts.Nanosecond()%1000 != 0
	}
	return inferString, false, false
}

// widen merges kind b into a: int and float make float, date and
// timestamp make timestamp, anything else that differs makes string.
func widen(a, b inferKind) inferKind {
	switch {
	case a == b:
		return a
	case a == inferNull:
		return b
	case b == inferNull:
		return a
	case (a == inferInt && b == inferFloat) || (a == inferFloat && b == inferInt):
		return inferFloat
	case (a == inferDate && b == inferTimestamp) || (a == inferTimestamp && b == inferDate):
		return inferTimestamp
	}
	return inferString
}

// addText adds a CSV cell ("" is null).
func (n *inferred) addText(s string) {
	if s == "" {
		return
	}
	k, zone, nanos := classifyText(s, true)
	n.kind = widen(n.kind, k)
	n.zone, n.nanos = n.zone || zone, n.nanos || nanos
}

// addJSON adds a parsed JSON value.
func (n *inferred) addJSON(v any) {
	var k inferKind
	switch x := v.(type) {
	case nil:
		return
	case bool:
		k = inferBool
	case json.Number:
		k = inferFloat
		if _, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			k = inferInt
		}
	case string:
		var zone, nanos bool
		k, zone, nanos = classifyText(x, false)
		n.zone, n.nanos = n.zone || zone, n.nanos || nanos
	case []any:
		k = inferList
		if n.kind == inferNull || n.kind == inferList {
			if n.elem == nil {
				n.elem = &inferred{}
			}
			for _, e := range x {
				n.elem.addJSON(e)
			}
		}
	case *jobj:
		k = inferStruct
		if n.kind == inferNull || n.kind == inferStruct {
			if n.fields == nil {
				n.fields = map[string]*inferred{}
			}
			for i, key := range x.keys {
				f := n.fields[key]
				if f == nil {
					f = &inferred{}
					n.fields[key] = f
					n.names = append(n.names, key)
				}
				f.addJSON(x.vals[i])
			}
		}
	}
	n.kind = widen(n.kind, k)
}

// dataType is the Alkaid type for what was seen; columns of only nulls
// are strings.
func (n *inferred) dataType() datatype.DataType {
	switch n.kind {
	case inferBool:
		return datatype.Bool
	case inferInt:
		return datatype.Int64
	case inferFloat:
		return datatype.Float64
	case inferDate:
		return datatype.Date32Type
	case inferTimestamp:
		unit := datatype.Microsecond
		if n.nanos {
			unit = datatype.Nanosecond
		}
		tz := ""
		if n.zone {
			tz = "UTC"
		}
		t, _ := datatype.NewTimestamp(unit, tz)
		return t
	case inferList:
		elem := n.elem
		if elem == nil {
			elem = &inferred{}
		}
		return datatype.ListOf(elem.dataType())
	case inferStruct:
		fields := make([]datatype.Field, len(n.names))
		for i, name := range n.names {
			fields[i] = datatype.Field{Name: name, Type: n.fields[name].dataType(), Nullable: true}
		}
		return datatype.StructOf(fields...)
	}
	return datatype.String
}

// inferSchema infers a schema from sample rows: CSV cells under names, or
// JSON objects (columns in order of first appearance).
func inferSchema(rows []textRow, names []string) *alkaid.Schema {
	var fields []datatype.Field
	if names != nil {
		cols := make([]inferred, len(names))
		for _, r := range rows {
			for c := range min(len(cols), len(r.cells)) {
				cols[c].addText(r.cells[c])
			}
		}
		for c, name := range names {
			fields = append(fields, datatype.Field{Name: name, Type: cols[c].dataType(), Nullable: true})
		}
		return alkaid.NewSchema(fields, datatype.Metadata{})
	}
	top := &inferred{}
	for _, r := range rows {
		top.addJSON(r.obj)
	}
	for _, name := range top.names {
		fields = append(fields, datatype.Field{Name: name, Type: top.fields[name].dataType(), Nullable: true})
	}
	return alkaid.NewSchema(fields, datatype.Metadata{})
}
