package flight

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// TestAuthBasicProto: a BasicAuth payload in the handshake gets a token
// that, in auth-token-bin, lets later calls through; calls without it,
// or with a token never issued, are refused.
func TestAuthBasicProto(t *testing.T) {
	s, recs := allTypeBatches()
	addr := serve(t, newMemService(s, recs), WithAuth(NewStaticAuth(map[string]string{"arrow": "flight"})))
	ctx := context.Background()
	c := dial(t, addr)
	_, err := c.GetFlightInfo(ctx, PathDescriptor("mem"))
	require.Equal(t, codes.Unauthenticated, status.Code(err))
	require.Equal(t, codes.Unauthenticated, status.Code(errors.Unwrap(c.AuthenticateBasicProto(ctx, "arrow", "wrong"))))
	require.NoError(t, c.AuthenticateBasicProto(ctx, "arrow", "flight"))
	_, err = c.GetFlightInfo(ctx, PathDescriptor("mem"))
	require.NoError(t, err)
	rr, err := c.Get(ctx, &Ticket{Ticket: []byte("mem")})
	require.NoError(t, err)
	got, err := readRecords(rr)
	require.NoError(t, err)
	requireSameRecords(t, recs, got, "authenticated DoGet")

	// A token the server never issued.
	other := dial(t, addr)
	_, err = other.GetFlightInfo(metadata.AppendToOutgoingContext(ctx, tokenHeader, "forged"), PathDescriptor("mem"))
	require.Equal(t, codes.Unauthenticated, status.Code(err), "%v", err)
}

// Hostile handshakes are refused with Unauthenticated, and the server
// goes on serving.
func TestAuthBasicProtoHostile(t *testing.T) {
	s, recs := allTypeBatches()
	addr := serve(t, newMemService(s, recs), WithAuth(NewStaticAuth(map[string]string{"arrow": "flight"})))
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		send [][]byte
	}{
		{"nothing", nil},
		{"not a BasicAuth message", [][]byte{{0xff, 0xff, 0xff, 0xff}}},
		{"empty credentials", [][]byte{{}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hs, err := dial(t, addr).Handshake(ctx)
			require.NoError(t, err)
			for _, p := range tc.send {
				require.NoError(t, hs.Send(&HandshakeRequest{Payload: p}))
			}
			require.NoError(t, hs.CloseSend())
			_, err = hs.Recv()
			require.NotErrorIs(t, err, io.EOF)
			require.Equal(t, codes.Unauthenticated, status.Code(err), "%v", err)
		})
	}
	c := dial(t, addr)
	require.NoError(t, c.AuthenticateBasicProto(ctx, "arrow", "flight"))
	_, err := c.GetFlightInfo(ctx, PathDescriptor("mem"))
	require.NoError(t, err)
}
