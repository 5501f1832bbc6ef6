package interop

import (
	"bytes"
	"testing"

	aarrow "github.com/apache/arrow-go/v18/arrow"
	aipc "github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/ipc"
)

// compressedCases are the batches the compressed round trips carry: every
// type (small buffers), and a big batch whose int64 and float64 buffers
// (random, over 1 MiB) the writer's probe stores raw while its strings
// compress.
func compressedCases() map[string][]*alkaid.Record {
	all := randdata.AllTypes()
	big := alkaid.NewSchema([]datatype.Field{
		{Name: "i", Type: datatype.Int64, Nullable: true},
		{Name: "f", Type: datatype.Float64},
		{Name: "s", Type: datatype.String, Nullable: true},
	}, datatype.Metadata{})
	return map[string][]*alkaid.Record{
		"all_types": {randdata.New(interopSeed).Record(all, interopRows)},
		"big":       {randdata.New(interopSeed+1).Record(big, 300_000)},
	}
}

var codecs = []struct {
	name   string
	ours   ipc.Codec
	theirs aipc.Option
}{
	{"lz4", ipc.LZ4Frame, aipc.WithLZ4()},
	{"zstd", ipc.Zstd, aipc.WithZstd()},
}

// TestCompressedAlkaidToArrowGo: arrow-go reads what Alkaid's compressing
// writers produce — its own LZ4 framing, raw (−1) buffers chosen by the
// probe — as streams and files.
func TestCompressedAlkaidToArrowGo(t *testing.T) {
	for name, recs := range compressedCases() {
		for _, c := range codecs {
			for _, file := range []bool{false, true} {
				t.Run(name+"/"+c.name+"/"+formatName(file), func(t *testing.T) {
					schema := recs[0].Schema()
					var buf bytes.Buffer
					opts := []ipc.Option{ipc.WithArrowCompat(), ipc.WithCompression(c.ours, 0)}
					var err error
					if file {
						var w *ipc.FileWriter
						w, err = ipc.NewFileWriter(&buf, schema, opts...)
						require.NoError(t, err)
						for _, r := range recs {
							require.NoError(t, w.Write(r))
						}
						require.NoError(t, w.Close())
					} else {
						var w *ipc.StreamWriter
						w, err = ipc.NewStreamWriter(&buf, schema, opts...)
						require.NoError(t, err)
						for _, r := range recs {
							require.NoError(t, w.Write(r))
						}
						require.NoError(t, w.Close())
					}
					slots := 0
					n := readArrowGoAll(t, buf.Bytes(), file, func(i int, s *aarrow.Schema, rec aarrow.RecordBatch) {
						requireArrowGoSchema(t, schema, s)
						slots += requireSameValues(t, recs[i], rec)
					})
					require.Equal(t, len(recs), n)
					t.Logf("%d slots equal, %d bytes", slots, buf.Len())
				})
			}
		}
	}
}

// TestCompressedArrowGoToAlkaid: Alkaid reads arrow-go's LZ4 and ZSTD
// bodies.
func TestCompressedArrowGoToAlkaid(t *testing.T) {
	for _, c := range codecs {
		for _, file := range []bool{false, true} {
			t.Run(c.name+"/"+formatName(file), func(t *testing.T) {
				schema := randdata.AllTypes()
				as := arrowGoSchema(schema)
				g := newArrowGoGen(interopSeed + 7)
				rec := g.record(as, 5000)
				defer rec.Release()
				var buf bytes.Buffer
				if file {
					w, err := aipc.NewFileWriter(&buf, aipc.WithSchema(as), c.theirs)
					require.NoError(t, err)
					require.NoError(t, w.Write(rec))
					require.NoError(t, w.Close())
				} else {
					w := aipc.NewWriter(&buf, aipc.WithSchema(as), c.theirs)
					require.NoError(t, w.Write(rec))
					require.NoError(t, w.Close())
				}
				_, ours := readAlkaid(t, buf.Bytes(), file)
				require.Len(t, ours, 1)
				t.Logf("%d slots equal", requireSameValues(t, ours[0], rec))
			})
		}
	}
}
