package flight

import (
	"context"
	"fmt"
	"io"

	"google.golang.org/grpc/encoding"
	_ "google.golang.org/grpc/encoding/proto" // registers the proto codec this one falls back to
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/alkaid-go/alkaid/flight/internal/pb"
	"github.com/alkaid-go/alkaid/internal/rawmem"
	"github.com/alkaid-go/alkaid/ipc"
)

// codec is the gRPC codec of this package's clients and servers. On the
// wire it is protobuf, as any Flight peer expects; it only handles
// FlightData itself, to save copies of the bodies:
//
//   - sending, a record batch's body goes out as the record's own buffers
//     (outData), not gathered into one slice and then copied again by
//     proto.Marshal;
//   - receiving, data_body is copied once, from gRPC's buffers straight
//     into memory of its own (aligned, not zeroed first), instead of being
//     gathered into one slice and then copied by proto.Unmarshal.
//
// Every other message goes through gRPC's proto codec.
type codec struct{}

var protoCodec = encoding.GetCodecV2("proto")

// Name is the content subtype: "proto", as for any Flight peer.
func (codec) Name() string { return "proto" }

func (codec) Marshal(v any) (mem.BufferSlice, error) {
	if o, ok := v.(*outData); ok {
		return o.marshal()
	}
	return protoCodec.Marshal(v)
}

func (codec) Unmarshal(data mem.BufferSlice, v any) error {
	if fd, ok := v.(*pb.FlightData); ok {
		return unmarshalFlightData(data, fd)
	}
	return protoCodec.Unmarshal(data, v)
}

// FlightData field numbers.
const (
	fieldDescriptor  = 1
	fieldDataHeader  = 2
	fieldAppMetadata = 3
	fieldDataBody    = 1000
)

// outData is a FlightData whose body is a list of pieces.
type outData struct {
	desc   *FlightDescriptor
	header []byte
	app    []byte
	body   [][]byte
	bodyN  int64
}

func (o *outData) marshal() (mem.BufferSlice, error) {
	var b []byte
	if o.desc != nil {
		d, err := proto.Marshal(o.desc)
		if err != nil {
			return nil, err
		}
		b = protowire.AppendTag(b, fieldDescriptor, protowire.BytesType)
		b = protowire.AppendBytes(b, d)
	}
	if len(o.header) > 0 {
		b = protowire.AppendTag(b, fieldDataHeader, protowire.BytesType)
		b = protowire.AppendBytes(b, o.header)
	}
	if len(o.app) > 0 {
		b = protowire.AppendTag(b, fieldAppMetadata, protowire.BytesType)
		b = protowire.AppendBytes(b, o.app)
	}
	if o.bodyN > 0 {
		b = protowire.AppendTag(b, fieldDataBody, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(o.bodyN))
	}
	out := make(mem.BufferSlice, 0, 1+len(o.body))
	out = append(out, mem.SliceBuffer(b))
	for _, p := range o.body {
		out = append(out, mem.SliceBuffer(p))
	}
	return out, nil
}

// unmarshalFlightData decodes the protobuf wire form of FlightData. Each
// length is checked against the bytes left before anything is allocated;
// unknown fields are skipped, as protobuf requires.
func unmarshalFlightData(data mem.BufferSlice, fd *pb.FlightData) error {
	r := data.Reader()
	defer r.Close()
	fd.Reset()
	for r.Remaining() > 0 {
		tag, err := readVarint(r)
		if err != nil {
			return err
		}
		num, typ := protowire.DecodeTag(tag)
		if num <= 0 {
			return fmt.Errorf("flight: FlightData: invalid field number %d: %w", num, ipc.ErrInvalid)
		}
		switch typ {
		case protowire.VarintType:
			if _, err := readVarint(r); err != nil {
				return err
			}
			continue
		case protowire.Fixed32Type, protowire.Fixed64Type:
			n := 4
			if typ == protowire.Fixed64Type {
				n = 8
			}
			if _, err := io.CopyN(io.Discard, r, int64(n)); err != nil {
				return fmt.Errorf("flight: FlightData: truncated field %d: %w", num, ipc.ErrInvalid)
			}
			continue
		case protowire.BytesType:
		default:
			return fmt.Errorf("flight: FlightData: field %d has wire type %d: %w", num, typ, ipc.ErrInvalid)
		}
		n, err := readVarint(r)
		if err != nil {
			return err
		}
		if n > uint64(r.Remaining()) {
			return fmt.Errorf("flight: FlightData: field %d claims %d bytes, %d are left: %w", num, n, r.Remaining(), ipc.ErrInvalid)
		}
		var dst []byte
		switch num {
		case fieldDataBody:
			dst = rawmem.Bytes(int(n))
		case fieldDescriptor, fieldDataHeader, fieldAppMetadata:
			dst = make([]byte, n)
		default:
			if _, err := io.CopyN(io.Discard, r, int64(n)); err != nil {
				return fmt.Errorf("flight: FlightData: truncated field %d: %w", num, ipc.ErrInvalid)
			}
			continue
		}
		if _, err := io.ReadFull(r, dst); err != nil {
			return fmt.Errorf("flight: FlightData: truncated field %d: %w", num, ipc.ErrInvalid)
		}
		switch num {
		case fieldDataBody:
			fd.DataBody = dst
		case fieldDataHeader:
			fd.DataHeader = dst
		case fieldAppMetadata:
			fd.AppMetadata = dst
		case fieldDescriptor:
			// a repeated message field merges, as protobuf says
			if fd.FlightDescriptor == nil {
				fd.FlightDescriptor = &FlightDescriptor{}
			}
			if err := (proto.UnmarshalOptions{Merge: true}).Unmarshal(dst, fd.FlightDescriptor); err != nil {
				return fmt.Errorf("flight: FlightData: descriptor: %v: %w", err, ipc.ErrInvalid)
			}
		}
	}
	return nil
}

func readVarint(r io.ByteReader) (uint64, error) {
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		c, err := r.ReadByte()
		if err != nil {
			return 0, fmt.Errorf("flight: FlightData: truncated varint: %w", ipc.ErrInvalid)
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, nil
		}
	}
	return 0, fmt.Errorf("flight: FlightData: varint longer than 10 bytes: %w", ipc.ErrInvalid)
}

// ourCodecKey marks the context of a stream whose gRPC codec is codec,
// so that a RecordWriter may send outData on it.
type ourCodecKey struct{}

func withOurCodec(ctx context.Context) context.Context {
	return context.WithValue(ctx, ourCodecKey{}, true)
}

func hasOurCodec(ctx context.Context) bool {
	v, _ := ctx.Value(ourCodecKey{}).(bool)
	return v
}
