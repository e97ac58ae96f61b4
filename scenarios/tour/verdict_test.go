package tour

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
)

// flat joins a wrapped text's lines.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestPlayVerdicts: Play returns a verdict for each scenario played, in
// order, naming the client: Tour.Client's as the scenario's status (a
// not-reached one Failed), a naive client's as caught (its failed scenario
// not Failed); and the output says first whose client plays.
func TestPlayVerdicts(t *testing.T) {
	idle := Client{Name: "an idle client", Run: OneSessionRun(func(_ context.Context, conn net.Conn, _ scenarios.Scenario, _ func(string, ...any)) error {
		return conn.Close()
	})}
	var out strings.Builder
	vs, err := (Tour{Client: idle, Log: testLog{t}}).Play(&out, "modern-only", "4")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "Playing: an idle client. ") {
		t.Errorf("the output does not start with whose client plays:\n%s", out.String())
	}
	if len(vs) != 2 {
		t.Fatalf("want 2 verdicts, got %+v", vs)
	}
	if v := vs[0]; v.Scenario != "modern-only" || v.Client != "an idle client" || v.Own || v.Naive || v.Status != scenarios.NotReached || !v.Failed() {
		t.Errorf("the idle client's verdict: %+v", v)
	}
	if v := vs[1]; v.Scenario != "undeclared-methods" || !v.Own || !v.Naive || !v.Caught || v.Failed() ||
		v.Client != "a naive hand-written client that calls undeclared methods" {
		t.Errorf("the naive client's verdict: %+v", v)
	}
}

// TestNaiveNotCaught: a naive client whose mistake the mock does not
// report is never passed: its verdict says NOT caught, names the rule the
// mock missed, and Failed.
func TestNaiveNotCaught(t *testing.T) {
	quiet := Client{Name: "a naive client that does nothing wrong", own: true,
		mistake: &mistake{did: "sent no PKCE code_challenge", rules: []mcptest.RuleID{"auth/pkce-s256"}},
		Run: OneSessionRun(func(_ context.Context, conn net.Conn, _ scenarios.Scenario, _ func(string, ...any)) error {
			return conn.Close()
		})}
	s, _ := scenarios.Lookup("modern-only")
	var out strings.Builder
	v, err := (Tour{Log: testLog{t}}).play(&out, s, quiet)
	if err != nil {
		t.Fatal(err)
	}
	want := "A naive client that does nothing wrong: NOT caught, the client sent no PKCE code_challenge, but the mock did not report rule auth/pkce-s256: " +
		"the tour is wrong, please report it."
	if !strings.Contains(flat(out.String()), want) {
		t.Errorf("want %q in:\n%s", want, out.String())
	}
	if !v.Naive || v.Caught || !v.Failed() {
		t.Errorf("want an uncaught, failed verdict, got %+v", v)
	}
}
