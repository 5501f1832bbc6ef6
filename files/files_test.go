package files_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/csv"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/ipc"
	"github.com/alkaid-go/alkaid/ndjson"
	"github.com/alkaid-go/alkaid/parquet"
)

var schema = alkaid.NewSchema([]datatype.Field{
	{Name: "id", Type: datatype.Int64, Nullable: true},
	{Name: "name", Type: datatype.String, Nullable: true},
}, datatype.Metadata{})

// table is two record batches of schema.
func table(t *testing.T) *alkaid.Table {
	t.Helper()
	a := must(alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.Int64, "[1, null, 3]"),
		arrayjson.MustParse(datatype.String, `["ann", "bo", null]`),
	}, -1))
	b := must(alkaid.NewRecord(schema, []array.Array{
		arrayjson.MustParse(datatype.Int64, "[4]"),
		arrayjson.MustParse(datatype.String, `["cy"]`),
	}, -1))
	return must(alkaid.TableFromRecords(schema, []*alkaid.Record{a, b}))
}

// must returns v, panicking (failing the test) on err.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func checkEqual(t *testing.T, got, want *alkaid.Table) {
	t.Helper()
	if !got.Schema().Equal(want.Schema()) {
		t.Fatalf("schema\n%s\nwant\n%s", got.Schema(), want.Schema())
	}
	if got.String() != want.String() {
		t.Fatalf("table\n%s\nwant\n%s", got, want)
	}
}

// textOptions make the text readers read schema exactly (no inference).
var textOptions = []files.Option{
	files.WithCSVOptions(csv.WithSchema(schema)),
	files.WithNDJSONOptions(ndjson.WithSchema(schema)),
}

// writeWith writes tbl to name with a format's own writer, not through
// package files.
func writeWith(newWriter func(io.Writer) (alkaid.RecordWriter, error)) func(t *testing.T, name string, tbl *alkaid.Table) {
	return func(t *testing.T, name string, tbl *alkaid.Table) {
		f := must(os.Create(name))
		defer f.Close()
		w := must(newWriter(f))
		if _, err := alkaid.Copy(w, tbl); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestOpenEveryFormat(t *testing.T) {
	tests := []struct {
		name   string // the file's name: its extension tells the text formats
		format files.Format
		write  func(t *testing.T, name string, tbl *alkaid.Table)
	}{
		{"data.ipcs", files.FormatIPCStream, writeWith(func(w io.Writer) (alkaid.RecordWriter, error) { return ipc.NewStreamWriter(w, schema) })},
		{"data.ipc", files.FormatIPCFile, writeWith(func(w io.Writer) (alkaid.RecordWriter, error) { return ipc.NewFileWriter(w, schema) })},
		{"data.arrow", files.FormatIPCFile, writeWith(func(w io.Writer) (alkaid.RecordWriter, error) {
			return ipc.NewFileWriter(w, schema, ipc.WithArrowCompat())
		})},
		{"data.parquet", files.FormatParquet, writeWith(func(w io.Writer) (alkaid.RecordWriter, error) { return parquet.NewWriter(w, schema) })},
		{"data.csv", files.FormatCSV, writeWith(func(w io.Writer) (alkaid.RecordWriter, error) { return csv.NewWriter(w, schema) })},
		{"data.ndjson", files.FormatNDJSON, writeWith(func(w io.Writer) (alkaid.RecordWriter, error) { return ndjson.NewWriter(w, schema) })},
		// The content decides, not the extension.
		{"stream-named.parquet.bin", files.FormatIPCStream, writeWith(func(w io.Writer) (alkaid.RecordWriter, error) { return ipc.NewStreamWriter(w, schema) })},
	}
	want := table(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := filepath.Join(t.TempDir(), tt.name)
			tt.write(t, name, want)
			f := must(os.Open(name))
			defer f.Close()
			st := must(f.Stat())
			if got, err := files.Detect(f, st.Size(), name); err != nil || got != tt.format {
				t.Fatalf("Detect = %v, %v; want %v", got, err, tt.format)
			}
			r, err := files.Open(name, textOptions...)
			if err != nil {
				t.Fatal(err)
			}
			checkEqual(t, must(alkaid.ReadAll(r)), want)
			if err := r.Close(); err != nil {
				t.Fatal(err)
			}
			if err := r.Close(); err != nil {
				t.Fatalf("second Close: %v", err)
			}
		})
	}
}

func TestCreateEveryFormat(t *testing.T) {
	tests := []struct {
		name   string
		opts   []files.Option
		format files.Format // what Detect finds in the file written
	}{
		{"out.ipcs", nil, files.FormatIPCStream},
		{"out.arrows", nil, files.FormatIPCStream},
		{"out.ipc", nil, files.FormatIPCFile},
		{"out.arrow", []files.Option{files.WithIPCOptions(ipc.WithArrowCompat())}, files.FormatIPCFile},
		{"out.feather", nil, files.FormatIPCFile},
		{"out.parquet", []files.Option{files.WithParquetOptions(parquet.WithCompression(parquet.Zstd, 0))}, files.FormatParquet},
		{"out.csv", nil, files.FormatCSV},
		{"out.tsv", nil, files.FormatCSV},
		{"out.ndjson", nil, files.FormatNDJSON},
		{"out.jsonl", nil, files.FormatNDJSON},
		{"out.bin", []files.Option{files.WithFormat(files.FormatParquet)}, files.FormatParquet},
	}
	want := table(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, tt.name)
			w, err := files.Create(name, schema, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			var rw alkaid.RecordWriter = w
			if _, err := alkaid.Copy(rw, want); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(name); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("%s exists before Close (%v)", name, err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if entries := must(os.ReadDir(dir)); len(entries) != 1 {
				t.Fatalf("directory holds %d files after Close, want 1", len(entries))
			}
			f := must(os.Open(name))
			defer f.Close()
			st := must(f.Stat())
			if got, err := files.Detect(f, st.Size(), name); err != nil || got != tt.format {
				t.Fatalf("Detect = %v, %v; want %v", got, err, tt.format)
			}
			opts := append([]files.Option{files.WithFormat(tt.format)}, textOptions...)
			r := must(files.Open(name, opts...))
			defer r.Close()
			checkEqual(t, must(alkaid.ReadAll(r)), want)
		})
	}
}

func TestTSVUsesTabs(t *testing.T) {
	name := filepath.Join(t.TempDir(), "x.tsv")
	w := must(files.Create(name, schema))
	if _, err := alkaid.Copy(w, table(t)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := string(must(os.ReadFile(name)))
	if !strings.HasPrefix(data, "id\tname\n") {
		t.Fatalf("a .tsv file starts %q", data[:min(len(data), 20)])
	}
}

// A file at the path is replaced only by a complete new one.
func TestCreateKeepsTheOldFile(t *testing.T) {
	for _, end := range []string{"abort", "write error"} {
		t.Run(end, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "out.ipc")
			if err := os.WriteFile(name, []byte("old"), 0o600); err != nil {
				t.Fatal(err)
			}
			w := must(files.Create(name, schema))
			if _, err := alkaid.Copy(w, table(t)); err != nil {
				t.Fatal(err)
			}
			var err error
			if end == "abort" {
				err = w.Abort()
			} else {
				other := alkaid.NewSchema([]datatype.Field{{Name: "x", Type: datatype.Int8}}, datatype.Metadata{})
				rec := must(alkaid.NewRecord(other, []array.Array{arrayjson.MustParse(datatype.Int8, "[1]")}, -1))
				if werr := w.Write(rec); werr == nil {
					t.Fatal("a record of another schema was written")
				}
				if err = w.Close(); err == nil {
					t.Fatal("Close after a write error returned nil")
				}
				err = nil
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := string(must(os.ReadFile(name))); got != "old" {
				t.Fatalf("the file holds %q, want the old content", got)
			}
			if st := must(os.Stat(name)); st.Mode().Perm() != 0o600 {
				t.Fatalf("mode %v changed", st.Mode())
			}
			if entries := must(os.ReadDir(dir)); len(entries) != 1 {
				t.Fatalf("directory holds %d files, want 1 (temporary file left)", len(entries))
			}
		})
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    files.Format
		err     error
	}{
		{"a", "PAR1xxxxPAR1", files.FormatParquet, nil},
		{"a", "PARExxxx", files.FormatParquet, nil},
		{"a", "ALKAID1\x00", files.FormatIPCFile, nil},
		{"a", "ARROW1\x00\x00", files.FormatIPCFile, nil},
		{"a.csv", "\xff\xff\xff\xff\x10\x00", files.FormatIPCStream, nil},
		{"a.CSV", "x,y\n", files.FormatCSV, nil},
		{"a.tsv", "x\ty\n", files.FormatCSV, nil},
		{"a.json", "{}", files.FormatNDJSON, nil},
		{"a.jsonl", "", files.FormatNDJSON, nil},
		{"a.ndjson", "{}", files.FormatNDJSON, nil},
		{"a.parquet", "PAR", 0, datatype.ErrInvalid},
		{"a.arrow", "", 0, datatype.ErrInvalid},
		{"a.txt", "x", 0, files.ErrUnknownFormat},
		{"a", "", 0, datatype.ErrNotSupported},
	}
	for _, tt := range tests {
		ra := strings.NewReader(tt.content)
		got, err := files.Detect(ra, int64(len(tt.content)), tt.name)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("Detect(%q, %q) error %v, want %v", tt.name, tt.content, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Detect(%q, %q) = %v, %v; want %v", tt.name, tt.content, got, err, tt.want)
		}
	}
}

func TestOptionErrors(t *testing.T) {
	name := filepath.Join(t.TempDir(), "x.ipcs")
	w := must(files.Create(name, schema))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		what string
		err  error
		text string
	}{
		{"writer option to Open", openErr(name, files.WithIPCOptions(ipc.WithAlignment(64))), "ipc: invalid: WithAlignment is a writer option"},
		{"reader option to Create", createErr(name+"2.parquet", files.WithParquetOptions(parquet.WithStoredSchemaWarnings())), "WithStoredSchemaWarnings is an option of a reader"},
		{"reader option to Create (csv)", createErr(name+"2.csv", files.WithCSVOptions(csv.WithSkipRows(1))), "WithSkipRows"},
		{"unknown format", openErr(name, files.WithFormat(files.Format(42))), "WithFormat(42)"},
		{"no format for NewWriter", func() error { _, err := files.NewWriter(io.Discard, schema); return err }(), "WithFormat"},
		{"unknown extension", createErr(name+".xyz", nil), "WithFormat"},
		{"a directory", openErr(filepath.Dir(name), nil), "directory"},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, datatype.ErrInvalid) && !errors.Is(tt.err, datatype.ErrNotSupported) {
			t.Errorf("%s: error %v wraps no sentinel", tt.what, tt.err)
		}
		// A format package's refusal keeps its own prefix, after the path.
		if tt.err == nil || !strings.Contains(tt.err.Error(), tt.text) || !strings.HasPrefix(tt.err.Error(), "files: ") && !strings.HasPrefix(tt.err.Error(), name+": ") {
			t.Errorf("%s: error %v, want files: … %s …", tt.what, tt.err, tt.text)
		}
	}
}

func openErr(name string, opt files.Option) error {
	var opts []files.Option
	if opt != nil {
		opts = append(opts, opt)
	}
	r, err := files.Open(name, opts...)
	if err == nil {
		r.Close()
	}
	return err
}

func createErr(name string, opt files.Option) error {
	var opts []files.Option
	if opt != nil {
		opts = append(opts, opt)
	}
	w, err := files.Create(name, schema, opts...)
	if err == nil {
		w.Abort()
	}
	return err
}

// OpenReaderAt leaves its input open, and an IPC file's reader is the ipc
// package's own (its random access reachable).
func TestOpenReaderAt(t *testing.T) {
	name := filepath.Join(t.TempDir(), "x.ipc")
	w := must(files.Create(name, schema))
	if _, err := alkaid.Copy(w, table(t)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f := must(os.Open(name))
	defer f.Close()
	st := must(f.Stat())
	r := must(files.OpenReaderAt(f, st.Size(), name))
	fr, ok := r.(*ipc.FileReader)
	if !ok {
		t.Fatalf("an IPC file opens as %T", r)
	}
	if fr.NumRecords() != 2 {
		t.Fatalf("NumRecords = %d, want 2", fr.NumRecords())
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ReadAt(make([]byte, 1), 0); err != nil {
		t.Fatalf("the file was closed: %v", err)
	}
}

// FuzzOpenReaderAt opens any bytes under each name and reads them: an
// error or records, never a panic.
func FuzzOpenReaderAt(f *testing.F) {
	f.Add([]byte("PAR1\x00\x00PAR1"), "x")
	f.Add([]byte("ARROW1\x00\x00"), "x")
	f.Add([]byte("\xff\xff\xff\xff\x08\x00\x00\x00"), "x")
	f.Add([]byte("a,b\n1,2\n"), "x.csv")
	f.Add([]byte("a\tb\n1\t2\n"), "x.tsv")
	f.Add([]byte(`{"a":1}`+"\n"), "x.ndjson")
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		r, err := files.OpenReaderAt(strings.NewReader(string(data)), int64(len(data)), name)
		if err != nil {
			return
		}
		defer r.Close()
		for _, err := range r.Records() {
			if err != nil {
				return
			}
		}
	})
}

// A reader's error names the file once: Open puts the path before it,
// OpenReaderAt leaves naming to its caller (package dataset adds the
// dataset's path).
func TestErrorsNameTheFileOnce(t *testing.T) {
	name := filepath.Join(t.TempDir(), "bad.ndjson")
	data := "{\"a\": 1}\n{\"a\": \n"
	// Inference reads the first line only: the second fails in Records.
	opts := []files.Option{files.WithNDJSONOptions(ndjson.WithInferRows(1))}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	read := func(r alkaid.RecordReader, err error) error {
		if err != nil {
			t.Fatalf("open: %v, want the error from Records", err)
		}
		defer r.Close()
		_, err = alkaid.ReadAll(r)
		return err
	}
	err := read(files.Open(name, opts...))
	if err == nil || strings.Count(err.Error(), "bad.ndjson") != 1 || !errors.Is(err, datatype.ErrInvalid) {
		t.Errorf("Open: %v, want one mention of the file and ErrInvalid", err)
	}
	err = read(files.OpenReaderAt(strings.NewReader(data), int64(len(data)), "bad.ndjson", opts...))
	if err == nil || strings.Contains(err.Error(), "bad.ndjson") || !errors.Is(err, datatype.ErrInvalid) {
		t.Errorf("OpenReaderAt: %v, want no mention of the file and ErrInvalid", err)
	}
}
