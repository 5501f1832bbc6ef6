package flight

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/alkaid-go/alkaid/flight/internal/pb"
)

// split cuts b into pieces of n bytes, as gRPC hands a message over.
func split(b []byte, n int) mem.BufferSlice {
	var out mem.BufferSlice
	for len(b) > n {
		out = append(out, mem.SliceBuffer(b[:n]))
		b = b[n:]
	}
	return append(out, mem.SliceBuffer(b))
}

// TestCodecMatchesProto: outData marshals to the bytes proto.Marshal
// gives for the same FlightData, and the codec reads proto's bytes (cut
// anywhere) back to an equal message.
func TestCodecMatchesProto(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789abcdef"), 100)
	for _, tc := range []struct {
		name string
		o    outData
	}{
		{"everything", outData{desc: PathDescriptor("a", "b"), header: []byte("hdr"), app: []byte("app"), body: [][]byte{body[:10], body[10:]}, bodyN: int64(len(body))}},
		{"header only", outData{header: []byte("hdr")}},
		{"app only", outData{app: []byte("x")}},
		{"cmd descriptor", outData{desc: CmdDescriptor([]byte("select 1")), header: []byte{1}}},
		{"empty", outData{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fd := &pb.FlightData{FlightDescriptor: tc.o.desc, DataHeader: tc.o.header, AppMetadata: tc.o.app}
			if tc.o.bodyN > 0 {
				fd.DataBody = body
			}
			want, err := proto.MarshalOptions{Deterministic: true}.Marshal(fd)
			require.NoError(t, err)
			bs, err := codec{}.Marshal(&tc.o)
			require.NoError(t, err)
			require.True(t, bytes.Equal(want, bs.Materialize()), "%x\n%x", want, bs.Materialize())
			for _, n := range []int{1, 3, 64, len(want) + 1} {
				var got pb.FlightData
				require.NoError(t, codec{}.Unmarshal(split(want, n), &got))
				require.True(t, proto.Equal(fd, &got), "pieces of %d", n)
			}
		})
	}
	// Other messages go through the proto codec.
	bs, err := codec{}.Marshal(&Ticket{Ticket: []byte("t")})
	require.NoError(t, err)
	var tk Ticket
	require.NoError(t, codec{}.Unmarshal(bs, &tk))
	require.Equal(t, "t", string(tk.Ticket))
}

// TestCodecHostile: malformed FlightData bytes give errors, and a length
// beyond the message is refused before anything is allocated.
func TestCodecHostile(t *testing.T) {
	tag := func(num protowire.Number, typ protowire.Type) []byte { return protowire.AppendTag(nil, num, typ) }
	cat := func(bs ...[]byte) []byte { return bytes.Join(bs, nil) }
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"huge body length", cat(tag(1000, protowire.BytesType), protowire.AppendVarint(nil, 1<<50)), "claims 1125899906842624 bytes, 0 are left"},
		{"truncated varint", []byte{0x80}, "truncated varint"},
		{"long varint", bytes.Repeat([]byte{0xff}, 11), "longer than 10 bytes"},
		{"field zero", []byte{0x02, 0x00}, "invalid field number"},
		{"group", tag(5, protowire.StartGroupType), "wire type 3"},
		{"truncated fixed64", cat(tag(9, protowire.Fixed64Type), []byte{1, 2}), "truncated field 9"},
		{"bad descriptor", cat(tag(1, protowire.BytesType), []byte{2, 0xff, 0xff}), "descriptor"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var fd pb.FlightData
			require.ErrorContains(t, codec{}.Unmarshal(split(tc.in, 2), &fd), tc.want)
		})
	}
	// Unknown fields of every wire type are skipped.
	in := cat(tag(7, protowire.VarintType), []byte{5}, tag(8, protowire.Fixed32Type), []byte{1, 2, 3, 4},
		tag(9, protowire.BytesType), []byte{1, 0}, tag(2, protowire.BytesType), []byte{1, 'h'})
	var fd pb.FlightData
	require.NoError(t, codec{}.Unmarshal(split(in, 1), &fd))
	require.Equal(t, "h", string(fd.DataHeader))
}

// FuzzCodecUnmarshal: the hand-written FlightData parser agrees with
// proto.Unmarshal on every input both accept, and never panics.
func FuzzCodecUnmarshal(f *testing.F) {
	seed, _ := proto.Marshal(&pb.FlightData{FlightDescriptor: PathDescriptor("p"), DataHeader: []byte("h"), AppMetadata: []byte("a"), DataBody: []byte("body")})
	f.Add(seed, 3)
	f.Add([]byte{0x82, 0x3e, 0x02, 1, 2}, 1)
	f.Add([]byte{0x0a, 0x02, 0x08, 0x01, 0x0a, 0x03, 0x1a, 0x01, 'p'}, 2) // the descriptor twice: merged
	f.Fuzz(func(t *testing.T, in []byte, n int) {
		if n < 1 {
			n = 1
		}
		var got pb.FlightData
		err := codec{}.Unmarshal(split(in, n), &got)
		var want pb.FlightData
		if perr := proto.Unmarshal(in, &want); perr == nil && err == nil {
			want.ProtoReflect().SetUnknown(nil)
			if !proto.Equal(&want, &got) {
				t.Fatalf("codec %v, proto %v", &got, &want)
			}
		}
	})
}
