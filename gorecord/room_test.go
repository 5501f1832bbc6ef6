package gorecord

import (
	"errors"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// roomLimited is a string builder with room for limit value bytes.
type roomLimited struct {
	used, limit int
	got         []string
}

var errNoRoom = errors.New("no room")

func (r *roomLimited) AppendString(s string) { r.used += len(s); r.got = append(r.got, s) }
func (r *roomLimited) AppendNull()           { r.got = append(r.got, "<null>") }
func (r *roomLimited) AppendNulls(n int) {
	for range n {
		r.AppendNull()
	}
}
func (r *roomLimited) AppendEmptyValue() { r.got = append(r.got, "") }
func (r *roomLimited) CheckRoom(n int) error {
	if r.used+n > r.limit {
		return errNoRoom
	}
	return nil
}

// TestPointerStringsCheckRoom: a *string column stops with the builder's
// error at the first value that does not fit, having appended the rows
// before it and nothing of it.
func TestPointerStringsCheckRoom(t *testing.T) {
	a, b, c := "abcd", "efgh", "ij"
	rows := []*string{&a, nil, &b, &c}
	r := &roomLimited{limit: 9}
	e := &ptrStringEnc{b: r}
	err := e.appendRows(unsafe.Pointer(&rows[0]), unsafe.Sizeof(rows[0]), len(rows))
	require.ErrorIs(t, err, errNoRoom)
	require.Equal(t, []string{"abcd", "<null>", "efgh"}, r.got)

	r = &roomLimited{limit: 10}
	e = &ptrStringEnc{b: r}
	require.NoError(t, e.appendRows(unsafe.Pointer(&rows[0]), unsafe.Sizeof(rows[0]), len(rows)))
	require.Equal(t, []string{"abcd", "<null>", "efgh", "ij"}, r.got)
}
