package ipc

import (
	"bytes"
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
func WithStrictSchemaMessage() ReaderOption {
	return func(c *readerConfig) { c.strictLead = true }
}

// Warnings lists what the reader found wrong with the file but read past:
// today, a malformed schema message at the start of the stream part of the
// file (see [WithStrictSchemaMessage]). Each wraps [ErrInvalid] and names
// the byte offset and the writer's defect.
func (fr *FileReader) Warnings() []error { return append([]error(nil), fr.warnings...) }

// checkLeadingMessage looks at the message the file's stream part starts
// with (at byte 8). A file may start it at its first batch (Arrow JS
// does) or hold nothing before the footer: then there is nothing to
// check. A schema message must be well formed (else a warning, or an
// error when strict) and, with [ValidateAll], say what the footer's copy
// says: a file whose two copies disagree would read differently as a
// file and as a stream.
func (fr *FileReader) checkLeadingMessage(footer *schemaInfo) error {
	end := fr.footerStart
	for _, blk := range fr.dicts {
		end = min(end, blk.offset)
	}
	if fr.NumRecords() > 0 {
		if blk, err := fr.footerBlock(recordBatchBlocks, 0); err == nil {
			end = min(end, blk.offset)
		}
	}
	if end <= 8 {
		return nil // the first block starts at the magic's end
	}
	lead, err := fr.readAt(8, int(min(end-8, int64(fr.dec.cfg.limits.MaxMetadataSize)+8)))
	if err != nil {
		return err
	}
	m, err := leadingMessage(lead, fr.dec.cfg.limits)
	if err == io.EOF {
		return nil // an end-of-stream marker: nothing before the footer
	}
	if err != nil {
		return fr.leadFault(lead, err)
	}
	if m.Type() != MessageSchema {
		// Arrow JS writes files whose stream part starts at the first
		// batch; file readers rely on the footer's copy alone.
		return nil
	}
	info, err := messageSchema(m, fr.dec.cfg.limits)
	if err != nil {
		return fr.leadFault(lead, err)
	}
	if fr.dec.cfg.validation == ValidateAll && !info.sameAs(footer) {
		return invalidf("the schema message and the footer's schema disagree:\nmessage %s\nfooter %s", info.schema, footer.schema)
	}
	return nil
}

// leadingMessage parses the encapsulated message at the start of lead
// (the bytes before the first footer block), without its body.
func leadingMessage(lead []byte, limits Limits) (*Message, error) {
	r := bytes.NewReader(lead)
	size, err := readPrefix(r, limits)
	if err == io.EOF || err == nil && size == 0 {
		return nil, io.EOF
	}
	if err != nil {
		return nil, err
	}
	at := len(lead) - r.Len()
	if size > r.Len() {
		return nil, invalidf("%d bytes of metadata run past the first block at byte %d", size, 8+len(lead))
	}
	meta := lead[at : at+size]
	if err := verifyRoot(meta, tMessage); err != nil {
		return nil, err
	}
	return &Message{meta: meta, msg: fb.GetRootAsMessage(meta, 0)}, nil
}

// leadFault reports a malformed leading message: a warning naming the
// writer's defect, or an error with WithStrictSchemaMessage.
func (fr *FileReader) leadFault(lead []byte, cause error) error {
	err := fmt.Errorf("%w: schema message at byte 8: %s; the file's writer wrote a malformed leading message (read through the footer's schema)", ErrInvalid, bareSchemaDefect(lead, cause))
	if fr.dec.cfg.strictLead {
		return err
	}
	fr.warnings = append(fr.warnings, err)
	return nil
}

// bareSchemaDefect names the defect of a malformed leading message: when
// the bytes hold a schema Flatbuffer without the encapsulation prefix
// (with or without the continuation marker), it says so; otherwise it is
// the verification error.
func bareSchemaDefect(lead []byte, cause error) string {
	starts := []int{0}
	if len(lead) >= 4 && binary.LittleEndian.Uint32(lead) == continuation {
		starts = append(starts, 4)
	}
	for _, s := range starts {
		buf := lead[s:]
		if verifyRoot(buf, tMessage) != nil {
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
	return strings.TrimPrefix(cause.Error(), ErrInvalid.Error()+": ")
}
