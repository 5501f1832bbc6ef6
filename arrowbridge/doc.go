// Package arrowbridge converts between Alkaid and arrow-go
// (github.com/apache/arrow-go/v18) without copying: records, schemas,
// types and arrays of every type both ways, the converted arrays sharing
// the original buffers, so a conversion costs the same whatever the data
// size.
//
// It lives in its own Go module so that the Alkaid library does not depend
// on arrow-go, and needs no cgo.
//
// Memory: arrays converted to arrow-go follow arrow-go's convention (the
// caller owns one reference and calls Release), but their memory stays
// Alkaid's, owned by the garbage collector: Release frees nothing, and the
// buffers stay valid while arrow-go holds them, mapped files and memory
// lent by C producers included. Arrays converted from arrow-go take one
// arrow-go reference (Retain) and give it back (Release) when the garbage
// collector finds no Alkaid array using the buffers, so arrow-go memory
// from any allocator (C memory too) stays valid exactly as long as Alkaid
// needs it.
//
// Extension types: a type registered on both sides (the canonical ones,
// when both libraries' extension packages are imported) converts to the
// other side's type; one unknown to the other side converts to its storage
// type, and fields keep its name in the ARROW:extension:name and
// ARROW:extension:metadata metadata, from which the other direction
// restores it.
package arrowbridge
