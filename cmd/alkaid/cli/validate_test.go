package cli

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/memory"
)

func TestValidateValid(t *testing.T) {
	require.Equal(t, "testdata/small.ipc: valid file (ALKAID1): 2 record batches, 7 rows, 8307 bytes\n", mustCLI(t, "validate", smallFile))
	require.Equal(t, "testdata/small.ipcs: valid stream: 2 record batches, 7 rows, 2 dictionary batches, 6544 bytes\n", mustCLI(t, "validate", smallStream))
	require.Equal(t, "testdata/small_arrow.arrow: valid file (ARROW1): 2 record batches, 7 rows, 8306 bytes\n", mustCLI(t, "validate", smallArrow))
	raw, err := os.ReadFile(smallFile)
	require.NoError(t, err)
	code, out, _ := cli(t, raw, "validate", "-")
	require.Equal(t, 0, code)
	// A file on stdin is held in memory and checked through its footer.
	require.Equal(t, "stdin: valid file (ALKAID1): 2 record batches, 7 rows, 8307 bytes\n", out)
}

// A file whose writer died before the footer: validate reports what can be
// salvaged and exits 1; convert and cat still read the complete batches.
func TestValidateSalvage(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full.ipc")
	mustCLI(t, "gen", "-rows", "40", "-batches", "4", "-seed", "3", "-columns", "int64,utf8,dictionary", "-o", full)
	raw, err := os.ReadFile(full)
	require.NoError(t, err)

	// Cut inside the third record batch's message: two batches survive.
	var offsets []int64
	require.NoError(t, scanMessages(bytes.NewReader(raw[8:]), 8, func(mi msgInfo, _ *ipc.Message) error {
		if mi.typ == ipc.MessageRecordBatch {
			offsets = append(offsets, mi.offset)
		}
		return nil
	}))
	require.Len(t, offsets, 4)
	for _, c := range []struct {
		name string
		cut  int64
		err  string
	}{
		{"mid-message", offsets[2] + 20, "stream stopped"},
		{"at-boundary", offsets[2], "invalid: footer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			broken := filepath.Join(dir, c.name+".ipc")
			require.NoError(t, os.WriteFile(broken, raw[:c.cut], 0o644))
			code, out, errs := cli(t, nil, "validate", broken)
			require.Equal(t, 1, code)
			require.Contains(t, out, "without a usable footer; read as a stream: salvaged 2 record batch(es), 20 rows")
			require.Contains(t, errs, c.err)
			require.Equal(t, 1, strings.Count(errs, "\n"), errs)

			// convert keeps the complete batches, writes a valid file, exits 1.
			fixed := filepath.Join(dir, c.name+"-fixed.ipc")
			code, _, errs = cli(t, nil, "convert", broken, fixed)
			require.Equal(t, 1, code)
			require.Contains(t, errs, "wrote 2 record batches, 20 rows")
			require.Contains(t, mustCLI(t, "validate", fixed), "2 record batches, 20 rows")
			_, want := readAll(t, full)
			_, got := readAll(t, fixed)
			s, _ := readAll(t, full)
			requireSameColumns(t, s, want[:2], got)

			code, out, _ = cli(t, nil, "cat", "-columns", "int64", broken)
			require.Equal(t, 1, code)
			require.Contains(t, out, "record batch 1: 10 rows")
		})
	}
}

// A file whose schema message and footer copy disagree (one field renamed
// in the message only) is invalid: validate says so in one short line
// naming the field, not that the footer is unusable (it is fine) and
// not printing both schemas; the other commands read it through the
// footer.
func TestValidateSchemaCopiesDisagree(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.ipc")
	mustCLI(t, "gen", "-rows", "10", "-batches", "2", "-seed", "1", "-columns", "int64,utf8", "-o", path)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	s, _ := readAll(t, path)
	name := s.Field(0).Name
	at := bytes.Index(raw, []byte(name)) // in the schema message, which comes first
	require.Positive(t, at)
	require.Less(t, at, len(raw)/2)
	copy(raw[at:], strings.Repeat("z", len(name)))
	require.NoError(t, os.WriteFile(path, raw, 0o644))

	code, out, errs := cli(t, nil, "validate", path)
	require.Equal(t, 1, code)
	require.Empty(t, out)
	require.Contains(t, errs, "schema message at byte 8: disagrees with the footer's schema (message against footer: field 0: \"zzzzz")
	require.NotContains(t, errs, "footer unreadable")
	require.NotContains(t, errs, "usable footer")
	require.Equal(t, 1, strings.Count(errs, "\n"))
	require.Less(t, len(errs), 400, errs)
	code, out, errs = cli(t, nil, "cat", path)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "record batch 1: 5 rows")
	require.Contains(t, out, name)
}

// Invalid values inside well-formed messages: the message names the
// record batch, the column and the row.
func TestValidateNamesFault(t *testing.T) {
	dir := t.TempDir()
	schema := alkaid.NewSchema([]datatype.Field{
		{Name: "id", Type: datatype.Int32, Nullable: true},
		{Name: "s", Type: datatype.String, Nullable: true},
	}, datatype.Metadata{})
	ids := arrayjson.MustParse(datatype.Int32, "[1, 2, 3]")
	okStr := arrayjson.MustParse(datatype.String, `["a", "b", "c"]`)
	// Row 2 of s is not UTF-8: structurally fine, caught by full validation.
	bad := array.MustMake(array.NewData(datatype.String, 3, []*memory.Buffer{nil,
		memory.FromSlice([]int32{0, 1, 2, 4}), memory.NewBuffer([]byte{'a', 'b', 0xff, 0xfe})}, nil, 0, 0))
	rec1, err := alkaid.NewRecord(schema, []array.Array{ids, okStr}, 3)
	require.NoError(t, err)
	rec2, err := alkaid.NewRecord(schema, []array.Array{ids, bad}, 3)
	require.NoError(t, err)
	for _, file := range []bool{false, true} {
		var buf bytes.Buffer
		var w alkaid.RecordWriter
		if file {
			w, err = ipc.NewFileWriter(&buf, schema)
		} else {
			w, err = ipc.NewStreamWriter(&buf, schema)
		}
		require.NoError(t, err)
		require.NoError(t, w.Write(rec1))
		require.NoError(t, w.Write(rec2))
		require.NoError(t, w.Close())
		path := filepath.Join(dir, "bad.ipcs")
		if file {
			path = filepath.Join(dir, "bad.ipc")
		}
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
		code, _, errs := cli(t, nil, "validate", path)
		require.Equal(t, 1, code, errs)
		require.Contains(t, errs, "record batch 1")
		require.Contains(t, errs, "column 1 (s)")
		require.Contains(t, strings.ToLower(errs), "utf-8")
		require.Contains(t, errs, "2") // the row
		if !file {
			require.Contains(t, errs, "message 2 (record batch 1) at byte")
		}
		require.Equal(t, 1, strings.Count(errs, "\n"), errs)
		// Default validation (cat) does not check UTF-8 and still prints.
		code, _, _ = cli(t, nil, "cat", path)
		require.Equal(t, 0, code)
	}
}

// Whatever the bytes, validate exits 0 or 1 with one line: never a panic.
func TestValidateCorruptBytes(t *testing.T) {
	dir := t.TempDir()
	for _, src := range []string{smallFile, smallStream} {
		raw, err := os.ReadFile(src)
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(1, 2))
		for i := range 150 {
			b := bytes.Clone(raw)
			switch i % 3 {
			case 0: // flip a few bytes
				for range 1 + r.IntN(4) {
					b[r.IntN(len(b))] ^= byte(1 + r.IntN(255))
				}
			case 1: // truncate
				b = b[:r.IntN(len(b))]
			case 2: // overwrite a run with garbage
				at := r.IntN(len(b))
				for j := at; j < min(len(b), at+8); j++ {
					b[j] = byte(r.Uint32())
				}
			}
			path := filepath.Join(dir, "corrupt"+filepath.Ext(src))
			require.NoError(t, os.WriteFile(path, b, 0o644))
			for _, cmd := range []string{"validate", "info", "schema", "cat"} {
				code, _, errs := cli(t, nil, cmd, path)
				require.Contains(t, []int{0, 1}, code, "%s on case %d: %s", cmd, i, errs)
				if code == 1 {
					require.Equal(t, 1, strings.Count(errs, "\n"), "%s case %d: %q", cmd, i, errs)
				}
			}
		}
	}
	// Empty input and text.
	for _, content := range []string{"", "hello, world\n", "ALKAID1\x00"} {
		path := filepath.Join(dir, "junk")
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		code, _, errs := cli(t, nil, "validate", path)
		require.Equal(t, 1, code)
		require.Contains(t, errs, "alkaid validate: ")
	}
	code, _, errs := cli(t, nil, "validate", filepath.Join(dir, "missing"))
	require.Equal(t, 1, code)
	require.Contains(t, errs, "no such file")
}

// A stream cut between two messages (no end-of-stream marker) is not
// valid: validate exits 1 and says where the marker is missing; the whole
// stream, and a stream of only a schema and its marker, are valid.
func TestValidateMissingEndMarker(t *testing.T) {
	raw, err := os.ReadFile(smallStream)
	require.NoError(t, err)
	require.Equal(t, []byte{0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0}, raw[len(raw)-8:])
	dir := t.TempDir()
	cut := filepath.Join(dir, "cut.ipcs")
	require.NoError(t, os.WriteFile(cut, raw[:len(raw)-8], 0o644))
	code, _, errs := cli(t, nil, "validate", cut)
	require.Equal(t, exitInvalid, code)
	require.Contains(t, errs, "without its end-of-stream marker")
	code, _, errs = cli(t, raw[:len(raw)-8], "validate", "-")
	require.Equal(t, exitInvalid, code)
	require.Contains(t, errs, "without its end-of-stream marker")
	code, _, _ = cli(t, raw, "validate", "-")
	require.Equal(t, exitOK, code)

	// The library tells the two ends apart too.
	for _, c := range []struct {
		in     []byte
		marker bool
	}{{raw, true}, {raw[:len(raw)-8], false}} {
		r, err := ipc.NewStreamReader(bytes.NewReader(c.in))
		require.NoError(t, err)
		for _, err := range r.Records() {
			require.NoError(t, err)
		}
		require.Equal(t, c.marker, r.EndMarker())
	}
}
