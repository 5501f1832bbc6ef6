package ipc

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
)

// conformanceDir holds golden files written by other implementations; it
// lives beside the repository and is absent in a user's fresh clone.
const conformanceDir = "../../shared/conformance/arrow-testing"

func conformanceFiles(t *testing.T, ext string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(conformanceDir, "*", "*"+ext))
	if len(files) == 0 {
		t.Skipf("no conformance files under %s (../shared is absent in a fresh clone)", conformanceDir)
	}
	return files
}

// TestConformanceReadable reads every golden stream and file and checks
// that both forms of each case hold the same schema and batches.
func TestConformanceReadable(t *testing.T) {
	for _, path := range conformanceFiles(t, ".stream") {
		name := strings.TrimSuffix(path, ".stream")
		t.Run(filepath.Base(filepath.Dir(name))+"/"+filepath.Base(name), func(t *testing.T) {
			raw, err := os.ReadFile(path)
			require.NoError(t, err)
			sr, err := NewStreamReader(bytes.NewReader(raw), WithValidation(array.ValidateFull))
			require.NoError(t, err)
			var streamed []string
			for rec, err := range sr.Records() {
				require.NoError(t, err)
				streamed = append(streamed, rec.String())
			}

			fr, err := OpenFile(name+".arrow_file", WithValidation(array.ValidateFull))
			require.NoError(t, err)
			// The golden streams were written with canonical map field names
			// ("entries", "key", "value") even where the file keeps others.
			require.True(t, fr.Schema().Equal(sr.Schema(), datatype.IgnoreFieldNames()), "schemas differ:\n%s\n%s", fr.Schema(), sr.Schema())
			require.Equal(t, len(streamed), fr.NumRecords())
			for i := range fr.NumRecords() {
				rec, err := fr.Record(i)
				require.NoError(t, err)
				require.Equal(t, streamed[i], rec.String(), "batch %d", i)
			}
		})
	}
}

// TestConformanceRewrite reads every golden stream, writes it back with
// every writer option combination and reads the result, which must hold
// the same values.
func TestConformanceRewrite(t *testing.T) {
	type variant struct {
		name string
		opts []Option
	}
	variants := []variant{
		{"plain", nil},
		{"lz4", []Option{WithCompression(LZ4Frame, 0)}},
		{"zstd-64", []Option{WithCompression(Zstd, 3), WithAlignment(64)}},
		{"arrow-serial", []Option{WithArrowCompat(), WithConcurrency(1)}},
	}
	for _, path := range conformanceFiles(t, ".stream") {
		raw, err := os.ReadFile(path)
		require.NoError(t, err)
		sr, err := NewStreamReader(bytes.NewReader(raw))
		require.NoError(t, err)
		var recs []*alkaid.Record
		for rec, err := range sr.Records() {
			require.NoError(t, err)
			recs = append(recs, rec)
		}
		name := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
		for _, v := range variants {
			t.Run(name+"/"+v.name, func(t *testing.T) {
				var sbuf, fbuf bytes.Buffer
				sw, err := NewStreamWriter(&sbuf, sr.Schema(), v.opts...)
				require.NoError(t, err)
				fw, err := NewFileWriter(&fbuf, sr.Schema(), v.opts...)
				require.NoError(t, err)
				for _, rec := range recs {
					require.NoError(t, sw.Write(rec))
					require.NoError(t, fw.Write(rec))
				}
				require.NoError(t, sw.Close())
				require.NoError(t, fw.Close())

				back, err := NewStreamReader(bytes.NewReader(sbuf.Bytes()), WithValidation(array.ValidateFull))
				require.NoError(t, err)
				require.True(t, back.Schema().Equal(sr.Schema()))
				i := 0
				for rec, err := range back.Records() {
					require.NoError(t, err)
					require.Equal(t, recs[i].String(), rec.String(), "stream batch %d", i)
					i++
				}
				require.Equal(t, len(recs), i)

				fr, err := NewFileReader(bytes.NewReader(fbuf.Bytes()), int64(fbuf.Len()), WithValidation(array.ValidateFull))
				require.NoError(t, err)
				require.True(t, fr.Schema().Equal(sr.Schema()))
				require.Equal(t, len(recs), fr.NumRecords())
				for i := range recs {
					rec, err := fr.Record(i)
					require.NoError(t, err)
					require.Equal(t, recs[i].String(), rec.String(), "file batch %d", i)
				}
			})
		}
	}
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
