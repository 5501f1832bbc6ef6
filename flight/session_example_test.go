package flight

import (
	"context"
	"fmt"
)

// A server with sessions refuses an option by name; a client that keeps
// the session cookie sets options, reads them back and closes the
// session.
func ExampleWithSessions() {
	check := func(name string, _ *SessionOptionValue) SessionOptionError {
		if name == "password" {
			return SessionOptionInvalidName
		}
		return SessionOptionUnspecified
	}
	addr, stop := exampleServer(BaseService{}, WithSessions(check))
	defer stop()
	c, _ := Dial(addr, WithSessionCookies())
	defer c.Close()
	ctx := context.Background()

	schema, _ := NewSessionOptionValue("analytics")
	limit, _ := NewSessionOptionValue(int64(100))
	secret, _ := NewSessionOptionValue("hunter2")
	refused, err := c.SetSessionOptions(ctx, map[string]*SessionOptionValue{"schema": schema, "limit": limit, "password": secret})
	fmt.Println("refused:", refused, err)
	opts, _ := c.GetSessionOptions(ctx)
	fmt.Println("schema:", SessionOptionValueOf(opts["schema"]), "limit:", SessionOptionValueOf(opts["limit"]), "options:", len(opts))
	st, _ := c.CloseSession(ctx)
	fmt.Println(st)
	// Output:
	// refused: map[password:INVALID_NAME] <nil>
	// schema: analytics limit: 100 options: 2
	// CLOSED
}
