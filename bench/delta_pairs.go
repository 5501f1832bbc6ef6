package bench

import (
	"bytes"
	"fmt"

	aarray "github.com/apache/arrow-go/v18/arrow/array"
	aipc "github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
)

// The dictionary-delta stream: deltaBatches batches of deltaRows rows, each
// adding deltaNew strings to the dictionary of its second column (a delta
// message before every batch but the first).
const deltaBatches, deltaRows, deltaNew = 256, 4096, 64

// deltaStream is written once by our writer; both readers read the same
// bytes (the stream format carries no magic).
var deltaStream []byte

func makeDeltaStream() {
	if deltaStream != nil {
		return
	}
	dt, err := datatype.NewDictionary(datatype.Int32, datatype.String, false)
	must(err)
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "n", Type: datatype.Int64},
		{Name: "word", Type: dt, Nullable: true},
	}, datatype.Metadata{})
	words := array.NewBinaryBuilder[int32](datatype.String)
	for i := range deltaBatches * deltaNew {
		words.AppendString(fmt.Sprintf("word-%06d", i))
	}
	all := words.Finish()
	var out bytes.Buffer
	w, err := ipc.NewStreamWriter(&out, s, ipc.WithDictionaryDeltas())
	must(err)
	for b := range deltaBatches {
		dictLen := (b + 1) * deltaNew
		nb := array.NewPrimitiveBuilder[int64](datatype.Int64)
		ib := array.NewPrimitiveBuilder[int32](datatype.Int32)
		for i := range deltaRows {
			nb.Append(int64(b*deltaRows + i))
			if i%17 == 5 {
				ib.AppendNull()
			} else {
				ib.Append(int32((i * 7919) % dictLen))
			}
		}
		d, err := array.NewDictionaryArray(dt, ib.Finish(), array.Slice(all, 0, dictLen))
		must(err)
		rec, err := alkaid.NewRecord(s, []array.Array{nb.Finish(), d}, -1)
		must(err)
		must(w.Write(rec))
	}
	must(w.Close())
	deltaStream = out.Bytes()
}

// deltaPairs read a stream of dictionary deltas: the cost of growing a
// dictionary message by message.
func (in *Inputs) deltaPairs() []Pair {
	return []Pair{{
		Name:   "IPCDictionaryDeltaRead",
		Values: deltaBatches * deltaRows,
		Setup:  makeDeltaStream,
		Alkaid: func() (any, error) {
			r, err := ipc.NewStreamReaderBytes(deltaStream)
			if err != nil {
				return nil, err
			}
			var s readSummary
			for rec, err := range r.Records() {
				if err != nil {
					return s, err
				}
				s.Rows += rec.NumRows()
				dict := rec.Column(1).(*array.Dictionary).Dictionary().(*array.Binary[int32])
				s.Last = dict.ValueString(dict.Len() - 1)
			}
			return s, nil
		},
		ArrowGo: func() (any, error) {
			r, err := aipc.NewReader(bytes.NewReader(deltaStream), aipc.WithAllocator(mem))
			if err != nil {
				return nil, err
			}
			defer r.Release()
			var s readSummary
			for r.Next() {
				rec := r.RecordBatch()
				s.Rows += int(rec.NumRows())
				dict := rec.Column(1).(*aarray.Dictionary).Dictionary().(*aarray.String)
				s.Last = dict.Value(dict.Len() - 1)
			}
			return s, r.Err()
		},
	}}
}
