package parquet

import (
	"fmt"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// BenchmarkReadEncrypted reads the same rows from a plaintext file and
// from files encrypted with each algorithm (every column with the footer
// key).
func BenchmarkReadEncrypted(b *testing.B) {
	const n = 1 << 20
	s := alkaid.NewSchema([]datatype.Field{
		{Name: "i", Type: datatype.Int64, Nullable: true},
		{Name: "f", Type: datatype.Float64},
		{Name: "s", Type: datatype.String, Nullable: true},
	}, datatype.Metadata{})
	ib := array.NewPrimitiveBuilder[int64](datatype.Int64)
	fb := array.NewPrimitiveBuilder[float64](datatype.Float64)
	sb := array.NewBuilder(datatype.String).(*array.BinaryBuilder[int32])
	strs := make([]string, n)
	for i := range n {
		if i%7 == 0 {
			ib.AppendNull()
		} else {
			ib.Append(int64(i * 2654435761 % 1000003))
		}
		fb.Append(float64(i) * 0.37)
		strs[i] = fmt.Sprintf("value-%d", i%50000)
	}
	sb.AppendStrings(strs, nil)
	rec, err := alkaid.NewRecord(s, []array.Array{ib.Finish(), fb.Finish(), sb.NewArray()}, n)
	if err != nil {
		b.Fatal(err)
	}
	key := []byte("0123456789abcdef")
	for _, c := range []struct {
		name string
		enc  *FileEncryption
	}{{"plain", nil}, {"AES_GCM_V1", &FileEncryption{FooterKey: key}}, {"AES_GCM_CTR_V1", &FileEncryption{FooterKey: key, Algorithm: AESGCMCTR}}} {
		var wopts []Option
		var ropts []Option
		if c.enc != nil {
			wopts = append(wopts, WithEncryption(*c.enc))
			ropts = append(ropts, WithDecryption(FileDecryption{FooterKey: key}))
		}
		data := writeFile(&testing.T{}, []*alkaid.Record{rec}, wopts...)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				f, err := NewFileBytes(data, ropts...)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := readAll(f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
