package integration_test

// The wire tap the fault tests read through: the client's end of a
// connection to the mock, with a recorder on its read side, and the
// helpers that hold the journal to what the client read.

import (
	"bytes"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wireTap is the client's end of a connection that keeps every byte the
// client read from the mock, to hold the journal to what really went on
// the wire.
type wireTap struct {
	net.Conn
	mu      sync.Mutex
	got     bytes.Buffer
	changed chan struct{} // a token after every read
}

func newWireTap(conn net.Conn) *wireTap {
	return &wireTap{Conn: conn, changed: make(chan struct{}, 1)}
}

// dialTap dials srv through a wireTap, closed when the test ends.
func dialTap(t *testing.T, srv *mcptest.Server) *wireTap {
	tap := newWireTap(srv.Dial())
	t.Cleanup(func() { _ = tap.Close() })
	return tap
}

func (w *wireTap) Read(p []byte) (int, error) {
	n, err := w.Conn.Read(p)
	w.mu.Lock()
	w.got.Write(p[:n])
	w.mu.Unlock()
	select {
	case w.changed <- struct{}{}:
	default:
	}
	return n, err
}

// received returns every byte the client has read so far.
func (w *wireTap) received() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.got.String()
}

// waitLonger waits until the client has read more than n bytes.
func (w *wireTap) waitLonger(t *testing.T, n int) {
	t.Helper()
	ctx := testContext(t)
	for {
		w.mu.Lock()
		read := w.got.Len()
		w.mu.Unlock()
		if read > n {
			return
		}
		select {
		case <-w.changed:
		case <-ctx.Done():
			t.Fatalf("the client never read more than %d bytes", n)
		}
	}
}

// serverFrames returns what the mock sent in session n, in wire order.
func serverFrames(srv *mcptest.Server, n int) []mcptest.Message {
	return srv.Journal().All().Filter(func(m mcptest.Message) bool {
		return m.SessionNumber == n && m.Direction == mcptest.FromServer
	})
}

// journaledWire rebuilds from the journal the bytes the mock wrote to
// session n: each frame it sent, with its newline unless the journal says
// it had none (no final newline, or truncated before it).
func journaledWire(srv *mcptest.Server, n int) string {
	return journaledWireBefore(srv, n, int(^uint(0)>>1))
}

// journaledWireBefore is journaledWire up to the journal message seq
// (excluded).
func journaledWireBefore(srv *mcptest.Server, n, seq int) string {
	var b strings.Builder
	for _, m := range serverFrames(srv, n) {
		if m.Seq >= seq {
			continue
		}
		b.WriteString(m.Raw())
		if !strings.Contains(m.Problem, "truncated") && !strings.Contains(m.Problem, "no final newline") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// assertJournalIsWire checks that the journal of session n holds exactly
// the bytes the client read: call it once the client has read everything
// the mock sent (after a later round trip, after the client rejected the
// last frame, or once the connection is gone).
func assertJournalIsWire(t *testing.T, srv *mcptest.Server, n int, tap *wireTap) {
	t.Helper()
	assert.Equal(t, tap.received(), journaledWire(srv, n), "the journal must hold exactly what went on the wire")
}

// assertWirePrefix checks that every byte the client read on session n is
// a byte the journal says the mock wrote, in order (the client need not
// have read all of them); it returns how many bytes the client read.
func assertWirePrefix(t *testing.T, srv *mcptest.Server, n int, tap *wireTap) int {
	t.Helper()
	got, wire := tap.received(), journaledWire(srv, n)
	require.LessOrEqual(t, len(got), len(wire), "the client read more bytes than the journal says the mock wrote")
	// Compared as strings, not with assert.Equal: diffing a 17 MiB frame
	// under -race takes long.
	assert.True(t, got == wire[:len(got)], "the %d bytes the client read differ from the journaled frames:\n%s", len(got), clipText(wire[:len(got)]))
	return len(got)
}

func clipText(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "…"
	}
	return s
}
