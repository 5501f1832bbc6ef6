package scenario

import (
	"context"
	"fmt"
	"slices"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/alkaid-go/alkaid/flight"
)

func init() {
	scenarios["auth:basic_proto"] = func() Scenario { return basicProto{} }
}

// basicProto is auth:basic_proto: Arrow's BasicAuth handshake. A call
// before the handshake is refused with Unauthenticated; after it, the
// server answers any action with the caller's identity.
type basicProto struct{}

const (
	authUser     = "arrow"
	authPassword = "flight"
)

type identityService struct{ flight.BaseService }

func (identityService) DoAction(_ *flight.Action, stream flight.DoActionServer) error {
	return stream.Send(&flight.Result{Body: []byte(flight.Identity(stream.Context()))})
}

func (basicProto) Server(int) (flight.Service, []flight.Option, func(), error) {
	auth := flight.NewStaticAuth(map[string]string{authUser: authPassword})
	return identityService{}, []flight.Option{flight.WithAuth(auth)}, func() {}, nil
}

func (basicProto) Client(ctx context.Context, addr string) error {
	c, err := flight.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	s, err := c.DoAction(ctx, &flight.Action{})
	if err == nil {
		_, err = s.Recv()
	}
	if status.Code(err) != codes.Unauthenticated {
		return fmt.Errorf("an action before the handshake: expected Unauthenticated, got %v", err)
	}
	if err := c.AuthenticateBasicProto(ctx, authUser, authPassword); err != nil {
		return err
	}
	got, err := c.Actions(ctx, "", nil)
	if err != nil {
		return err
	}
	var bodies []string
	for _, b := range got {
		bodies = append(bodies, string(b))
	}
	if want := []string{authUser}; !slices.Equal(bodies, want) {
		return fmt.Errorf("the action answered %q, want %q", bodies, want)
	}
	return nil
}
