package ipc

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// Schemas whose strings alone exceed Limits.MaxMetadataSize are refused
// by both writers before the Flatbuffers builder copies them: the
// refusal allocates a small fraction of the strings' size and writes
// nothing.
func TestWritersRefuseLongStringsBeforeBuilding(t *testing.T) {
	long := strings.Repeat("n", DefaultLimits.MaxMetadataSize+1)
	half := long[:DefaultLimits.MaxMetadataSize/2+1]
	for _, c := range []struct {
		name   string
		schema *alkaid.Schema
	}{
		{"field name", alkaid.NewSchema([]datatype.Field{{Name: long, Type: datatype.Int32}}, datatype.Metadata{})},
		{"two field names", alkaid.NewSchema([]datatype.Field{{Name: half, Type: datatype.Int32}, {Name: half, Type: datatype.String}}, datatype.Metadata{})},
		{"schema metadata", alkaid.NewSchema([]datatype.Field{{Name: "a", Type: datatype.Int32}}, datatype.NewMetadata([]string{"k"}, []string{long}))},
		{"field metadata", alkaid.NewSchema([]datatype.Field{{Name: "a", Type: datatype.Int32, Metadata: datatype.NewMetadata([]string{long}, []string{"v"})}}, datatype.Metadata{})},
	} {
		for _, w := range []struct {
			name string
			open func(*bytes.Buffer) error
		}{
			{"stream", func(b *bytes.Buffer) error { _, err := NewStreamWriter(b, c.schema); return err }},
			{"file", func(b *bytes.Buffer) error { _, err := NewFileWriter(b, c.schema); return err }},
		} {
			t.Run(c.name+"/"+w.name, func(t *testing.T) {
				var buf bytes.Buffer
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				err := w.open(&buf)
				runtime.ReadMemStats(&after)
				require.ErrorIs(t, err, ErrLimit)
				require.Contains(t, err.Error(), "would take at least")
				require.Contains(t, err.Error(), "Limits.MaxMetadataSize")
				require.Zero(t, buf.Len())
				require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(DefaultLimits.MaxMetadataSize/8),
					"allocated while refusing")
			})
		}
	}
}
