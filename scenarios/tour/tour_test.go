package tour

import (
	"context"
	"errors"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/scenarios"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// TestLessons: the seven, numbered in order, with distinct names that are
// not scenario names, scenarios of the catalog, both languages, and a
// naive client exactly for the client-side ones.
func TestLessons(t *testing.T) {
	ls := Lessons()
	if len(ls) != 7 {
		t.Fatalf("want the lesson's 7 mistakes, got %d", len(ls))
	}
	seen := map[string]bool{}
	for i, l := range ls {
		if l.Number != i+1 {
			t.Errorf("lesson %d has number %d", i+1, l.Number)
		}
		if seen[l.Name] || slices.Contains(scenarios.Names(), l.Name) || l.Name == strconv.Itoa(l.Number) {
			t.Errorf("lesson %d: name %q is taken (by another lesson or a scenario)", l.Number, l.Name)
		}
		seen[l.Name] = true
		for _, f := range []string{l.Title, l.TitleES, l.Summary, l.Fix, l.FixES} {
			if strings.TrimSpace(f) == "" {
				t.Errorf("lesson %d has an empty text: %+v", l.Number, l)
			}
		}
		if len(l.Scenarios) == 0 {
			t.Errorf("lesson %d shows no scenario", l.Number)
		}
		for _, n := range l.Scenarios {
			if _, ok := scenarios.Lookup(n); !ok {
				t.Errorf("lesson %d names %q, which is not in the catalog", l.Number, n)
			}
		}
		if (l.naive.Run != nil) != (l.Side == ClientSide) {
			t.Errorf("lesson %d (%s side): a naive client only for the client-side lessons", l.Number, l.Side)
		}
	}
	if got := []Side{ls[0].Side, ls[3].Side}; got[0] != ClientSide || got[1] != ClientSide {
		t.Errorf("lessons 1 and 4 are the client's mistakes, got %v", got)
	}
	ls[0].Scenarios[0] = "changed"
	if Lessons()[0].Scenarios[0] == "changed" {
		t.Error("Lessons returns the package's own slices")
	}
}

// TestClientSideLessons: the naive clients make their mistakes, and the
// tour shows what the mock caught and the failed verdict, with no client
// given (they need none).
func TestClientSideLessons(t *testing.T) {
	for _, tc := range []struct {
		lesson string
		naive  string
		rules  []string
	}{
		{"1", "sends a malformed initialize", []string{"jsonrpc/version", "lifecycle/initialize-first", "jsonrpc/method-not-found", "lifecycle/initialize-params"}},
		{"undeclared-method-calls", "calls undeclared methods", []string{"capabilities/undeclared-method: resources/list called, but the server did not declare the resources capability"}},
	} {
		t.Run(tc.lesson, func(t *testing.T) {
			var out strings.Builder
			if err := (Tour{Log: testLog{t}}).Run(&out, tc.lesson); err != nil {
				t.Fatal(err)
			}
			s := out.String()
			_, caught, ok := strings.Cut(s, "What the mock caught (the rules the client broke):\n")
			if !ok {
				t.Fatalf("no report of what the mock caught:\n%s", s)
			}
			caught, _, _ = strings.Cut(caught, "\n\n")
			for _, r := range tc.rules {
				if !strings.Contains(strings.Join(strings.Fields(caught), " "), r) {
					t.Errorf("the mock's report does not name %q:\n%s", r, caught)
				}
			}
			if !strings.Contains(flat(s), " A naive hand-written client that "+tc.naive+": caught, the client ") {
				t.Errorf("want the naive client's verdict caught:\n%s", s)
			}
			if strings.Contains(s, "client: pass") || strings.Contains(s, "Playing: ") {
				t.Errorf("a naive client is never passed, and no client of the user's plays:\n%s", s)
			}
			if !strings.Contains(s, "\nHow to fix it: ") || !strings.Contains(s, "\nCómo corregirlo: ") {
				t.Errorf("no fix:\n%s", s)
			}
		})
	}
}

// TestServerSideLessonNeedsClient: a server-side lesson with no client is
// an error that says what to set, not a crash.
func TestServerSideLessonNeedsClient(t *testing.T) {
	var out strings.Builder
	err := (Tour{}).Run(&out, "2")
	if err == nil || !strings.Contains(err.Error(), "set Tour.Client") {
		t.Fatalf("want an error asking for Tour.Client, got %v", err)
	}
}

// TestClientMeetsScenario: the given client runs with the scenario and
// its steps are shown in order; a client that does nothing reaches no
// decision point (not-reached, a failure).
func TestClientMeetsScenario(t *testing.T) {
	idle := Client{Name: "an idle client", Run: OneSessionRun(func(ctx context.Context, conn net.Conn, s scenarios.Scenario, say func(string, ...any)) error {
		say("it was given %s", s.Name)
		say("it closed the connection")
		return conn.Close()
	})}
	var out strings.Builder
	if err := (Tour{Client: idle, Log: testLog{t}}).Run(&out, "modern-only"); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{
		"## modern-only\n",
		"What the client did:\n- it was given modern-only\n- it closed the connection\n",
		"\nAn idle client: not-reached (a failure), ",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in:\n%s", want, s)
		}
	}
	if strings.Contains(s, "# Mistake") || strings.Contains(s, "How to fix it") {
		t.Errorf("a scenario named alone is shown without a lesson:\n%s", s)
	}
}

// TestPanickingClient: a client that panics is a failed verdict naming
// the panic, not a crash of the tour.
func TestPanickingClient(t *testing.T) {
	panicky := Client{Name: "a panicking client", Run: func(context.Context, *scenarios.Endpoint, scenarios.Scenario, func(string, ...any)) error {
		panic("boom")
	}}
	var out strings.Builder
	if err := (Tour{Client: panicky, Log: testLog{t}}).Run(&out, "modern-only"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "\nA panicking client: fail, ") || !strings.Contains(out.String(), "boom") {
		t.Errorf("want the verdict fail naming the panic:\n%s", out.String())
	}
}

// TestRest: the whole tour's walk of the catalog leaves out the server-side
// lessons' scenarios and Client.Skip, and brings back the naive clients'.
func TestRest(t *testing.T) {
	tr := Tour{Client: Client{Skip: map[string]string{"wrong-id-type": "racy"}}}
	rest := tr.Rest()
	for _, n := range []string{"giftgen-handshake", "undeclared-methods", "giftgen-stateless", "modern-only"} {
		if !slices.Contains(rest, n) {
			t.Errorf("the rest lacks %s: %v", n, rest)
		}
	}
	for _, n := range []string{"wrong-id-type", "protocol-version-unknown", "tools-capability-missing", "capabilities-lie"} {
		if slices.Contains(rest, n) {
			t.Errorf("the rest has %s: %v", n, rest)
		}
	}
	var u strings.Builder
	tr.Usage(&u)
	for _, want := range []string{"  1  malformed-initialize", "  7  capability-magic", "wrong-id-type: ", "(not in the whole tour: racy)"} {
		if !strings.Contains(u.String(), want) {
			t.Errorf("Usage has no %q:\n%s", want, u.String())
		}
	}
}

// testLog sends what the mock logs to the test's log (a problem the mock
// reports also makes Run return an error, which fails the test).
type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Logf("the mock: %s", p)
	return len(p), nil
}

// stopWriter keeps what is written to it and fails every write once it
// holds the end of what the whole tour leaves out: Run stops there.
type stopWriter struct{ b strings.Builder }

func (s *stopWriter) Write(p []byte) (int, error) {
	if strings.Contains(s.b.String(), "Name one to see it anyway.") {
		return 0, errors.New("stop")
	}
	return s.b.Write(p)
}

// TestLeftOutUpFront: the whole tour says first whose clients play and
// what their verdicts mean, then which scenarios it leaves out for its
// client, and why, before it plays anything.
func TestLeftOutUpFront(t *testing.T) {
	tr := Tour{Client: Client{Name: "the app", Skip: map[string]string{
		"wrong-id-type": "racy", "http-error-page": "the app connects over stdio"}}}
	var w stopWriter
	if err := tr.Run(&w); err == nil {
		t.Fatal("want the writer's error")
	}
	want := "Playing: the app. Its verdict on each server: pass (it coped as a correct client\n" +
		"does), fail or not-reached (it did not: a failure), or not-applicable.\n" +
		"The client's own mistakes are made on purpose by the tour's naive clients: their\n" +
		"verdict is caught (the mock caught the mistake), never pass.\n\n" +
		"The whole tour leaves out 2 scenarios of the catalog with the app:\n" +
		"- wrong-id-type: racy\n" +
		"- http-error-page: the app connects over stdio\n" +
		"Name one to see it anyway.\n\n"
	if w.b.String() != want {
		t.Errorf("want first\n%s\ngot\n%s", want, w.b.String())
	}
}

// TestUnknownName: a misspelled lesson or scenario gets the nearest name,
// not the whole catalog, and nothing is played.
func TestUnknownName(t *testing.T) {
	var out strings.Builder
	err := Tour{}.Run(&out, "wrong-id-typ", "forgoten-capability", "zzz")
	want := `no lesson or scenario named "wrong-id-typ"; did you mean "wrong-id-type"?; ` +
		`no lesson or scenario named "forgoten-capability"; did you mean "forgotten-capability"?; ` +
		`no lesson or scenario named "zzz" (the lessons are 1 to 7, by number or name; Usage lists them and the catalog)`
	if err == nil || err.Error() != want || out.Len() > 0 {
		t.Errorf("want the error\n%s\ngot %v, and output %q", want, err, out.String())
	}
}

// TestAuthWalk: "auth" walks one healthy authorization (pass, with its
// diagram, no rule broken) and the three client mistakes, each caught: the
// missing PKCE and resource by their rules, the missing step-up by the
// scenario's verdict; no rule blames what the clients did right.
func TestAuthWalk(t *testing.T) {
	var out strings.Builder
	if err := (Tour{}).Run(&out, "auth"); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	parts := strings.Split(got, "# Authorization mistake ")
	if len(parts) != 4 {
		t.Fatalf("want the healthy flow and 3 mistakes, got %d parts:\n%s", len(parts), got)
	}
	healthy := parts[0]
	for _, want := range []string{"## auth/metadata-default", "```mermaid", "C0->>AS: POST /token", "The tour's OAuth client: pass", "called suggest_gifts: \"a board game\""} {
		if !strings.Contains(healthy, want) {
			t.Errorf("the healthy flow lacks %q:\n%s", want, healthy)
		}
	}
	if strings.Contains(healthy, "What the mock caught") {
		t.Errorf("the healthy client broke a rule:\n%s", healthy)
	}
	for i, want := range [][]string{
		{"no PKCE", "- auth/pkce-s256: the authorization request has no code_challenge", "A naive OAuth client that skips PKCE: caught, the client sent no PKCE code_challenge (rule auth/pkce-s256)."},
		{"no resource parameter", "- auth/resource-parameter: the authorization request has no resource", "- auth/resource-parameter: the token request has no resource",
			"A naive OAuth client that sends no resource parameter: caught, the client sent no resource parameter (rule auth/resource-parameter)."},
		{"no re-authorization on a step-up", "gave up", "A naive OAuth client that does not step up: caught, the client gave up on the 403 insufficient_scope instead of authorizing again (the scenario's verdict: fail, after the 403"},
	} {
		for _, w := range want {
			if !strings.Contains(flat(parts[i+1]), w) {
				t.Errorf("mistake %d lacks %q:\n%s", i+1, w, parts[i+1])
			}
		}
		if strings.Contains(parts[i+1], "client: pass") {
			t.Errorf("mistake %d: a naive client is passed:\n%s", i+1, parts[i+1])
		}
	}
	if strings.Contains(got, "auth/scope-selection") {
		t.Errorf("a client was blamed for the scope the challenge named:\n%s", got)
	}
	var usage strings.Builder
	Tour{}.Usage(&usage)
	if !strings.Contains(usage.String(), "auth ") {
		t.Errorf("Usage does not name the authorization walk:\n%s", usage.String())
	}
}
