package ipc

import (
	"encoding/binary"
	"fmt"
	"io"
	"strings"

	fb "github.com/alkaid-go/alkaid/internal/flatbuf"
)

// WithStrictSchemaMessage makes a file reader refuse a file whose leading
// schema message (the one after the magic, which the stream part of the
// file starts with) is malformed. By default such a file is read through
// its footer, as other implementations read it, and the fault is reported
// by [FileReader.Warnings]: it is the writer's defect (one writer emits
// the schema Flatbuffer without its length prefix), and the footer holds
// what a file reader needs. Stream readers are not affected: for them the
// leading message is the schema.
func WithStrictSchemaMessage() Option {
	return func(s *settings) {
		s.readerOption("WithStrictSchemaMessage")
		s.r.strictLead = true
	}
}

// Warnings lists what the reader found wrong with the file but read past:
// today, a malformed schema message at the start of the stream part of the
// file (see [WithStrictSchemaMessage]). Each wraps [ErrInvalid] and names
// the byte offset and the writer's defect.
//
// With [array.ValidateFull] or strict checking the leading message is checked
// when the file is opened; otherwise on the first call of Warnings (so
// that opening costs no more than reading the footer), which is safe for
// concurrent use.
func (fr *FileReader) Warnings() []error {
	fr.leadOnce.Do(func() {
		if err := fr.checkLeadingMessage(nil); err != nil {
			fr.warnings = append(fr.warnings, err) // reading failed
		}
	})
	return append([]error(nil), fr.warnings...)
}

// checkLeadingMessage looks at the message the file's stream part starts
// with (at byte 8). A file may start it at its first batch (Arrow JS
// does) or hold nothing before the footer: then there is nothing to
// check. The message's prefix and Flatbuffer are verified (a fault is a
// warning, or an error when strict); footer is nil when only that is
// asked (from Warnings); with
// [array.ValidateFull] or strict checking a schema message's schema is read too,
// and with array.ValidateFull it must say what the footer's copy says: a file
// whose two copies disagree would read differently as a file and as a
// stream.
func (fr *FileReader) checkLeadingMessage(footer *schemaInfo) error {
	limits := fr.dec.Limits()
	room := fr.footerStart - 8 // the bytes of the stream part
	sec := io.NewSectionReader(fr.src, 8, room)
	size, err := readPrefix(sec, limits)
	if err == io.EOF || err == nil && size == 0 {
		return nil // nothing, or an end-of-stream marker, before the footer
	}
	if err != nil {
		return fr.leadFault(err)
	}
	prefix, _ := sec.Seek(0, io.SeekCurrent)
	if int64(size) > room-prefix {
		return fr.leadFault(invalidf("%d bytes of metadata run past the footer at byte %d", size, fr.footerStart))
	}
	meta, err := fr.readAt(8+prefix, size)
	if err != nil {
		return err
	}
	if err := verifyMessageMeta(meta, limits); err != nil {
		return fr.leadFault(err)
	}
	m := &Message{meta: meta, msg: fb.GetRootAsMessage(meta, 0)}
	if m.Type() != MessageSchema {
		// Arrow JS writes files whose stream part starts at the first
		// batch; file readers rely on the footer's copy alone.
		return nil
	}
	if footer == nil || !fr.cfg.full() && !fr.cfg.strictLead {
		return nil // a verified message: its schema is read only to compare
	}
	info, err := messageSchema(m, limits)
	if err != nil {
		return fr.leadFault(err)
	}
	if fr.cfg.full() && !info.sameAs(footer) {
		return invalidf("schema message at byte 8: disagrees with the footer's schema (message against footer: %s)", info.difference(footer))
	}
	return nil
}

// leadWindow bounds the bytes leadFault reads to name the defect.
const leadWindow = 1 << 20

// leadFault reports a malformed leading message: a warning naming the
// writer's defect, or an error with WithStrictSchemaMessage.
func (fr *FileReader) leadFault(cause error) error {
	what := strings.TrimPrefix(cause.Error(), "ipc: "+ErrInvalid.Error()+": ")
	if lead, err := fr.readAt(8, int(min(fr.footerStart-8, leadWindow))); err == nil {
		if d := bareSchemaDefect(lead); d != "" {
			what = d
		}
	}
	err := fmt.Errorf("ipc: %w: schema message at byte 8: %s; the file's writer wrote a malformed leading message (read through the footer's schema)", ErrInvalid, what)
	if fr.cfg.strictLead {
		return err
	}
	fr.warnings = append(fr.warnings, err)
	return nil
}

// bareSchemaDefect names the defect of a malformed leading message when
// the bytes hold a schema Flatbuffer without the encapsulation prefix
// (with or without the continuation marker), or returns "".
func bareSchemaDefect(lead []byte) string {
	starts := []int{0}
	if len(lead) >= 4 && binary.LittleEndian.Uint32(lead) == continuation {
		starts = append(starts, 4)
	}
	for _, s := range starts {
		buf := lead[s:]
		if verifyRoot(buf, tMessage, DefaultLimits) != nil {
			continue
		}
		if (&Message{msg: fb.GetRootAsMessage(buf, 0)}).Type() != MessageSchema {
			continue
		}
		if s == 0 {
			return "it is a bare Schema Flatbuffer without the continuation marker and length prefix"
		}
		return "it is a Schema Flatbuffer after the continuation marker but without its length prefix"
	}
	return ""
}
