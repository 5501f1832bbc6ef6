//go:build amd64 && !noasm

package simd

import "unsafe"

// elemKernel is the shape of the arithmetic and comparison kernels: b
// advances bstride bytes per vector, and bstride 0 selects the scalar s.
type elemKernel func(dst, a, b unsafe.Pointer, bstride, n int, s uint64)

// scalarBits returns the bits of s in the low bytes of a word.
func scalarBits[T Elem](s T) uint64 {
	var u uint64
	*(*T)(unsafe.Pointer(&u)) = s
	return u
}

// arithGlue runs asm on the prefix of whole vectors of epv elements.
func arithGlue[T Elem](asm elemKernel, epv int, ref func(dst, a, b []T)) func(dst, a, b []T) {
	vb := epv * int(unsafe.Sizeof(T(0)))
	return func(dst, a, b []T) {
		m := len(dst) &^ (epv - 1)
		if m > 0 {
			asm(unsafe.Pointer(&dst[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), vb, m, 0)
		}
		ref(dst[m:], a[m:], b[m:])
	}
}

func arithSGlue[T Elem](asm elemKernel, epv int, ref func(dst, a []T, s T)) func(dst, a []T, s T) {
	return func(dst, a []T, s T) {
		m := len(dst) &^ (epv - 1)
		if m > 0 {
			asm(unsafe.Pointer(&dst[0]), unsafe.Pointer(&a[0]), nil, 0, m, scalarBits(s))
		}
		ref(dst[m:], a[m:], s)
	}
}

// cmpGlue runs asm on the prefix of whole blocks (a multiple of 8
// elements) and the generic code on the rest, which starts on a byte.
func cmpGlue[T Elem](asm elemKernel, block, vb int, ref func(dst []byte, a, b []T)) func(dst []byte, a, b []T) {
	return func(dst []byte, a, b []T) {
		m := len(a) &^ (block - 1)
		if m > 0 {
			asm(unsafe.Pointer(&dst[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), vb, m, 0)
		}
		ref(dst[m/8:], a[m:], b[m:])
	}
}

func cmpSGlue[T Elem](asm elemKernel, block int, ref func(dst []byte, a []T, s T)) func(dst []byte, a []T, s T) {
	return func(dst []byte, a []T, s T) {
		m := len(a) &^ (block - 1)
		if m > 0 {
			asm(unsafe.Pointer(&dst[0]), unsafe.Pointer(&a[0]), nil, 0, m, scalarBits(s))
		}
		ref(dst[m/8:], a[m:], s)
	}
}

// setElem fills k with kernels over vectors of vbytes bytes; ops lists add,
// sub, mul (nil: keep the generic one) and cmps the six predicates in the
// order of the cmp constants. cmpBlock is the elements per comparison step.
func setElem[T Elem](k *elemKernels[T], vbytes, cmpBlock int, ops [3]elemKernel, cmps [numCmp]elemKernel) {
	epv := vbytes / int(unsafe.Sizeof(T(0)))
	refs := [3]func(dst, a, b []T){addGeneric[T], subGeneric[T], mulGeneric[T]}
	refsS := [3]func(dst, a []T, s T){addSGeneric[T], subSGeneric[T], mulSGeneric[T]}
	dsts := [3]*func(dst, a, b []T){&k.add, &k.sub, &k.mul}
	dstsS := [3]*func(dst, a []T, s T){&k.addS, &k.subS, &k.mulS}
	for i, op := range ops {
		if op != nil {
			*dsts[i] = arithGlue(op, epv, refs[i])
			*dstsS[i] = arithSGlue(op, epv, refsS[i])
		}
	}
	for p, c := range cmps {
		k.cmp[p] = cmpGlue(c, cmpBlock, vbytes, cmpGeneric[T](p))
		k.cmpS[p] = cmpSGlue(c, cmpBlock, cmpSGeneric[T](p))
	}
}

func bswapGlue[T uint16 | uint32 | uint64 | float64](asm func(dst, src unsafe.Pointer, n int), vbytes int, ref func(dst, src []T)) func(dst, src []T) {
	epv := vbytes / int(unsafe.Sizeof(T(0)))
	return func(dst, src []T) {
		m := len(dst) &^ (epv - 1)
		if m > 0 {
			asm(unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), m*int(unsafe.Sizeof(T(0))))
		}
		ref(dst[m:], src[m:])
	}
}

func setElemAVX2(k *kernels) {
	setElem(&k.ei32, 32, 8, [3]elemKernel{addI32AVX2, subI32AVX2, mulI32AVX2},
		[numCmp]elemKernel{cmpEqI32AVX2, cmpNeI32AVX2, cmpLtI32AVX2, cmpLeI32AVX2, cmpGtI32AVX2, cmpGeI32AVX2})
	setElem(&k.ei64, 32, 8, [3]elemKernel{addI64AVX2, subI64AVX2, nil},
		[numCmp]elemKernel{cmpEqI64AVX2, cmpNeI64AVX2, cmpLtI64AVX2, cmpLeI64AVX2, cmpGtI64AVX2, cmpGeI64AVX2})
	setElem(&k.ef32, 32, 8, [3]elemKernel{addF32AVX2, subF32AVX2, mulF32AVX2},
		[numCmp]elemKernel{cmpEqF32AVX2, cmpNeF32AVX2, cmpLtF32AVX2, cmpLeF32AVX2, cmpGtF32AVX2, cmpGeF32AVX2})
	setElem(&k.ef64, 32, 8, [3]elemKernel{addF64AVX2, subF64AVX2, mulF64AVX2},
		[numCmp]elemKernel{cmpEqF64AVX2, cmpNeF64AVX2, cmpLtF64AVX2, cmpLeF64AVX2, cmpGtF64AVX2, cmpGeF64AVX2})
	k.bswap16 = bswapGlue(bswap16AVX2, 32, bswap16Generic)
	k.bswap32 = bswapGlue(bswap32AVX2, 32, bswap32Generic)
	k.bswap64 = bswapGlue(bswap64AVX2, 32, bswap64Generic)
	k.sqrt64 = bswapGlue(sqrt64AVX2, 32, sqrt64Generic)
	k.ordered32, k.ordered64 = orderedI32AVX2, orderedI64AVX2
	k.concat = [4]concatKernel{concatS16E32AVX2, concatS16E64AVX2, concatS24E32AVX2, concatS24E64AVX2}
}

func setElemAVX512(k *kernels) {
	setElem(&k.ei32, 64, 16, [3]elemKernel{addI32AVX512, subI32AVX512, mulI32AVX512},
		[numCmp]elemKernel{cmpEqI32AVX512, cmpNeI32AVX512, cmpLtI32AVX512, cmpLeI32AVX512, cmpGtI32AVX512, cmpGeI32AVX512})
	setElem(&k.ei64, 64, 8, [3]elemKernel{addI64AVX512, subI64AVX512, mulI64AVX512},
		[numCmp]elemKernel{cmpEqI64AVX512, cmpNeI64AVX512, cmpLtI64AVX512, cmpLeI64AVX512, cmpGtI64AVX512, cmpGeI64AVX512})
	setElem(&k.ef32, 64, 16, [3]elemKernel{addF32AVX512, subF32AVX512, mulF32AVX512},
		[numCmp]elemKernel{cmpEqF32AVX512, cmpNeF32AVX512, cmpLtF32AVX512, cmpLeF32AVX512, cmpGtF32AVX512, cmpGeF32AVX512})
	setElem(&k.ef64, 64, 8, [3]elemKernel{addF64AVX512, subF64AVX512, mulF64AVX512},
		[numCmp]elemKernel{cmpEqF64AVX512, cmpNeF64AVX512, cmpLtF64AVX512, cmpLeF64AVX512, cmpGtF64AVX512, cmpGeF64AVX512})
	k.bswap16 = bswapGlue(bswap16AVX512, 64, bswap16Generic)
	k.bswap32 = bswapGlue(bswap32AVX512, 64, bswap32Generic)
	k.bswap64 = bswapGlue(bswap64AVX512, 64, bswap64Generic)
	k.ordered32, k.ordered64 = orderedI32AVX512, orderedI64AVX512
}
