package interop

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/flatbuf"
	"github.com/alkaid-go/alkaid/ipc"
)

// alkaidChildNames lists the names of t's nested fields depth first, as
// peer.mjs's childNames does.
func alkaidChildNames(t datatype.DataType) []string {
	out := []string{}
	for _, c := range datatype.Children(datatype.StorageOf(t)) {
		out = append(out, c.Name)
		out = append(out, alkaidChildNames(c.Type)...)
	}
	return out
}

// requireNoLeadingSchema checks that a file's stream part does not start
// with a schema message (Arrow JS starts it at the first batch, or the
// end-of-stream marker) and that Alkaid reads it through the footer with
// strict checking and no warning.
func requireNoLeadingSchema(t *testing.T, file []byte) {
	t.Helper()
	m, err := ipc.ReadMessage(bytes.NewReader(file[8:]))
	if err == nil {
		require.NotEqual(t, ipc.MessageSchema, m.Type(), "the file starts with a schema message")
	}
	fr, err := ipc.NewFileReader(bytes.NewReader(file), int64(len(file)), ipc.WithValidation(array.ValidateFull), ipc.WithStrictSchemaMessage())
	require.NoError(t, err)
	require.Empty(t, fr.Warnings())
}

// dropLeadingSchema removes the leading schema message of a file Alkaid
// wrote and moves the footer's blocks back by as much: the file layout
// Arrow JS writes.
func dropLeadingSchema(t *testing.T, file []byte) []byte {
	t.Helper()
	r := bytes.NewReader(file[8:])
	m, err := ipc.ReadMessage(r)
	require.NoError(t, err)
	require.Equal(t, ipc.MessageSchema, m.Type())
	n := len(file) - 8 - r.Len()
	out := append(bytes.Clone(file[:8]), file[8+n:]...)
	tail := len(ipc.ArrowMagic) + 4
	size := int(binary.LittleEndian.Uint32(out[len(out)-tail:]))
	ft := flatbuf.GetRootAsFooter(out[len(out)-tail-size:], 0)
	var b flatbuf.Block
	for i := range ft.RecordBatchesLength() {
		require.True(t, ft.RecordBatches(&b, i))
		require.True(t, b.MutateOffset(b.Offset()-int64(n)))
	}
	for i := range ft.DictionariesLength() {
		require.True(t, ft.Dictionaries(&b, i))
		require.True(t, b.MutateOffset(b.Offset()-int64(n)))
	}
	return out
}

// TestJSReadsBackAlkaidCopies: what apache-arrow wrote (a list child
// named "" included), read by Alkaid and written again as a stream, a
// file, and a file without a leading schema message, reads back in
// apache-arrow with the same field names, child names and values as its
// own original.
func TestJSReadsBackAlkaidCopies(t *testing.T) {
	node, script := jsPeer(t)
	dir := t.TempDir()
	stream, file, empty := filepath.Join(dir, "js.arrows"), filepath.Join(dir, "js.arrow"), filepath.Join(dir, "js_empty.arrow")
	runJSPeer(t, node, script, "write", stream, file, empty)

	type copyOf struct{ original, path string }
	var copies []copyOf
	paths := []string{stream, file, empty}
	for _, orig := range []string{stream, file, empty} {
		raw, err := os.ReadFile(orig)
		require.NoError(t, err)
		var schema *alkaid.Schema
		var recs []*alkaid.Record
		schema, recs = readAlkaid(t, raw, ipc.DetectMagic(raw) != "")
		base := filepath.Base(orig)
		for _, c := range []struct {
			suffix string
			bytes  []byte
		}{
			{".copy.arrows", writeAlkaid(t, schema, recs, false)},
			{".copy.arrow", writeAlkaid(t, schema, recs, true)},
			{".nolead.arrow", dropLeadingSchema(t, writeAlkaid(t, schema, recs, true))},
		} {
			p := filepath.Join(dir, base+c.suffix)
			require.NoError(t, os.WriteFile(p, c.bytes, 0o644))
			copies = append(copies, copyOf{orig, p})
			paths = append(paths, p)
		}
	}

	var got map[string]jsRead
	require.NoError(t, json.Unmarshal(runJSPeer(t, node, script, append([]string{"read"}, paths...)...), &got))
	unnamed := false
	for _, c := range copies {
		t.Run(filepath.Base(c.path), func(t *testing.T) {
			want, back := got[c.original], got[c.path]
			require.Empty(t, want.Error)
			require.Empty(t, back.Error)
			require.Len(t, back.Fields, len(want.Fields))
			for i, f := range want.Fields {
				b := back.Fields[i]
				require.Equal(t, f.Name, b.Name)
				require.Equal(t, f.Type, b.Type, "%s", f.Name)
				require.Equal(t, f.Nullable, b.Nullable, "%s", f.Name)
				require.Equal(t, f.ChildNames, b.ChildNames, "%s: child names", f.Name)
				if f.Name == "list_unnamed" {
					require.Equal(t, []string{""}, b.ChildNames)
					unnamed = true
				}
			}
			require.True(t, reflect.DeepEqual(want.Batches, back.Batches), "values differ")
		})
	}
	require.True(t, unnamed, "the list with an empty child name was checked")
}
