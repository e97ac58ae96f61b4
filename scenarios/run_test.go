package scenarios_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpmock/mcpmock/internal/faketb"
	"github.com/mcpmock/mcpmock/scenarios"
)

// TestRunCorrectClient runs the whole catalog with the correct raw client:
// every subtest passes (but the one about reconnecting, which does not
// apply to a client of one session, and the HTTP ones, which do not apply
// to a client that never asks for the URL), and the report says so in
// JSON and as a table.
func TestRunCorrectClient(t *testing.T) {
	rep := scenarios.Run(t, correct)
	all := scenarios.All()
	if len(rep.Results) != len(all) {
		t.Fatalf("want %d results, got %d", len(all), len(rep.Results))
	}
	for i, r := range rep.Results {
		if notApplicable[r.Scenario] {
			if r.Status != scenarios.NotApplicable {
				t.Errorf("result %d: want %s not applicable, got %+v", i, r.Scenario, r)
			}
			continue
		}
		if r.Scenario != all[i].Name || r.Status != scenarios.Pass || r.Expected != all[i].Expect.Description || r.Spec != all[i].Spec {
			t.Errorf("result %d: want %s passing, got %+v", i, all[i].Name, r)
		}
		if !strings.HasPrefix(r.Observed, "connect returned ") || r.Transcript != "" {
			t.Errorf("result %s: want a summary as Observed and no transcript, got %+v", r.Scenario, r)
		}
	}

	b, err := rep.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Results []map[string]any `json:"results"`
		Summary map[string]int   `json:"summary"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("JSON: %v\n%s", err, b)
	}
	if len(doc.Results) != len(all) || doc.Summary["pass"] != len(all)-len(notApplicable) || doc.Summary["fail"] != 0 || doc.Summary["known-deviation"] != 0 || doc.Summary["not-reached"] != 0 || doc.Summary["not-applicable"] != len(notApplicable) {
		t.Errorf("JSON: want %d results all passing but %v, got %d results, summary %v", len(all), notApplicable, len(doc.Results), doc.Summary)
	}
	for _, key := range []string{"scenario", "spec", "expected", "decision_point", "observed", "status", "elapsed_ms"} {
		if _, ok := doc.Results[0][key]; !ok {
			t.Errorf("JSON result has no %q: %v", key, doc.Results[0])
		}
	}

	var lines []string // the header, the first line of each row, the summary
	for _, l := range strings.Split(strings.TrimSuffix(rep.Table(), "\n"), "\n") {
		if !strings.HasPrefix(l, " ") { // not a wrapped row's next line
			lines = append(lines, l)
		}
	}
	if len(lines) != len(all)+2 {
		t.Fatalf("Table: want a header, %d rows and a summary, got %d lines:\n%s", len(all), len(lines), rep.Table())
	}
	if f := strings.Fields(lines[0]); strings.Join(f, " ") != "SCENARIO STATUS" {
		t.Errorf("Table header = %q", lines[0])
	}
	for i, s := range all {
		if row := lines[i+1]; !strings.HasPrefix(row, s.Name+" ") || !strings.HasSuffix(row, " pass") && !notApplicable[s.Name] {
			t.Errorf("Table row %d = %q: want %s … pass", i+1, row, s.Name)
		}
	}
	if want := fmt.Sprintf("%d scenarios: %d pass, 0 known deviations, 0 fail, 0 not reached, %d not applicable", len(all), len(all)-len(notApplicable), len(notApplicable)); lines[len(lines)-1] != want {
		t.Errorf("Table summary = %q, want %q", lines[len(lines)-1], want)
	}
}

// notApplicable are the scenarios that do not apply to the correct raw
// client of one stdio session: capabilities-per-session is about
// reconnecting, the HTTP and authorization ones about the HTTP transport.
var notApplicable = func() map[string]bool {
	na := map[string]bool{"capabilities-per-session": true}
	for _, s := range append(scenarios.HTTP(), scenarios.Auth()...) {
		na[s.Name] = true
	}
	for _, name := range suiteHTTP {
		na[name] = true
	}
	return na
}()

// TestRunKnownDeviation runs a client with a bug under Only and
// KnownDeviation: the deviating subtests pass, and the report names the
// deviation, what the client did and the transcript.
func TestRunKnownDeviation(t *testing.T) {
	const why = "lists whatever the server has, declared or not"
	rep := scenarios.Run(t, connectWith(bugs{IgnoreCapabilities: true}),
		scenarios.Only("giftgen-stateless", "tools-capability-missing", "undeclared-methods"),
		scenarios.KnownDeviation("tools-capability-missing", why),
		scenarios.KnownDeviation("undeclared-methods", why))
	want := map[string]scenarios.Status{
		"giftgen-stateless":        scenarios.Pass,
		"tools-capability-missing": scenarios.Deviation,
		"undeclared-methods":       scenarios.Deviation,
	}
	if len(rep.Results) != len(want) {
		t.Fatalf("want %d results, got %+v", len(want), rep.Results)
	}
	for _, r := range rep.Results {
		if r.Status != want[r.Scenario] {
			t.Errorf("%s: want %s, got %s (%s)", r.Scenario, want[r.Scenario], r.Status, r.Observed)
		}
		if r.Status != scenarios.Deviation {
			continue
		}
		if r.Why != why || r.Transcript == "" || !strings.Contains(r.Observed, "tools/list") && !strings.Contains(r.Observed, "resources/list called") {
			t.Errorf("%s: want the reason, the transcript and what the client did, got %+v", r.Scenario, r)
		}
	}
	if tab := rep.Table(); !strings.Contains(tab, "known-deviation") || !strings.Contains(tab, "3 scenarios: 1 pass, 2 known deviations, 0 fail, 0 not reached, 0 not applicable") {
		t.Errorf("Table:\n%s", tab)
	}
}

// TestEvaluate covers the verdicts Run gives, without a *testing.T to
// fail: pass, fail, known deviation, and a known deviation that no longer
// happens, which fails.
func TestEvaluate(t *testing.T) {
	s, _ := scenarios.Lookup("tools-capability-missing")
	good := s.Play(t, correct)
	bad := s.Play(t, connectWith(bugs{IgnoreCapabilities: true}))
	dev := scenarios.KnownDeviation(s.Name, "calls tools/list anyway")

	if r := s.Evaluate(good); r.Status != scenarios.Pass || r.Why != "" {
		t.Errorf("correct client: want pass, got %+v", r)
	}
	r := s.Evaluate(bad)
	if r.Status != scenarios.Fail || !strings.Contains(r.Observed, "the client sent tools/list") || r.Transcript == "" {
		t.Errorf("buggy client: want fail saying what it did, with the transcript, got %+v", r)
	}
	msg := s.Failure(r)
	for _, part := range []string{"scenario tools-capability-missing failed", "mistake: " + s.Mistake, "spec:    " + s.Spec, "want:    " + s.Expect.Description, "got:     the client sent tools/list"} {
		if !strings.Contains(msg, part) {
			t.Errorf("Failure does not contain %q:\n%s", part, msg)
		}
	}
	if r := s.Evaluate(bad, dev); r.Status != scenarios.Deviation || r.Why != "calls tools/list anyway" {
		t.Errorf("buggy client, known deviation: want known-deviation, got %+v", r)
	}
	r = s.Evaluate(good, dev)
	if r.Status != scenarios.Fail || !strings.Contains(r.Why, "no longer") && !strings.Contains(r.Why, "now does what a correct client does") {
		t.Errorf("correct client, known deviation declared: want fail saying the deviation is gone, got %+v", r)
	}
	if !strings.Contains(s.Failure(r), "remove the declaration") {
		t.Errorf("Failure does not say to remove the declaration:\n%s", s.Failure(r))
	}
	if err := s.Check(bad); err == nil || !strings.HasPrefix(err.Error(), "want: "+s.Expect.Description+"; got: ") {
		t.Errorf("Check: want an error in the form want: …; got: …, got %v", err)
	}
}

// TestPlayNeverHangs: a connect function that ignores its context gets its
// connection closed after the deadline; one that ignores that too is
// abandoned. Either fails every scenario, and Play returns.
func TestPlayNeverHangs(t *testing.T) {
	s, _ := scenarios.Lookup("giftgen-stateless")
	s.Deadline = 50 * time.Millisecond

	t.Run("ignores ctx", func(t *testing.T) {
		t.Parallel()
		o := s.Play(t, scenarios.OneSession(func(_ context.Context, conn net.Conn) error {
			_, err := conn.Read(make([]byte, 1)) // nothing comes: blocks until Play closes conn
			return err
		}))
		if !o.Hung || o.Err == nil {
			t.Fatalf("want a hung outcome with the read's error, got Hung=%v Err=%v", o.Hung, o.Err)
		}
		if err := s.Check(o); err == nil || !strings.Contains(err.Error(), "did not return within") {
			t.Errorf("want the check to say the client did not return, got %v", err)
		}
	})
	t.Run("ignores everything", func(t *testing.T) {
		t.Parallel()
		release := make(chan struct{})
		o := s.Play(t, func(context.Context, *scenarios.Endpoint) error {
			<-release
			return nil
		})
		close(release) // let the goroutine go, for goleak
		if !o.Hung || !errors.Is(o.Err, scenarios.ErrStillRunning) {
			t.Fatalf("want ErrStillRunning, got Hung=%v Err=%v", o.Hung, o.Err)
		}
	})
	t.Run("panics", func(t *testing.T) {
		t.Parallel()
		o := s.Play(t, func(context.Context, *scenarios.Endpoint) error { panic("boom") })
		if o.Hung || o.Err == nil || !strings.Contains(o.Err.Error(), "panicked: boom") {
			t.Fatalf("want the panic as Err, got Hung=%v Err=%v", o.Hung, o.Err)
		}
		if err := s.Check(o); err == nil || !strings.Contains(err.Error(), "panicked: boom") {
			t.Errorf("want the check to report the panic, got %v", err)
		}
	})
}

// TestTableWraps: the table fits TableWidth columns whatever the texts'
// length, wraps the expected and observed texts over as many lines as
// they need instead of cutting them, gives a scenario that does not apply
// only its reason, and words its counts in the singular or the plural.
func TestTableWraps(t *testing.T) {
	observed := strings.Repeat("the client sent tools/list and then nothing more ", 6) + "THE-END"
	rep := &scenarios.Report{Results: []scenarios.Result{
		{Scenario: "tools-list-changed", Expected: "the client lists the tools again after notifications/tools/list_changed, before its session ends", Observed: observed, Status: scenarios.Fail},
		{Scenario: "wrong-id-type", Expected: "short", Observed: "short too", Status: scenarios.Deviation, Why: "matches ids by number"},
		{Scenario: "auth/basic-cimd", Expected: "not shown", Observed: "not played: it needs --http", Status: scenarios.NotApplicable},
	}}
	want := `SCENARIO            STATUS
tools-list-changed  fail
    expected  the client lists the tools again after notifications/tools/list_changed, before its
              session ends
    observed  the client sent tools/list and then nothing more the client sent tools/list and then
              nothing more the client sent tools/list and then nothing more the client sent
              tools/list and then nothing more the client sent tools/list and then nothing more the
              client sent tools/list and then nothing more THE-END
wrong-id-type       known-deviation
    expected  short
    observed  short too
    note      matches ids by number
auth/basic-cimd     not-applicable
    why       not played: it needs --http
3 scenarios: 0 pass, 1 known deviation, 1 fail, 0 not reached, 1 not applicable
`
	if got := rep.Table(); got != want {
		t.Errorf("Table mismatch:\n--- got\n%s--- want\n%s", got, want)
	}
	for _, l := range strings.Split(rep.Table(), "\n") {
		if n := utf8.RuneCountInString(l); n > scenarios.TableWidth {
			t.Errorf("line of %d columns, over %d: %q", n, scenarios.TableWidth, l)
		}
	}
}

// TestWarn: Warn makes a failed SHOULD or robustness scenario a warning
// (reported, not failing), never a broken MUST; the failure says which of
// the three the client failed, and the report's table and JSON carry the
// basis.
func TestWarn(t *testing.T) {
	s, _ := scenarios.Lookup("tools-capability-missing")
	bad := s.Play(t, connectWith(bugs{IgnoreCapabilities: true}))
	robust, should, must := s, s, s
	robust.Basis = scenarios.Basis{Sentence: "the server declares what it serves", Version: "2025-11-25"}
	should.Basis = scenarios.Basis{Keyword: "SHOULD", Sentence: "clients SHOULD read the capabilities", Version: "2025-11-25"}
	must.Basis = scenarios.Basis{Keyword: "MUST", Sentence: "clients MUST respect the capabilities", Version: "2025-11-25"}

	warn := scenarios.Warn(scenarios.Robustness, scenarios.Should)
	for _, c := range []struct {
		s    scenarios.Scenario
		opts []scenarios.Option
		want scenarios.Status
		says string
	}{
		{robust, nil, scenarios.Fail, "the client did not survive a server that breaks the spec (robustness, no requirement of the client)"},
		{robust, []scenarios.Option{warn}, scenarios.Warning, "robustness"},
		{should, []scenarios.Option{warn}, scenarios.Warning, "the client broke a SHOULD of the spec"},
		{should, []scenarios.Option{scenarios.Warn(scenarios.Robustness)}, scenarios.Fail, "the client broke a SHOULD of the spec"},
		{must, []scenarios.Option{warn}, scenarios.Fail, "the client broke a MUST of the spec"},
	} {
		r := c.s.Evaluate(bad, c.opts...)
		if r.Status != c.want || r.Basis != c.s.Basis {
			t.Errorf("%s basis, %d options: want %s with the basis, got %s %+v", c.s.Basis.Kind(), len(c.opts), c.want, r.Status, r.Basis)
		}
		if f := c.s.Failure(r); !strings.Contains(f, c.says) || !strings.Contains(f, "basis:   "+c.s.Basis.String()) {
			t.Errorf("%s: the failure does not say %q and the basis:\n%s", c.s.Basis.Kind(), c.says, f)
		}
		if c.want == scenarios.Warning && r.Status.Failed() {
			t.Errorf("a warning fails the run")
		}
	}

	rep := &scenarios.Report{Results: []scenarios.Result{robust.Evaluate(bad, warn), must.Evaluate(bad, warn)}}
	tab := rep.Table()
	for _, want := range []string{"warning (robustness)", "fail (MUST)", `basis     MUST (2025-11-25): "clients MUST respect the capabilities"`, "2 scenarios: 0 pass, 0 known deviations, 1 warning, 1 fail"} {
		if !strings.Contains(tab, want) {
			t.Errorf("Table has no %q:\n%s", want, tab)
		}
	}
	b, err := rep.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"keyword": "MUST"`) || !strings.Contains(string(b), `"warning": 1`) {
		t.Errorf("JSON carries no basis or warning count:\n%s", b)
	}
}

// TestWarnMustRefused: a broken MUST is a spec violation; Warn(Must) is a
// mistake of the run, named.
func TestWarnMustRefused(t *testing.T) {
	ft := faketb.New(t)
	ft.Run(func() {
		scenarios.Judge(ft, correct, scenarios.Only("giftgen-handshake"), scenarios.Warn(scenarios.Must))
	})
	if got := strings.Join(ft.Errors(), "\n"); !strings.Contains(got, `Warn("MUST"): only SHOULD and robustness fails can be warnings`) {
		t.Errorf("want Warn(Must) refused, got %s", ft.Report())
	}
}
