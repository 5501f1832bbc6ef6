package ipc

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/array"
	"github.com/alkaid-go/alkaid/array/arrayjson"
	"github.com/alkaid-go/alkaid/datatype"
	"github.com/alkaid-go/alkaid/internal/randdata"
	"github.com/alkaid-go/alkaid/memory"
)

func TestSharesPrefix(t *testing.T) {
	g := randdata.New(12)
	strs := g.Array(datatype.String, 50, true).Data()
	lists := g.Array(datatype.ListOf(datatype.StringView), 50, true).Data()
	same := arrayjson.MustParse(datatype.Int64, `[1, 2, 3]`).Data()
	copyOf := arrayjson.MustParse(datatype.Int64, `[1, 2, 3, 4]`).Data()
	other := arrayjson.MustParse(datatype.Int64, `[1, 9, 3, 4]`).Data()
	noNulls := arrayjson.MustParse(datatype.Int64, `[1, 2]`).Data()
	withBitmap := *noNulls
	withBitmap.Buffers = []*memory.Buffer{memory.NewBuffer([]byte{3}), noNulls.Buffers[1]}
	moreViews := *lists.Children[0]
	moreViews.Buffers = append(append([]*memory.Buffer(nil), moreViews.Buffers...), memory.NewBuffer([]byte("extra")))
	listMoreViews := *lists
	listMoreViews.Children = []*array.Data{&moreViews}
	for _, c := range []struct {
		name          string
		prev, d       *array.Data
		shares, grows bool
	}{
		{"shorter slice of the same strings", strs.Slice(0, 20), strs, true, true},
		{"shorter slice of the same lists", lists.Slice(0, 20), lists.Slice(0, 49), true, true},
		{"the same", strs, strs, true, true},
		{"a later slice", strs.Slice(1, 20), strs, false, false},
		{"longer than d", strs, strs.Slice(0, 20), false, false},
		{"equal values in other memory", same, copyOf, false, true},
		{"different values", same, other, false, false},
		{"a bitmap where there was none", noNulls, &withBitmap, false, true},
		{"one more view buffer", lists.Slice(0, 30), &listMoreViews, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.shares, sharesPrefix(c.prev, c.d), "sharesPrefix")
			require.Equal(t, c.grows, extends(c.prev, c.d), "extends")
		})
	}
}

func TestNestedDicts(t *testing.T) {
	dt, err := datatype.NewDictionary(datatype.Int8, datatype.String, false)
	require.NoError(t, err)
	typ := datatype.StructOf(datatype.Field{Name: "a", Type: dt, Nullable: true},
		datatype.Field{Name: "b", Type: datatype.ListOf(dt), Nullable: true})
	d := randdata.New(13).Array(typ, 10, true).Data()
	want := unloadColumns([]*array.Data{d}, d.Length).dicts
	require.Len(t, want, 2)
	require.Equal(t, want, nestedDicts(d, nil))
}
