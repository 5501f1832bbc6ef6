package bench

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aarray "github.com/apache/arrow-go/v18/arrow/array"
	acsv "github.com/apache/arrow-go/v18/arrow/csv"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ndjson"
)

// textInputs are the CSV and NDJSON inputs: S.BatchRows rows (1M in the
// full run) of 10 columns — three int64, three float64, three utf8, one
// bool — each cell empty (null) with chance 5%.
type textInputs struct {
	once    sync.Once
	csv     []byte
	ndjson  []byte
	schema  *alkaid.Schema
	aschema *aarrow.Schema
	recs    []*alkaid.Record     // the CSV read by us (the write input)
	arecs   []aarrow.RecordBatch // the CSV read by arrow-go
	out     bytes.Buffer
}

var (
	textMu  sync.Mutex
	textFor = map[*Inputs]*textInputs{}
)

// textBatch is the rows per batch on both sides.
const textBatch = 16384

func (in *Inputs) text() *textInputs {
	textMu.Lock()
	defer textMu.Unlock()
	t := textFor[in]
	if t == nil {
		t = &textInputs{}
		textFor[in] = t
	}
	return t
}

func (t *textInputs) make(rows int) {
	t.once.Do(func() {
		r := rand.New(rand.NewPCG(25, 52))
		names := []string{"i0", "i1", "i2", "f0", "f1", "f2", "s0", "s1", "s2", "b"}
		words := []string{"alkaid", "dubhe", "merak", "phecda", "megrez", "alioth", "mizar", "polaris, north", "vega"}
		var fields []datatype.Field
		var afields []aarrow.Field
		for _, n := range names {
			var dt datatype.DataType
			var at aarrow.DataType
			switch n[0] {
			case 'i':
				dt, at = datatype.Int64, aarrow.PrimitiveTypes.Int64
			case 'f':
				dt, at = datatype.Float64, aarrow.PrimitiveTypes.Float64
			case 's':
				dt, at = datatype.String, aarrow.BinaryTypes.String
			default:
				dt, at = datatype.Bool, aarrow.FixedWidthTypes.Boolean
			}
			fields = append(fields, datatype.Field{Name: n, Type: dt, Nullable: true})
			afields = append(afields, aarrow.Field{Name: n, Type: at, Nullable: true})
		}
		t.schema = alkaid.NewSchema(fields, datatype.Metadata{})
		t.aschema = aarrow.NewSchema(afields, nil)
		var c, j []byte
		for i, n := range names {
			if i > 0 {
				c = append(c, ',')
			}
			c = append(c, n...)
		}
		c = append(c, '\n')
		var cell []byte
		for range rows {
			j = append(j, '{')
			for i, n := range names {
				if i > 0 {
					c = append(c, ',')
					j = append(j, ',')
				}
				j = append(append(append(j, '"'), n...), '"', ':')
				if r.IntN(20) == 0 {
					j = append(j, "null"...)
					continue
				}
				cell = cell[:0]
				str := false
				switch n[0] {
				case 'i':
					cell = strconv.AppendInt(cell, r.Int64N(2_000_000_000)-1_000_000_000, 10)
				case 'f':
					cell = strconv.AppendFloat(cell, r.NormFloat64()*1000, 'f', 3, 64)
				case 's':
					cell, str = append(cell, words[r.IntN(len(words))]...), true
				default:
					cell = strconv.AppendBool(cell, r.IntN(2) == 0)
				}
				if str && bytes.IndexByte(cell, ',') >= 0 {
					c = append(append(append(c, '"'), cell...), '"')
				} else {
					c = append(c, cell...)
				}
				if str {
					j = append(append(append(j, '"'), cell...), '"')
				} else {
					j = append(j, cell...)
				}
			}
			c = append(c, '\n')
			j = append(j, '}', '\n')
		}
		t.csv, t.ndjson = c, j
		rd, err := csv.NewReader(bytes.NewReader(c), csv.WithSchema(t.schema), csv.WithBatchSize(textBatch))
		if err != nil {
			panic(err)
		}
		for rec, err := range rd.Records() {
			if err != nil {
				panic(err)
			}
			t.recs = append(t.recs, rec)
		}
		ar := acsv.NewReader(bytes.NewReader(c), t.aschema, acsv.WithHeader(true), acsv.WithNullReader(true, ""), acsv.WithChunk(textBatch))
		for ar.Next() {
			rec := ar.RecordBatch()
			rec.Retain()
			t.arecs = append(t.arecs, rec)
		}
		if ar.Err() != nil {
			panic(ar.Err())
		}
	})
}

// textSummary is what both readers must agree on: rows and nulls per
// column.
func ourSummary(recs func(yield func(*alkaid.Record, error) bool)) (any, error) {
	rows, nulls := 0, make([]int, 10)
	var err error
	recs(func(rec *alkaid.Record, e error) bool {
		if e != nil {
			err = e
			return false
		}
		rows += rec.NumRows()
		for c := range rec.NumCols() {
			nulls[c] += rec.Column(c).NullN()
		}
		return true
	})
	return fmt.Sprint(rows, nulls), err
}

type arrowReader interface {
	Next() bool
	RecordBatch() aarrow.RecordBatch
	Err() error
}

func theirSummary(r arrowReader) (any, error) {
	rows, nulls := 0, make([]int, 10)
	for r.Next() {
		rec := r.RecordBatch()
		rows += int(rec.NumRows())
		for c := range int(rec.NumCols()) {
			nulls[c] += rec.Column(c).NullN()
		}
	}
	return fmt.Sprint(rows, nulls), r.Err()
}

func (in *Inputs) textPairs() []Pair {
	t := in.text()
	setup := func() { t.make(in.S.BatchRows) }
	csvBytes := func() int64 { return int64(len(t.csv)) }
	jsonBytes := func() int64 { return int64(len(t.ndjson)) }
	return []Pair{
		{Name: "CSVRead/schema", Setup: setup, Bytes: csvBytes, Values: in.S.BatchRows,
			Alkaid: func() (any, error) {
				r, err := csv.NewReader(bytes.NewReader(t.csv), csv.WithSchema(t.schema), csv.WithBatchSize(textBatch))
				if err != nil {
					return nil, err
				}
				return ourSummary(r.Records())
			},
			ArrowGo: func() (any, error) {
				r := acsv.NewReader(bytes.NewReader(t.csv), t.aschema, acsv.WithHeader(true),
					acsv.WithNullReader(true, ""), acsv.WithChunk(textBatch))
				defer r.Release()
				return theirSummary(r)
			}},
		{Name: "CSVRead/infer", Setup: setup, Bytes: csvBytes, Values: in.S.BatchRows,
			Alkaid: func() (any, error) {
				r, err := csv.NewReader(bytes.NewReader(t.csv), csv.WithBatchSize(textBatch))
				if err != nil {
					return nil, err
				}
				return ourSummary(r.Records())
			},
			ArrowGo: func() (any, error) {
				r := acsv.NewInferringReader(bytes.NewReader(t.csv), acsv.WithHeader(true),
					acsv.WithNullReader(true, ""), acsv.WithChunk(textBatch))
				defer r.Release()
				return theirSummary(r)
			}},
		{Name: "CSVWrite", Setup: setup, Bytes: csvBytes, Values: in.S.BatchRows,
			Alkaid: func() (any, error) {
				t.out.Reset()
				w, err := csv.NewWriter(&t.out, t.recs[0].Schema())
				if err != nil {
					return nil, err
				}
				for _, rec := range t.recs {
					if err := w.Write(rec); err != nil {
						return nil, err
					}
				}
				if err := w.Close(); err != nil {
					return nil, err
				}
				return bytes.Count(t.out.Bytes(), []byte{'\n'}), nil
			},
			ArrowGo: func() (any, error) {
				t.out.Reset()
				w := acsv.NewWriter(&t.out, t.aschema, acsv.WithHeader(true), acsv.WithNullWriter(""))
				for _, rec := range t.arecs {
					if err := w.Write(rec); err != nil {
						return nil, err
					}
				}
				if err := w.Flush(); err != nil {
					return nil, err
				}
				return bytes.Count(t.out.Bytes(), []byte{'\n'}), w.Error()
			}},
		{Name: "NDJSONRead/schema", Setup: setup, Bytes: jsonBytes, Values: in.S.BatchRows,
			Alkaid: func() (any, error) {
				r, err := ndjson.NewReader(bytes.NewReader(t.ndjson), ndjson.WithSchema(t.schema), ndjson.WithBatchSize(textBatch))
				if err != nil {
					return nil, err
				}
				return ourSummary(r.Records())
			},
			ArrowGo: func() (any, error) {
				r := aarray.NewJSONReader(bytes.NewReader(t.ndjson), t.aschema, aarray.WithChunk(textBatch))
				defer r.Release()
				return theirSummary(r)
			}},
	}
}
