package chunkpipe

import "io"

// ChunkBytes is where the readers end a chunk early: at the first record
// end at or past it, whatever the batch size, so that a batch of long
// records holds fewer rows instead of gigabytes.
const ChunkBytes = 4 << 20

// firstRead is the most bytes of the first read.
const firstRead = 64 << 10

// Buffer holds the bytes read from an input but not yet cut into chunks.
// Fill never writes into bytes it handed out: chunks are slices of Pend
// that goroutines may parse while the next bytes are read.
type Buffer struct {
	// R is the input.
	R io.Reader
	// Pend holds the bytes read and not yet cut.
	Pend []byte
	// EOF is set once R is exhausted.
	EOF bool
	// Block is the least read size.
	Block int
	// Max is the most bytes one record may take: Fill grows Pend by at
	// most that much beyond Block, so that a record too long is noticed
	// with Pend below about 2×Max + Block.
	Max int
}

// Fill reads into a new buffer, holding Pend and at least Block (or, as
// Pend grows, up to Max) more bytes, until it is full or R ends; the
// first read is of at most 64 KiB. A read
// error is returned as it is, with what was read kept in Pend.
func (b *Buffer) Fill() error {
	if b.EOF {
		return nil
	}
	grow := max(b.Block, min(2*len(b.Pend), b.Max), 1)
	if b.Pend == nil {
		grow = min(grow, firstRead) // small inputs need no big buffer
	}
	buf := make([]byte, len(b.Pend), len(b.Pend)+grow)
	copy(buf, b.Pend)
	for len(buf) < cap(buf) {
		m, err := b.R.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			b.EOF = true
			break
		}
		if err != nil {
			b.Pend = buf
			return err
		}
	}
	b.Pend = buf
	return nil
}

// Take cuts Pend[:n] off as a chunk (its capacity cut too, so appending
// to it cannot reach the bytes after).
func (b *Buffer) Take(n int) []byte {
	chunk := b.Pend[:n:n]
	b.Pend = b.Pend[n:]
	return chunk
}
