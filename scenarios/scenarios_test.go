package scenarios_test

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/scenarios"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// buggy is, per scenario, a client with exactly the bug the scenario
// catches, and what the check's message must say about it.
var buggy = map[string]struct {
	bug kind
	// correct, if set, is the kind of correct client the scenario applies
	// to (e.g. one that reconnects); the zero value is the default one.
	correct *kind
	mention []string
	// deadline, if set, shortens the scenario's deadline: the buggy client
	// waits for it.
	deadline time.Duration
	// http, if set, makes the clients HTTP raw clients: the correct one and
	// the one with this bug (bug and correct are then unused).
	http *bugs
}{
	"giftgen-handshake":            {bug: kind{bugs: bugs{SkipInitialized: true}}, mention: []string{"did not send notifications/initialized"}},
	"giftgen-stateless":            {bug: kind{bugs: bugs{NoMeta: true}}, mention: []string{"requests without the per-request protocol version", "tools/list id 2"}},
	"initialize-result-malformed":  {bug: kind{bugs: bugs{AcceptAnyResult: true}}, mention: []string{"after the initialize result the client sent notifications/initialized", "connect returned nil"}},
	"protocol-version-unknown":     {bug: kind{bugs: bugs{AcceptAnyResult: true}}, mention: []string{"after the initialize result the client sent notifications/initialized, tools/list"}},
	"tools-capability-missing":     {bug: kind{bugs: bugs{IgnoreCapabilities: true}}, mention: []string{"the client sent tools/list", "declared no tools capability"}},
	"undeclared-methods":           {bug: kind{bugs: bugs{IgnoreCapabilities: true}}, mention: []string{"resources/list called", "resources capability", "prompts/list called"}},
	"notify-before-initialized":    {bug: kind{bugs: bugs{StrictHandshake: true}}, mention: []string{"did not send notifications/initialized", "unexpected message before notifications/initialized"}},
	"tools-schema-changed-quietly": {bug: kind{bugs: bugs{RetryStale: true}}, mention: []string{`called suggest_gifts again with the same arguments {"age":25}`, "without listing the tools first"}},
	"capabilities-lie":             {bug: kind{bugs: bugs{CallDespiteListError: true}}, mention: []string{"called tools", "although tools/list failed"}},
	"capabilities-differ-by-era":   {bug: kind{bugs: bugs{IgnoreCapabilities: true}}, mention: []string{"the client sent tools/list", "server/discover declared no tools capability (only prompts, resources)"}},
	"capabilities-per-session":     {correct: &kind{reconnect: true}, bug: kind{reconnect: true, cacheCaps: true}, mention: []string{"in the second session the client sent tools/list, tools/call although that session declared no tools capability (only prompts, resources)"}},
	"capabilities-unknown-keys":    {bug: kind{bugs: bugs{RejectUnknownCapabilities: true}}, mention: []string{`unknown server capability \"wishlists\"`, "no request beyond the lifecycle"}},
	"tools-list-changed":           {bug: kind{bugs: bugs{IgnoreListChanged: true}}, mention: []string{"after notifications/tools/list_changed the client sent", "but no tools/list"}},
	"negotiate-older-version":      {bug: kind{bugs: bugs{OnlyVersions: []string{"2025-11-25"}}}, mention: []string{"did not send notifications/initialized", `unsupported protocol version \"2025-03-26\"`}},
	"negotiate-unknown-version":    {bug: kind{bugs: bugs{Ignore32022: true}}, mention: []string{"after -32022 listed only 2099-01-01 the client sent tools/list id 2 in 2026-07-28"}},
	"discover-never-answered":      {bug: kind{bugs: bugs{NoProbeTimeout: true}}, mention: []string{"no handshake", "context deadline exceeded", "server/discover"}, deadline: time.Second},
	"modern-only":                  {bug: kind{bugs: bugs{InitAfterDiscover: true}}, mention: []string{"initialize sent to a modern-only server after server/discover succeeded"}},
	"stdout-banner":                {bug: kind{bugs: bugs{NonJSONFatal: true}}, mention: []string{"invalid JSON from the server", "no request beyond the lifecycle"}},
	"wrong-id-type":                {bug: kind{bugs: bugs{NoTimeout: true}}, mention: []string{"did not return within"}},
	"disconnect-mid-call":          {bug: kind{bugs: bugs{HangOnEOF: true}}, mention: []string{"waited for its timeout", "context deadline exceeded"}, deadline: time.Second},
	"slow-tool-timeout":            {bug: kind{bugs: bugs{NoCancel: true}}, mention: []string{"no notifications/cancelled for tools/call id"}},
	"elicitation-round-trip":       {bug: kind{bugs: bugs{ReuseRetryID: true}}, mention: []string{"the retry broke", "mrtr/new-id"}},
	"looping-cursor":               {bug: kind{bugs: bugs{FollowCursorLoop: true}}, mention: []string{"following the looping cursor"}, deadline: 500 * time.Millisecond},
	"http-session-expired":         {http: &bugs{GiveUpOn404: true}, mention: []string{"did not initialize a new session", "session expired (404 Not Found)"}},
	"http-error-page":              {http: &bugs{SwallowHTTPErrors: true}, mention: []string{"connect returned nil although its only tools/call was answered 503"}},
	"http-stream-dropped":          {http: &bugs{NoResume: true}, mention: []string{"never resumed the cut stream", "the reply stream ended before the reply"}},
	"http-legacy-sse-only":         {http: &bugs{NoFallback: true}, mention: []string{"never opened the HTTP+SSE transport", "HTTP 405"}},
}

// TestCatalogBothWays plays every scenario with the correct raw client,
// whose check must pass, and with the client that has exactly the bug the
// scenario catches, whose check must fail saying what it did.
func TestCatalogBothWays(t *testing.T) {
	auth := map[string]bool{}
	for _, s := range scenarios.Auth() {
		auth[s.Name] = true
	}
	for _, s := range scenarios.All() {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			if auth[s.Name] {
				// Proven both ways by the raw OAuth client in mcptest
				// (TestAuthScenarios); here: the correct client, which has
				// no OAuth, is not judged by them.
				for _, cc := range []scenarios.ConnectFunc{correct, correctHTTP} {
					if r := s.Evaluate(s.Play(t, cc)); r.Status != scenarios.NotApplicable {
						t.Errorf("a client without OAuth: want not-applicable, got %s: %s", r.Status, r.Observed)
					}
				}
				return
			}
			b, ok := buggy[s.Name]
			if !ok {
				t.Fatalf("no buggy client for scenario %s: add one to the table", s.Name)
			}
			t.Run("correct", func(t *testing.T) {
				t.Parallel()
				cc := correct
				switch {
				case b.http != nil:
					cc = correctHTTP
				case b.correct != nil:
					cc = connectAs(*b.correct)
				}
				o := s.Play(t, cc)
				if err := s.Check(o); err != nil {
					t.Errorf("the correct client fails %s:\n%v\ntranscript:\n%s", s.Name, err, o.Server.Transcript())
				}
			})
			t.Run("buggy", func(t *testing.T) {
				t.Parallel()
				s := s // a copy: the correct subtest reads s concurrently
				if b.deadline > 0 {
					s.Deadline = b.deadline
				}
				bc := connectAs(b.bug)
				if b.http != nil {
					bc = connectHTTP(*b.http)
				}
				o := s.Play(t, bc)
				err := s.Check(o)
				if err == nil {
					t.Fatalf("the buggy client (%+v) passes %s; transcript:\n%s", b.bug, s.Name, o.Server.Transcript())
				}
				msg := err.Error()
				if want := "want: " + s.Expect.Description + "; got: "; !strings.HasPrefix(msg, want) {
					t.Errorf("message does not start with %q:\n%s", want, msg)
				}
				for _, m := range b.mention {
					if !strings.Contains(msg, m) {
						t.Errorf("message does not mention %q:\n%s", m, msg)
					}
				}
				t.Logf("%s", msg)
			})
		})
	}
}

// TestCatalog checks every scenario is complete and the names are unique
// and stable in form.
func TestCatalog(t *testing.T) {
	all := scenarios.All()
	if len(all) < 20 {
		t.Errorf("want at least 20 scenarios, got %d", len(all))
	}
	seen := map[string]bool{}
	for _, s := range all {
		if seen[s.Name] {
			t.Errorf("scenario name %s is used twice", s.Name)
		}
		seen[s.Name] = true
		if name := strings.TrimPrefix(s.Name, "auth/"); name == "" || strings.ToLower(name) != name || strings.ContainsAny(name, " /") {
			t.Errorf("scenario name %q: want lower-case words joined by - (after auth/ for an authorization scenario)", s.Name)
		}
		if s.Mistake == "" || s.Expect.Description == "" || s.Expect.DecisionPoint == "" || s.Expect.Reached == nil || s.Expect.Check == nil || s.Server == nil {
			t.Errorf("scenario %s is incomplete: %+v", s.Name, s)
		}
		// an authorization scenario may cite the RFC the spec defers to
		rfc := strings.HasPrefix(s.Name, "auth/") && strings.HasPrefix(s.Spec, "https://www.rfc-editor.org/rfc/")
		if !strings.HasPrefix(s.Spec, "https://modelcontextprotocol.io/specification/") && !rfc {
			t.Errorf("scenario %s: Spec %q is not a spec address", s.Name, s.Spec)
		}
		got, ok := scenarios.Lookup(s.Name)
		if !ok || got.Name != s.Name {
			t.Errorf("Lookup(%q) = %v, %v", s.Name, got.Name, ok)
		}
		if str := s.String(); !strings.HasPrefix(str, s.Name+": ") || !strings.Contains(str, s.Spec) {
			t.Errorf("String() = %q: want the name, a sentence and the spec", str)
		}
	}
	if _, ok := scenarios.Lookup("no-such-scenario"); ok {
		t.Errorf("Lookup of an unknown name succeeded")
	}
	for name := range buggy {
		if !seen[name] {
			t.Errorf("the buggy-client table names %s, which is not in the catalog", name)
		}
	}
	if names := scenarios.Names(); len(names) != len(all) || names[0] != all[0].Name {
		t.Errorf("Names() = %v", names)
	}
}

// TestMistakesReadAsProse: each scenario's Mistake is a paragraph of
// sentences: no "None:" label for the healthy servers, a capital first,
// a full stop last.
func TestMistakesReadAsProse(t *testing.T) {
	for _, s := range scenarios.All() {
		m := s.Mistake
		if strings.HasPrefix(m, "None") || m == "" || strings.ToUpper(m[:1]) != m[:1] || !strings.HasSuffix(m, ".") {
			t.Errorf("%s: the mistake does not read as prose: %q", s.Name, m)
		}
	}
}
