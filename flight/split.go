package flight

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/ipc"
)

// DefaultMaxSendSize bounds each FlightData a [RecordWriter] sends unless
// told otherwise: 4 MiB, the receive limit gRPC clients and servers
// apply by default (arrow-go's among them), so that any peer with
// default settings accepts what this package sends. Larger record
// batches are sent as slices of their rows.
const DefaultMaxSendSize = 4 << 20

// sendLimitKey carries the send size of a server's or client's streams
// to the RecordWriters made on them.
type sendLimitKey struct{}

func withSendLimit(ctx context.Context, n int) context.Context {
	if n <= 0 {
		return ctx
	}
	return context.WithValue(ctx, sendLimitKey{}, n)
}

func sendLimit(ctx context.Context) int {
	n, _ := ctx.Value(sendLimitKey{}).(int)
	return n
}

// wireSize is the size of the FlightData that carries m, app and desc, as
// protobuf encodes it.
func wireSize(m ipc.OutMessage, app []byte, desc *FlightDescriptor) int64 {
	var n int64
	if desc != nil {
		n += int64(protowire.SizeTag(fieldDescriptor) + protowire.SizeBytes(proto.Size(desc)))
	}
	if len(m.Metadata) > 0 {
		n += int64(protowire.SizeTag(fieldDataHeader) + protowire.SizeBytes(len(m.Metadata)))
	}
	if len(app) > 0 {
		n += int64(protowire.SizeTag(fieldAppMetadata) + protowire.SizeBytes(len(app)))
	}
	if m.BodyLen > 0 {
		n += int64(protowire.SizeTag(fieldDataBody)+protowire.SizeVarint(uint64(m.BodyLen))) + m.BodyLen
	}
	return n
}

// writeRows sends rec, whose first row is row first of the record the
// caller wrote, as one record batch message when it fits in w.maxMsg and
// as slices of its rows otherwise; app goes with the last. The encoder
// sends a dictionary once (its slices share it), before the first batch
// that needs it.
func (w *RecordWriter) writeRows(rec *alkaid.Record, first int, app []byte) error {
	msgs, err := w.enc.Record(rec, nil)
	if err != nil {
		return fmt.Errorf("flight: %w", err)
	}
	dicts, batch := msgs[:len(msgs)-1], msgs[len(msgs)-1]
	for _, m := range dicts {
		if n := wireSize(m, nil, w.desc); n > int64(w.maxMsg) {
			return fmt.Errorf("flight: record %d: a dictionary message of %d bytes is over the message size limit of %d bytes: %w", w.records-1, n, w.maxMsg, ipc.ErrLimit)
		}
		if err := w.send(m, nil); err != nil {
			return err
		}
	}
	size := wireSize(batch, app, w.desc)
	if size <= int64(w.maxMsg) {
		return w.send(batch, app)
	}
	rows := rec.NumRows()
	if rows <= 1 {
		return fmt.Errorf("flight: record %d: row %d takes %d bytes, over the message size limit of %d bytes: %w", w.records-1, first, size, w.maxMsg, ipc.ErrLimit)
	}
	// Slices of the rows an average row's size allows, with a tenth to
	// spare for rows larger than the average; a slice that still does
	// not fit is halved.
	per := max(1, min(rows/2, int(int64(rows)*int64(w.maxMsg)/size*9/10)))
	for off := 0; off < rows; off += per {
		end := min(off+per, rows)
		var a []byte
		if end == rows {
			a = app
		}
		if err := w.writeRows(rec.Slice(off, end), first+off, a); err != nil {
			return err
		}
	}
	return nil
}
