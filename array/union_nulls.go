package array

// NullN is 0 for a union: it has no validity bitmap, and the null count
// of its Data carries no meaning (some writers record the number of null
// children's slots there). The one rule, at every validation level and in
// every reader and writer: any count in [0, length] is accepted, readers
// load it as 0 and writers write 0. A slot's nullness is its child's:
// see [Union.IsNull].
func (a *Union) NullN() int { return 0 }
