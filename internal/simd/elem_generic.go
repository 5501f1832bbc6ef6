package simd

// Pure-Go reference elementwise kernels.

func addGeneric[T Elem](dst, a, b []T) {
	for i := range dst {
		dst[i] = a[i] + b[i]
	}
}

func subGeneric[T Elem](dst, a, b []T) {
	for i := range dst {
		dst[i] = a[i] - b[i]
	}
}

func mulGeneric[T Elem](dst, a, b []T) {
	for i := range dst {
		dst[i] = a[i] * b[i]
	}
}

func addSGeneric[T Elem](dst, a []T, s T) {
	for i := range dst {
		dst[i] = a[i] + s
	}
}

func subSGeneric[T Elem](dst, a []T, s T) {
	for i := range dst {
		dst[i] = a[i] - s
	}
}

func mulSGeneric[T Elem](dst, a []T, s T) {
	for i := range dst {
		dst[i] = a[i] * s
	}
}

func compare[T Elem](pred int, x, y T) bool {
	switch pred {
	case cmpEq:
		return x == y
	case cmpNe:
		return x != y
	case cmpLt:
		return x < y
	case cmpLe:
		return x <= y
	case cmpGt:
		return x > y
	default:
		return x >= y
	}
}

// cmpGeneric writes the bitmap of pred(a[i], b[i]) for i < len(a) into
// dst, which has exactly (len(a)+7)/8 bytes.
func cmpGeneric[T Elem](pred int) func(dst []byte, a, b []T) {
	return func(dst []byte, a, b []T) {
		for j := range dst {
			var w byte
			for k, i := 0, j*8; k < 8 && i < len(a); k, i = k+1, i+1 {
				if compare(pred, a[i], b[i]) {
					w |= 1 << k
				}
			}
			dst[j] = w
		}
	}
}

func cmpSGeneric[T Elem](pred int) func(dst []byte, a []T, s T) {
	return func(dst []byte, a []T, s T) {
		for j := range dst {
			var w byte
			for k, i := 0, j*8; k < 8 && i < len(a); k, i = k+1, i+1 {
				if compare(pred, a[i], s) {
					w |= 1 << k
				}
			}
			dst[j] = w
		}
	}
}

func elemGeneric[T Elem]() elemKernels[T] {
	k := elemKernels[T]{
		add: addGeneric[T], sub: subGeneric[T], mul: mulGeneric[T],
		addS: addSGeneric[T], subS: subSGeneric[T], mulS: mulSGeneric[T],
	}
	for p := range numCmp {
		k.cmp[p] = cmpGeneric[T](p)
		k.cmpS[p] = cmpSGeneric[T](p)
	}
	return k
}
