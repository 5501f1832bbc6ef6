package integration

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/datatype"
)

// TestListChildNamesKept: a list child named "" (as some writers name it)
// or anything else is read from JSON, written to JSON and to IPC, and read
// back with its name exactly.
func TestListChildNamesKept(t *testing.T) {
	for _, name := range []string{"", "element"} {
		f := readString(t, `{"schema": {"fields": [
  {"name": "l", "nullable": true, "type": {"name": "list"}, "children": [
    {"name": "`+name+`", "nullable": true, "type": {"name": "int", "isSigned": true, "bitWidth": 32}, "children": []}]},
  {"name": "f", "nullable": true, "type": {"name": "fixedsizelist", "listSize": 1}, "children": [
    {"name": "`+name+`", "nullable": false, "type": {"name": "utf8"}, "children": []}]}]},
 "batches": [{"count": 2, "columns": [
  {"name": "l", "count": 2, "VALIDITY": [1, 0], "OFFSET": [0, 1, 1], "children": [
    {"name": "`+name+`", "count": 1, "VALIDITY": [1], "DATA": [5]}]},
  {"name": "f", "count": 2, "VALIDITY": [1, 1], "children": [
    {"name": "`+name+`", "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 1, 2], "DATA": ["a", "b"]}]}]}]}`)
		elemNames := func(file *File) []string {
			var out []string
			for _, fl := range file.Schema.Fields() {
				out = append(out, fl.Type.(*datatype.ListType).Elem().Name)
			}
			return out
		}
		require.Equal(t, []string{name, name}, elemNames(f))
		require.Equal(t, []string{name, name}, elemNames(roundTrip(t, f)))
		var buf bytes.Buffer
		require.NoError(t, WriteIPCStream(&buf, f))
		back, err := ReadIPCStream(&buf)
		require.NoError(t, err)
		require.Equal(t, []string{name, name}, elemNames(back))
		require.NoError(t, Compare(f, back))
	}
}
