// Package memory provides the byte storage that arrays are built on.
//
// Memory belongs to the garbage collector: there is no Retain or Release.
// An [Allocator] hands out zeroed byte slices whose first byte is 64-byte
// aligned and whose capacity is a multiple of 64 bytes, as the columnar
// format recommends. A [Buffer] wraps such bytes (or bytes from elsewhere,
// such as an IPC message body or a memory-mapped [Region]) and keeps alive
// whatever owns them, so typed views taken with [View] never dangle while the
// buffer is reachable.
//
// Example:
//
//	buf := memory.NewBuffer(memory.DefaultAllocator.Allocate(8 * 4))
//	vals := memory.View[int64](buf) // len 4, shares buf's bytes
//	vals[0] = 42
package memory
