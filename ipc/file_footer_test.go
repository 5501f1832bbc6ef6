package ipc

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// A FileReader reads the footer once, when it is made, and answers every
// question about it (schema, version, dictionary fields, offsets, batch
// count, footer metadata) from that verified copy: a file rewritten under
// an open reader does not change what it says of the footer. The command
// line tool relies on it to look only at what was verified.
func TestFileReaderKeepsTheFooterItRead(t *testing.T) {
	s := alkaid.NewSchema([]datatype.Field{{Name: "n", Type: datatype.Int64}}, datatype.Metadata{})
	s2, recs := randomBatches(4)
	for _, c := range []struct {
		schema *alkaid.Schema
		recs   []*alkaid.Record
	}{{s, nil}, {s2, recs}} {
		var buf bytes.Buffer
		w, err := NewFileWriter(&buf, c.schema)
		require.NoError(t, err)
		for _, r := range c.recs {
			require.NoError(t, w.Write(r))
		}
		w.SetFooterMetadata(map[string]string{"k": "v"})
		require.NoError(t, w.Close())
		raw := bytes.Clone(buf.Bytes())

		fr, err := NewFileReader(bytes.NewReader(raw), int64(len(raw)))
		require.NoError(t, err)
		type footer struct {
			schema         string
			version, n     int
			dicts          []DictionaryField
			data, footerAt int64
			meta           map[string]string
		}
		look := func() footer {
			return footer{fr.Schema().String(), fr.Version(), fr.NumRecords(), fr.DictionaryFields(),
				fr.DataOffset(), fr.FooterOffset(), fr.FooterMetadata()}
		}
		before := look()
		require.Equal(t, len(c.recs), before.n)
		require.Equal(t, map[string]string{"k": "v"}, before.meta)
		// The footer and its length are overwritten in place.
		for i := fr.FooterOffset(); i < int64(len(raw)-len(Magic)); i++ {
			raw[i] = 0xA5
		}
		require.Equal(t, before, look())
	}
}
