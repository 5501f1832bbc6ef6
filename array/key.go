package array

// AppendKey appends an encoding of slot i of a to dst such that two slots
// (of arrays of the same type) have equal encodings exactly when they
// hold equal values: nulls equal nulls, dictionaries and run-end encoded
// arrays by value, nested types element by element. Floats are encoded by
// their bits, so 0 and -0, or NaNs with different payloads, differ. The
// encoding is for hashing and equality, not for ordering.
func AppendKey(dst []byte, a Array, i int) []byte { return appendKey(dst, a, i) }
