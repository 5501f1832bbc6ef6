package ipc

import (
	"encoding/binary"
	"strconv"

	fb "github.com/alkaid-go/alkaid/internal/flatbuf"
)

// Every reader frames messages with the two functions of this file:
// parsePrefix for the bytes before the metadata, checkMetadata for the
// metadata itself. The limits and the verification of the metadata are
// checked here and nowhere else.

// parsePrefix parses the prefix of the message at the start of b: the
// continuation marker (optional: legacy streams lack it) and the metadata
// length. It returns the prefix's length (4 or 8) and the metadata's (0
// at an end-of-stream marker), or hdr 0 and no error when b is too short
// to hold the prefix. Bytes that cannot start a message (no marker and a
// length no writer would write) are reported as not IPC at all, with the
// bytes they start with.
func parsePrefix(b []byte, limits Limits) (hdr, size int, err error) {
	if len(b) < 4 {
		return 0, 0, nil
	}
	v := binary.LittleEndian.Uint32(b)
	hdr = 4
	if v == continuation {
		if len(b) < 8 {
			return 0, 0, nil
		}
		v, hdr = binary.LittleEndian.Uint32(b[4:]), 8
	}
	n := int32(v)
	switch {
	case hdr == 4 && n < 0:
		return 0, 0, invalidf("not an Alkaid/Arrow IPC stream: starts with %s (no continuation marker; as a legacy prefix, a negative message metadata length %d)", quoteHead(b), n)
	case hdr == 4 && int(n) > limits.MaxMetadataSize:
		return 0, 0, invalidf("not an Alkaid/Arrow IPC stream: starts with %s (no continuation marker; as a legacy prefix, a metadata length of %d bytes, over the limit of %d)", quoteHead(b), n, limits.MaxMetadataSize)
	case n < 0:
		return 0, 0, invalidf("negative message metadata length %d", n)
	case int(n) > limits.MaxMetadataSize:
		return 0, 0, limitf("message metadata of %d bytes exceeds %d", n, limits.MaxMetadataSize)
	}
	return hdr, int(n), nil
}

// quoteHead quotes the first bytes of b for an error message.
func quoteHead(b []byte) string {
	const show = 16
	if len(b) > show {
		return strconv.QuoteToASCII(string(b[:show])) + "…"
	}
	return strconv.QuoteToASCII(string(b))
}

// checkMetadata verifies a message's metadata and checks the body length
// it states against the limits.
func checkMetadata(meta []byte, limits Limits) (*fb.Message, int64, error) {
	if err := verifyMessageMeta(meta, limits); err != nil {
		return nil, 0, fmtWrap(err, "message metadata")
	}
	msg := fb.GetRootAsMessage(meta, 0)
	bodyLen := msg.BodyLength()
	if bodyLen < 0 {
		return nil, 0, invalidf("negative message body length %d", bodyLen)
	}
	if bodyLen > limits.MaxBodySize {
		return nil, 0, limitf("message body of %d bytes exceeds %d", bodyLen, limits.MaxBodySize)
	}
	return msg, bodyLen, nil
}

// verifyMessageMeta verifies a message's metadata (a variable so that a
// test can count the calls).
var verifyMessageMeta = func(meta []byte, limits Limits) error { return verifyRoot(meta, tMessage, limits) }
