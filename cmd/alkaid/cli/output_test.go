package cli

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"
	"github.com/stretchr/testify/require"

	fb "github.com/alkaid-go/alkaid/internal/flatbuf"

	"github.com/alkaid-go/alkaid/files"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/ipc"
)

// unchanged requires path to hold want still.
func unchanged(t *testing.T, path string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got), "%s changed (%d bytes, was %d)", path, len(got), len(want))
}

// noTemporaries requires dir to hold no temporary output files.
func noTemporaries(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range ents {
		require.NotContains(t, e.Name(), ".tmp-", "left behind in %s", dir)
	}
}

// Every command that writes a file refuses to write onto one of its
// inputs, however the path is spelled (another spelling, a hard link, a
// symbolic link), and leaves the input as it was (issue item 8).
func TestOutputNeverAnInput(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "x.csv")
	var csv strings.Builder
	csv.WriteString("a,b\n")
	for i := range 3000 {
		fmt.Fprintf(&csv, "%d,value %d\n", i, i)
	}
	require.NoError(t, os.WriteFile(csvPath, []byte(csv.String()), 0o644))
	ipcPath := filepath.Join(dir, "x.ipc")
	mustCLI(t, "gen", "-rows", "100", "-batches", "3", "-seed", "5", "-columns", "int64,utf8", "-o", ipcPath)
	ipcRaw, err := os.ReadFile(ipcPath)
	require.NoError(t, err)
	hard := filepath.Join(dir, "hard.ipc")
	require.NoError(t, os.Link(ipcPath, hard))
	sym := filepath.Join(dir, "sym.ipc")
	require.NoError(t, os.Symlink(ipcPath, sym))
	other := dir + "/sub/../x.ipc" // not cleaned
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	csvHard := filepath.Join(dir, "hard.csv")
	require.NoError(t, os.Link(csvPath, csvHard))
	jsonPath := filepath.Join(dir, "x.json")

	for _, args := range [][]string{
		{"import", csvPath, csvPath},
		{"import", "-to", "stream", csvPath, csvHard},
		{"export", ipcPath, ipcPath},
		{"export", "-format", "csv", ipcPath, hard},
		{"export", "-format", "csv", ipcPath, other},
		{"convert", ipcPath, hard},
		{"convert", ipcPath, sym},
		{"convert", ipcPath, other},
		{"convert", "-to", "file", sym, ipcPath},
		{"integration", "-mode", "ARROW_TO_JSON", "-arrow", ipcPath, "-json", hard},
	} {
		code, _, errs := cli(t, nil, args...)
		require.Equal(t, exitUsage, code, "%v: %s", args, errs)
		require.Contains(t, errs, "is the same file as input", "%v", args)
		unchanged(t, csvPath, []byte(csv.String()))
		unchanged(t, ipcPath, ipcRaw)
	}
	noTemporaries(t, dir)
	// Distinct files are fine, and the outputs are complete.
	mustCLI(t, "import", csvPath, filepath.Join(dir, "y.ipc"))
	mustCLI(t, "export", filepath.Join(dir, "y.ipc"), filepath.Join(dir, "y.csv"))
	unchanged(t, filepath.Join(dir, "y.csv"), []byte(csv.String()))
	mustCLI(t, "integration", "-mode", "ARROW_TO_JSON", "-arrow", ipcPath, "-json", jsonPath)
	noTemporaries(t, dir)
}

// A command that fails leaves a file already at its output path as it
// was; an output with complete record batches is kept beside it, at
// OUT.partial, and the error says so (issue item 8).
func TestFailedOutputKeepsExistingFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.ipc")
	old := []byte("an existing file at the output path")
	require.NoError(t, os.WriteFile(out, old, 0o600))

	// A stream corrupt after two good batches: convert writes those two,
	// then fails.
	src := filepath.Join(dir, "src.ipcs")
	mustCLI(t, "gen", "-rows", "30", "-batches", "3", "-seed", "2", "-columns", "int64,utf8", "-to", "stream", "-o", src)
	raw, err := os.ReadFile(src)
	require.NoError(t, err)
	var offsets []int64
	require.NoError(t, scanMessages(bytes.NewReader(raw), 0, func(mi msgInfo, _ *ipc.Message) error {
		if mi.typ == ipc.MessageRecordBatch {
			offsets = append(offsets, mi.offset)
		}
		return nil
	}))
	require.Len(t, offsets, 3)
	bad := bytes.Clone(raw)
	for i := offsets[2] + 8; i < offsets[2]+16; i++ {
		bad[i] = 0xEE // the third batch's metadata
	}
	require.NoError(t, os.WriteFile(src, bad, 0o644))
	code, _, errs := cli(t, nil, "convert", src, out)
	require.Equal(t, exitInvalid, code)
	require.Contains(t, errs, "wrote 2 record batches")
	require.Contains(t, errs, out+".partial")
	unchanged(t, out, old)
	require.Contains(t, mustCLI(t, "validate", out+".partial"), "2 record batches, 20 rows")
	noTemporaries(t, dir)

	// Refused before any batch (a header wider than the IPC writer takes,
	// ipc.DefaultLimits.MaxTables/2 columns, is refused by the csv reader
	// already, past its own column limit; TestImportHeaderOverMetadataLimit
	// has the writer refuse): nothing is kept and the existing file stays.
	require.NoError(t, os.Remove(out+".partial"))
	var csv strings.Builder
	n := ipc.DefaultLimits.MaxTables/2 + 1 // a Field and a type table each
	for i := range n {
		if i > 0 {
			csv.WriteByte(',')
		}
		fmt.Fprintf(&csv, "c%d", i)
	}
	csv.WriteString("\n")
	csv.WriteString(strings.Repeat("1,", n-1) + "1\n")
	wide := filepath.Join(dir, "wide.csv")
	require.NoError(t, os.WriteFile(wide, []byte(csv.String()), 0o644))
	code, _, errs = cli(t, nil, "import", wide, out)
	require.Equal(t, exitInvalid, code)
	require.Contains(t, errs, "more than 65536 columns")
	unchanged(t, out, old)
	_, err = os.Stat(out + ".partial")
	require.True(t, errors.Is(err, os.ErrNotExist))
	noTemporaries(t, dir)
}

// The mechanism itself: a write that fails after two batches (a full
// disk, say) keeps them in OUT.partial, readable as a stream; the file at
// OUT is untouched; a successful close replaces it, keeping its mode.
func TestOutputAbortKeepsBatches(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "o.ipc")
	require.NoError(t, os.WriteFile(out, []byte("old"), 0o640))
	s := randdata.AllTypes()
	g := randdata.New(1)
	o, err := createOutput(out, s, files.FormatIPCFile, nil)
	require.NoError(t, err)
	for range 2 {
		require.NoError(t, o.write(g.Record(s, 5), nil))
	}
	err = o.abort(errors.New("disk full"))
	require.ErrorContains(t, err, "disk full")
	require.ErrorContains(t, err, out+".partial")
	unchanged(t, out, []byte("old"))
	r, err := ipc.NewStreamReader(bytes.NewReader(must(os.ReadFile(out + ".partial"))))
	require.NoError(t, err)
	batches := 0
	for _, err := range r.Records() {
		require.NoError(t, err)
		batches++
	}
	require.Equal(t, 2, batches)
	noTemporaries(t, dir)

	o, err = createOutput(out, s, files.FormatIPCStream, nil)
	require.NoError(t, err)
	require.NoError(t, o.write(g.Record(s, 5), nil))
	unchanged(t, out, []byte("old")) // nothing in place before close
	require.NoError(t, o.close())
	st, err := os.Stat(out)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o640), st.Mode().Perm())
	require.Contains(t, mustCLI(t, "validate", out), "1 record batches, 5 rows")
	noTemporaries(t, dir)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// sharedMetadataStream is a stream whose schema's refs key-value entries
// all point at one table holding a string of size bytes (small on disk,
// refs × size bytes once copied out).
func sharedMetadataStream(refs, size int) []byte {
	b := flatbuffers.NewBuilder(size + 8*refs + 1024)
	long := b.CreateString(strings.Repeat("v", size))
	key := b.CreateString("k")
	fb.KeyValueStart(b)
	fb.KeyValueAddKey(b, key)
	fb.KeyValueAddValue(b, long)
	kv := fb.KeyValueEnd(b)
	fb.SchemaStartCustomMetadataVector(b, refs)
	for range refs {
		b.PrependUOffsetT(kv)
	}
	md := b.EndVector(refs)
	fb.SchemaStartFieldsVector(b, 0)
	fields := b.EndVector(0)
	fb.SchemaStart(b)
	fb.SchemaAddFields(b, fields)
	fb.SchemaAddCustomMetadata(b, md)
	schema := fb.SchemaEnd(b)
	fb.MessageStart(b)
	fb.MessageAddVersion(b, fb.MetadataVersionV5)
	fb.MessageAddHeaderType(b, fb.MessageHeaderSchema)
	fb.MessageAddHeader(b, schema)
	b.Finish(fb.MessageEnd(b))
	meta := b.FinishedBytes()
	meta = append(meta, make([]byte, (8-len(meta)%8)%8)...)
	out := binary.LittleEndian.AppendUint32(nil, 0xFFFFFFFF)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(meta)))
	out = append(out, meta...)
	return append(out, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0)
}

// The 1 MB stream of issue items 1 and 2 (1,000 metadata entries sharing
// one 1 MiB string): schema, validate and convert exit 1 naming the
// limit, allocate a small multiple of the input, and convert leaves no
// output (it used to panic past 2 GiB in the writer, leaving 0 bytes).
func TestSharedMetadataCommands(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "shared.ipcs")
	raw := sharedMetadataStream(1000, 1<<20)
	require.Less(t, len(raw), 1<<21)
	require.NoError(t, os.WriteFile(in, raw, 0o644))
	out := filepath.Join(dir, "out.ipcs")
	for _, args := range [][]string{{"schema", in}, {"validate", in}, {"convert", in, out}} {
		var ms0, ms1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		code, _, errs := cli(t, nil, args...)
		runtime.ReadMemStats(&ms1)
		require.Equal(t, exitInvalid, code, "%v", args)
		require.Contains(t, errs, "MaxMetadataExpansion", "%v", args)
		require.Less(t, ms1.TotalAlloc-ms0.TotalAlloc, uint64(64<<20), "%v allocated %d bytes", args, ms1.TotalAlloc-ms0.TotalAlloc)
	}
	_, err := os.Stat(out)
	require.True(t, errors.Is(err, os.ErrNotExist))
	noTemporaries(t, dir)
}

// A command killed while writing (kill -9) left ".Y.parquet.tmp-*" files
// for ever: temporary files carry the writer's process id, and the next
// write of the same output removes those whose process is gone, leaving
// a running writer's file and anything else alone.
func TestStaleTemporaryRemovedOnNextWrite(t *testing.T) {
	if !processAlive(os.Getpid()) {
		t.Skip("processAlive cannot tell on this platform")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "y.parquet")
	// The id of a process that has exited.
	done := exec.Command(os.Args[0], "-test.run=^$")
	require.NoError(t, done.Run())
	dead := done.Process.Pid
	stale := filepath.Join(dir, fmt.Sprintf(".y.parquet.tmp-%d-123", dead))
	running := filepath.Join(dir, fmt.Sprintf(".y.parquet.tmp-%d-456", os.Getppid()))
	other := filepath.Join(dir, fmt.Sprintf(".z.parquet.tmp-%d-789", dead))
	unnamed := filepath.Join(dir, ".y.parquet.tmp-notes")
	for _, p := range []string{stale, running, other, unnamed} {
		require.NoError(t, os.WriteFile(p, []byte("partial"), 0o644))
	}
	mustCLI(t, "gen", "-rows", "10", "-columns", "int64", "-o", out)
	require.NoFileExists(t, stale)
	for _, p := range []string{running, other, unnamed} {
		require.FileExists(t, p)
	}
	require.FileExists(t, out)
}
