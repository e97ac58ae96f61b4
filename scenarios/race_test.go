package scenarios_test

import (
	"bufio"
	"context"
	"net"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/scenarios"
)

// TestClosedBeforeReaction: an app whose connect function closes its
// session as soon as notifications/tools/list_changed has arrived, before
// its background re-list could run, is not reached on tools-list-changed,
// and the verdict names the close and its timing, every play, instead of
// a fail that flips with the client's own race. A client that worked on
// after the notification and never re-listed still fails.
func TestClosedBeforeReaction(t *testing.T) {
	s, _ := scenarios.Lookup("tools-list-changed")
	closeOnNote := scenarios.OneSession(func(ctx context.Context, conn net.Conn) error {
		defer conn.Close()
		r := bufio.NewReader(conn)
		for _, l := range []string{
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"closer","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		} {
			if _, err := conn.Write([]byte(l + "\n")); err != nil {
				return err
			}
		}
		for { // the notification is on the wire: close at once, as the racing app does
			line, err := r.ReadString('\n')
			if err != nil {
				return err
			}
			if strings.Contains(line, "notifications/tools/list_changed") {
				return nil
			}
		}
	})
	want := regexp.MustCompile(`^the client closed session 1, [0-9.]+(µs|ms|s) after notifications/tools/list_changed, without sending anything after it, before re-listing: a client that re-lists from a goroutine of its own lost the race with its own close`)
	for play := 1; play <= 3; play++ {
		r := s.Evaluate(s.Play(t, closeOnNote))
		if r.Status != scenarios.NotReached || !want.MatchString(r.Observed) {
			t.Fatalf("play %d: want not-reached naming the close, got %s: %s", play, r.Status, r.Observed)
		}
	}
	if r := s.Evaluate(s.Play(t, connectWith(bugs{IgnoreListChanged: true}))); r.Status != scenarios.Fail {
		t.Errorf("a client that worked on after the notification without re-listing: want fail, got %s: %s", r.Status, r.Observed)
	}
}

// TestClosedBeforeCancel: a client that gives up on slow-tool-timeout's
// call and closes its session without notifications/cancelled fails, and
// the failure names the close and when it came after the call.
func TestClosedBeforeCancel(t *testing.T) {
	s, _ := scenarios.Lookup("slow-tool-timeout")
	r := s.Evaluate(s.Play(t, connectWith(bugs{NoCancel: true})))
	want := regexp.MustCompile(`no notifications/cancelled for tools/call id \d+ \(the client closed session 1, [0-9.]+(µs|ms|s) after tools/call id \d+, without sending anything after it: a notifications/cancelled sent from a goroutine of the client's own races that close\)`)
	if r.Status != scenarios.Fail || !want.MatchString(r.Observed) {
		t.Errorf("want fail naming the close, got %s: %s", r.Status, r.Observed)
	}
}
