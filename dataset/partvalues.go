package dataset

import (
	"fmt"
	"path"
	"strings"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/expr"
	"github.com/alkaid-go/alkaid/internal/quote"
	"github.com/alkaid-go/alkaid/internal/textval"
)

// relDirs is the directory names between base and the file name.
func relDirs(base, name string) []string {
	rel := name
	if base != "." && base != "" {
		rel = strings.TrimPrefix(name, base+"/")
	}
	dir := path.Dir(rel)
	if dir == "." {
		return nil
	}
	return strings.Split(dir, "/")
}

// partitionValues resolves the partition fields of files under base and
// each file's values: vals[file][field] is a one-row array, and
// facts[file][field] its partitionFact (made once per distinct value).
func partitionValues(p Partitioning, base string, files []string) (_ []datatype.Field, vals [][]array.Array, facts [][]*expr.Expr, _ error) {
	if p.Style == NoPartitions {
		return nil, make([][]array.Array, len(files)), make([][]*expr.Expr, len(files)), nil
	}
	fields := append([]datatype.Field(nil), p.Fields...)
	index := map[string]int{}
	for i, f := range fields {
		if _, dup := index[f.Name]; dup {
			return nil, nil, nil, fmt.Errorf("dataset: %w: partition key %q listed twice", ErrInvalid, f.Name)
		}
		index[f.Name] = i
	}
	raws := make([][]rawValue, len(files))
	for fi, name := range files {
		segs := relDirs(base, name)
		switch p.Style {
		case Directory:
			if len(segs) > len(fields) {
				return nil, nil, nil, fileErr(name, fmt.Errorf("%w: %d directory levels, %d partition fields", ErrPartitionValue, len(segs), len(fields)))
			}
			row := make([]rawValue, len(fields))
			for i, s := range segs {
				row[i] = rawValue{text: s, null: s == HiveNull, present: true}
			}
			raws[fi] = row
		case Hive:
			row := make([]rawValue, len(fields))
			for _, s := range segs {
				k, v, null, ok, err := parseHiveSegment(s)
				if err != nil {
					return nil, nil, nil, fileErr(name, err)
				}
				if !ok {
					continue
				}
				i, known := index[k]
				if !known {
					i = len(fields)
					index[k] = i
					fields = append(fields, datatype.Field{Name: k})
					row = append(row, rawValue{})
				}
				if row[i].present {
					return nil, nil, nil, fileErr(name, fmt.Errorf("%w: key %q appears twice in the path", ErrPartitionValue, k))
				}
				row[i] = rawValue{text: v, null: null, present: true}
			}
			raws[fi] = row
		default:
			return nil, nil, nil, fmt.Errorf("dataset: %w: partition style %d", ErrInvalid, p.Style)
		}
	}
	for i := range fields {
		fields[i].Nullable = true
		if fields[i].Type == nil {
			var seen []string
			for _, row := range raws {
				if i < len(row) && row[i].present && !row[i].null {
					seen = append(seen, row[i].text)
				}
			}
			fields[i].Type = inferType(seen)
		}
		if err := checkPartitionType(fields[i].Type); err != nil {
			return nil, nil, nil, err
		}
	}
	vals = make([][]array.Array, len(files))
	facts = make([][]*expr.Expr, len(files))
	for fi := range vals {
		vals[fi] = make([]array.Array, len(fields))
		facts[fi] = make([]*expr.Expr, len(fields))
	}
	for i, f := range fields {
		// One column of every file's value, each file's a one-row slice
		// of it: one builder per key, not one per file.
		ap, err := textval.NewAppender(f.Type, &textval.Options{})
		if err != nil {
			return nil, nil, nil, fmt.Errorf("dataset: %w: partition value of type %s", ErrNotSupported, f.Type)
		}
		ap.Reserve(len(raws))
		for fi, row := range raws {
			if i >= len(row) || !row[i].present || row[i].null {
				ap.AppendNull()
				continue
			}
			if err := ap.Append([]byte(row[i].text)); err != nil {
				return nil, nil, nil, fileErr(files[fi], fmt.Errorf("partition key %q: %w: %s is not a %s", f.Name, ErrPartitionValue, quote.String(row[i].text), f.Type))
			}
		}
		col := ap.NewArray()
		made := map[string]*expr.Expr{} // by value text; "" for null
		for fi, row := range raws {
			vals[fi][i] = array.Slice(col, fi, fi+1)
			text := ""
			if i < len(row) && row[i].present && !row[i].null {
				text = "=" + row[i].text
			}
			fact, ok := made[text]
			if !ok {
				fact = partitionFact(f.Name, vals[fi][i])
				made[text] = fact
			}
			facts[fi][i] = fact
		}
	}
	if p.Dictionary {
		for i := range fields {
			dt, err := datatype.NewDictionary(datatype.Int32, fields[i].Type, false)
			if err != nil {
				return nil, nil, nil, err
			}
			fields[i].Type = dt
		}
	}
	return fields, vals, facts, nil
}
