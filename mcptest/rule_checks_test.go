package mcptest_test

import (
	"context"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"net/http"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
)

// TestElicitationContentViaRequest: an elicitation/create the test sends
// itself with Session.SendRequest is checked as ElicitInput's is: an accepted
// content that breaks the requestedSchema is elicitation/content-schema
// (a warning: the spec says clients SHOULD validate), a missing default
// elicitation/defaults-applied; a client that declines or cancels, or
// accepts a content that fits, is never blamed.
func TestElicitationContentViaRequest(t *testing.T) {
	const schema = `{"type":"object","properties":{"ok":{"type":"boolean"},"note":{"type":"string","default":"none"}},"required":["ok"]}`
	for _, tc := range []struct {
		name   string
		answer string
		want   []mcptest.RuleID
	}{
		{"content of the wrong type", `{"action":"accept","content":{"ok":"yes","note":"x"}}`, []mcptest.RuleID{"elicitation/content-schema"}},
		{"content without a required field", `{"action":"accept","content":{"note":"x"}}`, []mcptest.RuleID{"elicitation/content-schema"}},
		{"content without a default", `{"action":"accept","content":{"ok":true}}`, []mcptest.RuleID{"elicitation/defaults-applied"}},
		{"content that fits", `{"action":"accept","content":{"ok":true,"note":"x"}}`, nil},
		{"declined", `{"action":"decline"}`, nil},
		{"cancelled", `{"action":"cancel"}`, nil},
		{"declined with a content that does not fit", `{"action":"decline","content":{"ok":"no"}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := mcptest.NewServer(t)
			c := dialRaw(t, srv)
			elicitHandshake(t, c)
			type answer struct {
				m   mcptest.Message
				err error
			}
			got := make(chan answer, 1)
			go func() {
				m, err := srv.Session(1).SendRequest(context.Background(), "elicitation/create",
					`{"mode":"form","message":"Sure?","requestedSchema":`+schema+`}`)
				got <- answer{m, err}
			}()
			req := c.recvJSON(t)
			if req.Get("method").String() != "elicitation/create" {
				t.Fatalf("want elicitation/create, got %s", req.Raw)
			}
			c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, req.Get("id").Raw, tc.answer))
			a := <-got
			if a.err != nil || a.m.Kind != mcptest.KindResult {
				t.Fatalf("Request: want the client's result, got %v, %v", a.m, a.err)
			}
			vs := srv.Violations()
			if len(vs) != len(tc.want) {
				t.Fatalf("want violations %v, got %v", tc.want, vs)
			}
			for i, v := range vs {
				if v.Rule != tc.want[i] || v.Severity != mcptest.SeverityWarning || v.Message.Seq != a.m.Seq {
					t.Errorf("want a %s warning on the client's answer #%d, got %v", tc.want[i], a.m.Seq, v)
				}
			}
		})
	}
}

// TestStatelessIDReuseAfterResponse: 2026-07-28 asks only that a request id
// not match one still in flight, so a stateless client that reuses an id
// whose response it has is not blamed (jsonrpc/id-unique is a rule of the
// handshake era: its row says so, and violate reads it).
func TestStatelessIDReuseAfterResponse(t *testing.T) {
	srv := slFullServer(t)
	c := dialRaw(t, srv)
	slDiscover(t, c, "1")
	c.result(t, "2", "tools/list", slOK(""))
	c.result(t, "2", "tools/list", slOK(""))
	if vs := srv.Violations(); len(vs) != 0 {
		t.Errorf("want no violation for an id reused after its response, got %v", vs)
	}
}

// TestDiscoverFirstOnlyOnStdio: the spec asks a client to probe with
// server/discover first on stdio; over HTTP it attempts a modern request
// instead, so a first tools/list there is no stateless/discover-first.
func TestDiscoverFirstOnlyOnStdio(t *testing.T) {
	srv := slFullServer(t)
	h := newHTTPRaw(t, srv)
	status, _, body := h.post(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+statelessMeta+`}}`,
		spec.HeaderProtocolVersion, "2026-07-28", spec.HeaderMethod, "tools/list")
	if status != http.StatusOK {
		t.Fatalf("tools/list over HTTP: status %d, %s", status, body)
	}
	if vs := srv.Violations(); len(vs) != 0 {
		t.Errorf("want no violation for a stateless HTTP client that did not probe first, got %v", vs)
	}

	pipe := slFullServer(t)
	c := dialRaw(t, pipe)
	c.result(t, "1", "tools/list", slOK(""))
	if vs := pipe.Violations(); len(vs) != 1 || vs[0].Rule != "stateless/discover-first" {
		t.Errorf("want stateless/discover-first on the pipe (stdio), got %v", vs)
	}
}

// TestOncePerSessionFromTheTable: a rule whose row says once per session
// (lifecycle/unoffered-version-accepted, which every request after the
// handshake breaks again) is reported once a session: violate reads the
// row, the check does not count.
func TestOncePerSessionFromTheTable(t *testing.T) {
	srv := ruleServer(t).WithFaults(fault.RespondProtocolVersion("1999-01-01"))
	for range 2 {
		c := dialRaw(t, srv)
		c.result(t, rawInitID, "initialize", initializeParams("2025-11-25"))
		c.notify("notifications/initialized", "")
		for _, id := range []string{"1", "2", "3"} {
			c.result(t, id, "tools/list", "")
		}
	}
	vs := srv.Violations()
	if len(vs) != 2 || vs[0].Rule != "lifecycle/unoffered-version-accepted" || vs[1].Rule != "lifecycle/unoffered-version-accepted" || vs[0].Message.SessionNumber == vs[1].Message.SessionNumber {
		t.Errorf("want one %s a session, two sessions, got %v", "lifecycle/unoffered-version-accepted", vs)
	}
}
