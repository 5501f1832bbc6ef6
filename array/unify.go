package array

import "github.com/alkaid-go/alkaid/datatype"

// UnifyDictionaries returns next re-encoded so that each dictionary it
// holds, at any depth (a dictionary column, or one inside a list, struct,
// map or union), starts with the values of prev's dictionary at the same
// place, in their order, followed by the values of next's that prev's
// lacks: what a stream of batches needs to send a dictionary that changed
// as a delta, and what the IPC file format requires (it allows deltas,
// never a replacement). Slot values and nulls are unchanged; only indices
// move. When next already uses prev's dictionaries (the same objects),
// next itself is returned; an array without dictionaries is returned as
// it is.
//
// prev and next must have the same type (as [Concatenate] requires);
// prev's slots do not matter, only its dictionaries: pass an empty slice
// of the last batch to keep nothing else alive. It is an error wrapping
// [ErrInvalid] when the unified dictionary has more values than the
// index type can address.
func UnifyDictionaries(prev, next Array) (Array, error) {
	if prev == nil || next == nil {
		return nil, invalidf("unify dictionaries: nil array")
	}
	if !HasDictionary(next.DataType()) || sameDictionaries(prev.Data(), next.Data()) {
		if !datatype.Equal(prev.DataType(), next.DataType(), datatype.IgnoreMetadata()) {
			return nil, invalidf("unify dictionaries: next has type %s, prev %s", next.DataType(), prev.DataType())
		}
		return next, nil
	}
	// Concatenate keeps the first input's dictionary as the prefix of the
	// merged one and remaps the others' indices into it.
	return Concatenate(Slice(prev, 0, 0), next)
}

// HasDictionary reports whether t is a dictionary type or holds one at
// any depth.
func HasDictionary(t datatype.DataType) bool {
	s := datatype.StorageOf(t)
	if s.Kind() == datatype.KindDictionary {
		return true
	}
	for _, c := range datatype.Children(s) {
		if HasDictionary(c.Type) {
			return true
		}
	}
	return false
}

// sameDictionaries reports whether a and b use the same dictionary
// objects throughout (a pointer check: false may still mean equal
// values).
func sameDictionaries(a, b *Data) bool {
	if (a.Dictionary == nil) != (b.Dictionary == nil) || len(a.Children) != len(b.Children) {
		return false
	}
	if a.Dictionary != nil && a.Dictionary != b.Dictionary {
		return false
	}
	for i := range a.Children {
		if !sameDictionaries(a.Children[i], b.Children[i]) {
			return false
		}
	}
	return true
}
