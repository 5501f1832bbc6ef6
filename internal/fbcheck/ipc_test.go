package fbcheck

import (
	"bytes"
	"encoding/binary"
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/alkaid-go/alkaid/internal/flatbuf"
)

// message is one encapsulated IPC message: its Message flatbuffer and body.
type message struct {
	offset  int64  // file or stream offset of the message's first byte
	metaLen int32  // bytes before the body: marker, length prefix, flatbuffer, padding
	meta    []byte // the Message flatbuffer (with its padding)
	body    []byte
	msg     *flatbuf.Message
}

const continuation = 0xFFFFFFFF

// readMessage reads the encapsulated message starting at buf[off:]. It returns
// (nil, 0, nil) at an end-of-stream marker or at the end of buf.
func readMessage(buf []byte, off int64) (*message, int64, error) {
	start := off
	if int64(len(buf))-off < 4 {
		return nil, 0, nil
	}
	n := binary.LittleEndian.Uint32(buf[off:])
	off += 4
	prefix := int64(4)
	if n == continuation {
		if int64(len(buf))-off < 4 {
			return nil, 0, fmt.Errorf("offset %d: truncated length prefix", off)
		}
		n = binary.LittleEndian.Uint32(buf[off:])
		off += 4
		prefix = 8
	}
	if n == 0 {
		return nil, 0, nil // end of stream
	}
	if (prefix+int64(n))%8 != 0 {
		return nil, 0, fmt.Errorf("offset %d: metadata length %d does not pad the message to 8 bytes", start, n)
	}
	if int64(len(buf))-off < int64(n) {
		return nil, 0, fmt.Errorf("offset %d: metadata length %d past end of data", start, n)
	}
	meta := buf[off : off+int64(n)]
	off += int64(n)
	m := flatbuf.GetRootAsMessage(meta, 0)
	bl := m.BodyLength()
	if bl < 0 || bl%8 != 0 || int64(len(buf))-off < bl {
		return nil, 0, fmt.Errorf("offset %d: bad body length %d", start, bl)
	}
	msg := &message{offset: start, metaLen: int32(prefix + int64(n)), meta: meta, body: buf[off : off+bl], msg: m}
	return msg, off + bl, nil
}

// readStream reads every message of an IPC stream that starts at buf[off:],
// up to its end-of-stream marker or the end of buf.
func readStream(buf []byte, off int64) ([]*message, error) {
	var msgs []*message
	for {
		m, next, err := readMessage(buf, off)
		if err != nil {
			return nil, err
		}
		if m == nil {
			return msgs, nil
		}
		msgs = append(msgs, m)
		off = next
	}
}

// arrowMagic is the Apache Arrow file magic; Alkaid files use ALKAID1 instead
// but are otherwise laid out the same way.
var arrowMagic = []byte("ARROW1")

// readFooter checks the file's magics and returns its Footer.
func readFooter(buf []byte) (*flatbuf.Footer, error) {
	m := len(arrowMagic)
	if len(buf) < 2*8+4 || !bytes.Equal(buf[:m], arrowMagic) || !bytes.Equal(buf[len(buf)-m:], arrowMagic) {
		return nil, fmt.Errorf("not an Arrow IPC file (magic)")
	}
	flen := int(int32(binary.LittleEndian.Uint32(buf[len(buf)-m-4:])))
	end := len(buf) - m - 4
	if flen <= 0 || flen > end-8 {
		return nil, fmt.Errorf("bad footer length %d", flen)
	}
	return flatbuf.GetRootAsFooter(buf[end-flen:end], 0), nil
}

// header decodes the message's header union into t (a *flatbuf.Schema,
// *flatbuf.RecordBatch or *flatbuf.DictionaryBatch, matching HeaderType).
func header(m *flatbuf.Message, t interface {
	Init([]byte, flatbuffers.UOffsetT)
}) bool {
	var tbl flatbuffers.Table
	if !m.Header(&tbl) {
		return false
	}
	t.Init(tbl.Bytes, tbl.Pos)
	return true
}
