package main

import (
	"context"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/alkaid-go/alkaid/flight/internal/scenario"
)

// The server prints the line harnesses wait for, with the port it got,
// and stops when its context ends; an unknown scenario is an error.
func TestRunPrintsPort(t *testing.T) {
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, 0, "", pw); pw.Close() }()
	buf := make([]byte, 100)
	n, err := pr.Read(buf)
	require.NoError(t, err)
	require.Regexp(t, regexp.MustCompile(`^Server listening on localhost:[1-9][0-9]*\n$`), string(buf[:n]))
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop")
	}
	require.ErrorContains(t, run(context.Background(), 0, "no-such-scenario", io.Discard), "scenario not found")
}

// The command's doc lists every scenario it serves.
func TestDocListsScenarios(t *testing.T) {
	src, err := os.ReadFile("main.go")
	require.NoError(t, err)
	doc := strings.Fields(strings.NewReplacer(",", " ", "(", " ").Replace(string(src[:strings.Index(string(src), "package main")])))
	for _, name := range scenario.Names() {
		require.Contains(t, doc, name)
	}
}
