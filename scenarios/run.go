package scenarios

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/mcpmock/mcpmock/internal/suggest"
	"github.com/mcpmock/mcpmock/mcptest"
)

// Status is the verdict on one scenario.
type Status string

// The verdicts of a Result.
const (
	// Pass: the client reached the decision point and did what a correct
	// client does.
	Pass Status = "pass"
	// Fail: it did not, and no known deviation was declared; or a declared
	// known deviation no longer happens.
	Fail Status = "fail"
	// Deviation: the client did not do what a correct client does, as a
	// KnownDeviation declared: today's behaviour, asserted and reported.
	Deviation Status = "known-deviation"
	// NotReached: the client never got to the scenario's decision point, so
	// the check would not be evidence either way (a client that does
	// nothing passes nothing). It counts as a failure; the result says what
	// was missing.
	NotReached Status = "not-reached"
	// NotApplicable: the scenario cannot apply to this client, e.g. a
	// stateless-era scenario for a client that initialized without
	// probing. The subtest is skipped with the reason.
	NotApplicable Status = "not-applicable"
	// Warning: the client failed a scenario whose basis the run was told
	// to treat as a warning (Warn): a SHOULD it did not follow, or a
	// robustness scenario it did not survive. It is reported, with its
	// transcript, and does not fail the run.
	Warning Status = "warning"
)

// Failed reports whether the status fails a run: Fail and NotReached.
func (s Status) Failed() bool { return s == Fail || s == NotReached }

// Statuses lists every status, in the order reports count them.
func Statuses() []Status { return []Status{Pass, Deviation, Warning, Fail, NotReached, NotApplicable} }

// Option changes what Run, Judge, Play and Evaluate do.
type Option func(*config)

type config struct {
	only       []string
	skip       []string
	deviations map[string]string
	server     func(t mcptest.TB) *mcptest.Server
	warn       []BasisKind
}

func newConfig(opts []Option) config {
	c := config{deviations: map[string]string{}}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// base builds the healthy server the scenarios start from.
func (c config) base(t mcptest.TB) *mcptest.Server {
	t.Helper()
	if c.server != nil {
		return c.server(t)
	}
	return GiftGen(t)
}

// Only restricts Run and Judge to the named scenarios.
func Only(names ...string) Option {
	return func(c *config) { c.only = append(c.only, names...) }
}

// Skip leaves the named scenarios out of Run and Judge, beside Only: an
// app that reads one page of each list, for instance, never meets
// looping-cursor's loop (not reached), and says
// Skip("looping-cursor") instead of naming every other scenario with
// Only. With Only too, the scenarios Only names less those Skip names.
func Skip(names ...string) Option {
	return func(c *config) { c.skip = append(c.skip, names...) }
}

// selected reports whether Run plays the named scenario under Only and Skip.
func (c config) selected(name string) bool {
	return (len(c.only) == 0 || slices.Contains(c.only, name)) && !slices.Contains(c.skip, name)
}

// unknownNames returns, for each name given to Only, Skip or
// KnownDeviation that is not in the catalog, what is wrong and the
// nearest name: `Only("wrong-id"): no scenario named "wrong-id"; did you
// mean "wrong-id-type"?`.
func (c config) unknownNames() []string {
	names := Names()
	var out []string
	check := func(option, name string) {
		if !slices.Contains(names, name) {
			out = append(out, fmt.Sprintf("%s(%q): no scenario named %q%s", option, name, name, suggest.DidYouMean(name, names)))
		}
	}
	for _, n := range c.only {
		check("Only", n)
	}
	for _, n := range c.skip {
		check("Skip", n)
	}
	for _, n := range slices.Sorted(maps.Keys(c.deviations)) {
		check("KnownDeviation", n)
	}
	for _, k := range c.warn {
		if k != Should && k != Robustness {
			out = append(out, fmt.Sprintf("Warn(%q): only SHOULD and robustness fails can be warnings; a broken MUST is a spec violation", k))
		}
	}
	return out
}

// KnownDeviation declares that the client fails the named scenario today,
// for the reason why (e.g. "go-sdk v1.8.0 calls tools/list without the
// tools capability"). A failing check is then reported as a known
// deviation and its subtest passes; a check that passes fails the subtest,
// so that an upgrade that fixes the client is noticed and the declaration
// removed. It does not cover not-reached: a scenario the client never
// reaches says nothing about it (leave it out with Skip).
func KnownDeviation(name, why string) Option {
	return func(c *config) { c.deviations[name] = why }
}

// Warn makes a failed scenario whose basis is of one of kinds (Should,
// Robustness) a Warning instead of a Fail: reported with its transcript,
// without failing the run. A MUST the client broke still fails; so does a
// scenario it never reached. Warn(Must) is refused (Run fails t): a
// broken MUST is a spec violation.
func Warn(kinds ...BasisKind) Option {
	return func(c *config) { c.warn = append(c.warn, kinds...) }
}

// WithServer makes every scenario start from the server newServer builds
// instead of GiftGen: the app's own healthy server, with its tools,
// resources and prompts, as the app's tests script it (unstarted: do not
// call its Server.Dial or Server.URL). Each scenario applies its mistake to a fresh one, and its
// checks are about whatever the client calls. newServer is called once per
// play, with the play's test.
func WithServer(newServer func(t mcptest.TB) *mcptest.Server) Option {
	return func(c *config) { c.server = newServer }
}

// Result is the verdict on one scenario, as the report shows it.
type Result struct {
	// Scenario is the scenario's name.
	Scenario string `json:"scenario"`
	// Spec is the address of the spec section.
	Spec string `json:"spec"`
	// Expected is what a correct client does.
	Expected string `json:"expected"`
	// DecisionPoint is what the client had to reach for the check to be
	// evidence.
	DecisionPoint string `json:"decision_point"`
	// Observed is what this client did; for NotReached, what was missing;
	// for NotApplicable, why the scenario does not apply.
	Observed string `json:"observed"`
	// Status is the verdict.
	Status Status `json:"status"`
	// Basis is what the verdict rests on: the requirement on the client,
	// or, for robustness, the sentence the scenario's server breaks.
	Basis Basis `json:"basis"`
	// Why is the reason a KnownDeviation gave, or why the status is Fail
	// although the check passed.
	Why string `json:"why,omitempty"`
	// ElapsedMS is how long the client ran, in milliseconds.
	ElapsedMS int64 `json:"elapsed_ms"`
	// Transcript is the wire log, for results that are neither Pass nor
	// NotApplicable; the first and last messages of a very long one.
	Transcript string `json:"transcript,omitempty"`
}

// String is one line: status, scenario, and what the client did.
func (r Result) String() string {
	s := fmt.Sprintf("%s %s: %s", r.Status, r.Scenario, r.Observed)
	if r.Why != "" {
		s += " (" + r.Why + ")"
	}
	return s
}

// Evaluate judges an outcome of the scenario under the options (only
// KnownDeviation matters here) and returns the Result that Run reports.
// It is what Run does after Play.
func (s Scenario) Evaluate(o Outcome, opts ...Option) Result {
	c := newConfig(opts)
	r := Result{Scenario: s.Name, Spec: s.Spec, Basis: s.Basis, Expected: s.Expect.Description, DecisionPoint: s.Expect.DecisionPoint, ElapsedMS: o.Elapsed.Milliseconds()}
	st, got := s.judge(o)
	why, deviates := c.deviations[s.Name]
	r.Status, r.Observed = st, got
	switch {
	case st == Pass && deviates:
		r.Status, r.Observed = Fail, summary(o)
		r.Why = fmt.Sprintf("KnownDeviation(%q, %q) was declared, but the client now does what a correct client does: remove the declaration", s.Name, why)
	case st == Pass:
		r.Observed = summary(o)
	case st == Fail && deviates:
		r.Status, r.Why = Deviation, why
	case st == NotReached:
		r.Observed = fmt.Sprintf("%s; connect returned %s", got, errText(o.Err))
		if deviates {
			r.Why = fmt.Sprintf("KnownDeviation(%q) does not cover a scenario the client never reaches; make the client reach it, or leave the scenario out with Skip", s.Name)
		}
	case st == NotApplicable && deviates:
		r.Why = fmt.Sprintf("KnownDeviation(%q) was declared, but the scenario does not apply to this client", s.Name)
	}
	if r.Status == Fail && r.Why == "" && slices.Contains(c.warn, s.Basis.Kind()) {
		r.Status = Warning
	}
	if r.Status != Pass && r.Status != NotApplicable && o.Server != nil {
		r.Transcript = clipTranscript(o.Server.Transcript())
	}
	return r
}

// Failure is the message a failing subtest prints: the scenario, its
// mistake and spec section, the decision point, what a correct client
// does and what this one did (or, not reached, what was missing). Run
// prints it; the transcript follows in the test log.
func (s Scenario) Failure(r Result) string {
	var b strings.Builder
	switch {
	case r.Status == NotReached:
		fmt.Fprintf(&b, "scenario %s not reached: the client never got to its decision point, so there is no verdict (this counts as a failure)\n", s.Name)
	case s.Basis.Kind() == Robustness && s.Basis != (Basis{}):
		fmt.Fprintf(&b, "scenario %s failed: the client did not survive a server that breaks the spec (robustness, no requirement of the client)\n", s.Name)
	case s.Basis != (Basis{}):
		fmt.Fprintf(&b, "scenario %s failed: the client broke a %s of the spec\n", s.Name, s.Basis.Keyword)
	default:
		fmt.Fprintf(&b, "scenario %s failed\n", s.Name)
	}
	fmt.Fprintf(&b, "  mistake: %s\n", s.Mistake)
	fmt.Fprintf(&b, "  spec:    %s\n", s.Spec)
	if s.Basis != (Basis{}) {
		fmt.Fprintf(&b, "  basis:   %s\n", s.Basis)
	}
	fmt.Fprintf(&b, "  needs:   %s\n", r.DecisionPoint)
	fmt.Fprintf(&b, "  want:    %s\n", r.Expected)
	if r.Status == NotReached {
		fmt.Fprintf(&b, "  missing: %s\n", r.Observed)
	} else {
		fmt.Fprintf(&b, "  got:     %s\n", r.Observed)
	}
	if r.Why != "" {
		fmt.Fprintf(&b, "  note:    %s\n", r.Why)
	}
	return b.String()
}

// Run plays every scenario of the catalog (or those Only names, the
// authorization scenarios of Auth among them, less those Skip names)
// against the client that connect drives, one subtest each, named after the
// scenario. A failing or not-reached subtest fails with the scenario's
// explanation, what a correct client does, what this client did, and the
// transcript (logged by the scenario's server); a not-applicable one is
// skipped with the reason. Run logs the report's table at the end and
// returns the report. A name given to Only, Skip or KnownDeviation that is
// not in the catalog fails t, naming the nearest one. Judge does the same without subtests, for any
// mcptest.TB.
func Run(t *testing.T, connect ConnectFunc, opts ...Option) *Report {
	t.Helper()
	return run(t, connect, opts, func(name string, f func(t mcptest.TB) (skip string)) {
		t.Helper()
		t.Run(name, func(t *testing.T) {
			t.Helper() // a subtest's failures and transcript are the caller's of Run
			if why := f(t); why != "" {
				t.Skip(why)
			}
		})
	})
}

// Judge is Run for a test that is not a *testing.T, e.g. an
// mcptest.ProgramTB in a program: it plays every scenario (or those Only
// names) in turn with t, fails t (Errorf) for each scenario that fails or
// is not reached, logs the not-applicable ones and the report's table, and
// returns the report.
func Judge(t mcptest.TB, connect ConnectFunc, opts ...Option) *Report {
	t.Helper()
	return run(t, connect, opts, func(name string, f func(t mcptest.TB) (skip string)) {
		t.Helper()
		if why := f(t); why != "" {
			t.Logf("scenario %s: not applicable: %s", name, why)
		}
	})
}

// run plays the selected scenarios, each through sub (a subtest, or a
// plain call), and returns the report.
func run(t mcptest.TB, connect ConnectFunc, opts []Option, sub func(name string, f func(t mcptest.TB) string)) *Report {
	t.Helper()
	c := newConfig(opts)
	if unknown := c.unknownNames(); len(unknown) > 0 {
		t.Errorf("scenarios: %s (scenarios.Names() lists the catalog)", strings.Join(unknown, "; "))
	}
	rep := &Report{}
	var mu sync.Mutex
	for _, s := range All() {
		if !c.selected(s.Name) {
			continue
		}
		sub(s.Name, func(t mcptest.TB) string {
			t.Helper()
			o := s.Play(t, connect, opts...)
			r := s.Evaluate(o, opts...)
			if r.Status.Failed() {
				annotatePage(o, r) // for the page of MCPMOCK_HTML_DIR
			}
			mu.Lock()
			rep.Results = append(rep.Results, r)
			mu.Unlock()
			switch r.Status {
			case Fail, NotReached:
				t.Errorf("%s", s.Failure(r))
			case Warning:
				t.Logf("warning (Warn(%s)): %s", s.Basis.Kind(), s.Failure(r))
			case Deviation:
				t.Logf("known deviation of scenario %s (%s)\n  want: %s\n  got:  %s", s.Name, r.Why, r.Expected, r.Observed)
			case NotApplicable:
				return r.Observed
			}
			return ""
		})
	}
	t.Logf("scenarios:\n%s", rep.Table())
	return rep
}

// Report is the verdict on every scenario of a run, in catalog order.
type Report struct {
	Results []Result `json:"results"`
}

// Counts returns how many results have each status.
func (r *Report) Counts() map[Status]int {
	n := map[Status]int{}
	for _, res := range r.Results {
		n[res.Status]++
	}
	return n
}

// Status returns the status of the named scenario's result, "" when the
// report has none.
func (r *Report) Status(name string) Status {
	for _, res := range r.Results {
		if res.Scenario == name {
			return res.Status
		}
	}
	return ""
}

// JSON returns the report as indented JSON: {"results": [{"scenario",
// "spec", "expected", "decision_point", "observed", "status", "basis":
// {"keyword", "sentence", "version"}, "why", "elapsed_ms", "transcript"},
// …], "summary": {"pass": n, "known-deviation": n, "warning": n, "fail":
// n, "not-reached": n, "not-applicable": n}}.
func (r *Report) JSON() ([]byte, error) {
	n := r.Counts()
	summary := map[Status]int{}
	for _, st := range Statuses() {
		summary[st] = n[st]
	}
	results := r.Results
	if results == nil {
		results = []Result{}
	}
	return json.MarshalIndent(struct {
		Results []Result       `json:"results"`
		Summary map[Status]int `json:"summary"`
	}{results, summary}, "", "  ")
}

// TableWidth is the most columns a line of Table takes (a longer word,
// such as a URL, gets a line of its own and may pass it).
const TableWidth = 100

// Table returns the report as plain text that fits TableWidth columns: a
// line per scenario with its name and status, under it the expected and
// observed texts (for a scenario that does not apply, only why), wrapped
// over as many lines as they need (nothing is cut), and a last line with
// the counts.
func (r *Report) Table() string {
	nameW := utf8.RuneCountInString("SCENARIO")
	for _, res := range r.Results {
		nameW = max(nameW, utf8.RuneCountInString(res.Scenario))
	}
	var b strings.Builder
	row := func(name, status string) {
		b.WriteString(name)
		b.WriteString(strings.Repeat(" ", nameW-utf8.RuneCountInString(name)+2))
		b.WriteString(status)
		b.WriteByte('\n')
	}
	const label = "    expected  " // the indent of a row's texts
	text := func(what, s string) {
		if s == "" {
			return
		}
		for i, line := range wrapColumn(s, TableWidth-len(label)) {
			head := strings.Repeat(" ", len(label))
			if i == 0 {
				head = "    " + what + strings.Repeat(" ", len(label)-4-len(what))
			}
			b.WriteString(strings.TrimRight(head+line, " "))
			b.WriteByte('\n')
		}
	}
	row("SCENARIO", "STATUS")
	for _, res := range r.Results {
		status := string(res.Status)
		if (res.Status == Fail || res.Status == Warning) && res.Basis != (Basis{}) {
			status += " (" + string(res.Basis.Kind()) + ")" // a broken MUST, a SHOULD, or robustness
		}
		row(res.Scenario, status)
		if res.Status != NotApplicable {
			text("expected", res.Expected)
			text("observed", res.Observed)
		} else {
			text("why", res.Observed)
		}
		text("note", res.Why)
		if (res.Status == Fail || res.Status == Warning) && res.Basis != (Basis{}) {
			text("basis", res.Basis.String())
		}
	}
	b.WriteString(r.Summary())
	b.WriteByte('\n')
	return b.String()
}

// Summary is the report's counts in one line, the last of Table: "62
// scenarios: 50 pass, 2 known deviations, 3 fail, 0 not reached, 7 not
// applicable", with the warnings before the fails when there are any
// ("1 warning, 2 fail").
func (r *Report) Summary() string {
	n := r.Counts()
	warn := ""
	if n[Warning] > 0 {
		warn = plural(n[Warning], "warning", "warnings") + ", "
	}
	return fmt.Sprintf("%s: %d pass, %s, %s%d fail, %d not reached, %d not applicable",
		plural(len(r.Results), "scenario", "scenarios"), n[Pass], plural(n[Deviation], "known deviation", "known deviations"), warn, n[Fail], n[NotReached], n[NotApplicable])
}

// wrapColumn breaks s into lines of at most width runes, at spaces (a
// longer word gets a line of its own); at least one line.
func wrapColumn(s string, width int) []string {
	var lines []string
	var line strings.Builder
	n := 0
	for _, word := range strings.Fields(s) {
		wn := utf8.RuneCountInString(word)
		if n > 0 && n+1+wn > width {
			lines = append(lines, line.String())
			line.Reset()
			n = 0
		}
		if n > 0 {
			line.WriteByte(' ')
			n++
		}
		line.WriteString(word)
		n += wn
	}
	return append(lines, line.String())
}

// plural renders n with the singular or the plural noun: "1 known
// deviation", "2 known deviations".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// cut shortens s to n runes on one line.
func cut(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// maxReportTranscript bounds the transcript a Result carries, so that a
// client that loops does not make the report megabytes long.
const maxReportTranscript = 16 << 10

func clipTranscript(tr string) string {
	if len(tr) <= maxReportTranscript {
		return tr
	}
	half := maxReportTranscript / 2
	return tr[:half] + fmt.Sprintf("\n… (%d bytes left out) …\n", len(tr)-2*half) + tr[len(tr)-half:]
}
