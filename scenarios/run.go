package scenarios

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"text/tabwriter"
)

// Status is the verdict on one scenario.
type Status string

// The verdicts of a Result.
const (
	// Pass: the client did what a correct client does.
	Pass Status = "pass"
	// Fail: it did not, and no known deviation was declared; or a declared
	// known deviation no longer happens.
	Fail Status = "fail"
	// Deviation: the client did not do what a correct client does, as a
	// KnownDeviation declared: today's behaviour, asserted and reported.
	Deviation Status = "known-deviation"
)

// Option changes what Run and Evaluate do.
type Option func(*config)

type config struct {
	only       []string
	deviations map[string]string
}

func newConfig(opts []Option) config {
	c := config{deviations: map[string]string{}}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// Only restricts Run to the named scenarios.
func Only(names ...string) Option {
	return func(c *config) { c.only = append(c.only, names...) }
}

// KnownDeviation declares that the client fails the named scenario today,
// for the reason why (e.g. "go-sdk v1.8.0 calls tools/list without the
// tools capability"). A failing check is then reported as a known
// deviation and its subtest passes; a check that passes fails the subtest,
// so that an upgrade that fixes the client is noticed and the declaration
// removed.
func KnownDeviation(name, why string) Option {
	return func(c *config) { c.deviations[name] = why }
}

// Result is the verdict on one scenario, as the report shows it.
type Result struct {
	// Scenario is the scenario's name.
	Scenario string `json:"scenario"`
	// Spec is the address of the spec section.
	Spec string `json:"spec"`
	// Expected is what a correct client does.
	Expected string `json:"expected"`
	// Observed is what this client did.
	Observed string `json:"observed"`
	// Status is the verdict.
	Status Status `json:"status"`
	// Why is the reason a KnownDeviation gave, or why the status is Fail
	// although the check passed.
	Why string `json:"why,omitempty"`
	// ElapsedMS is how long the client ran, in milliseconds.
	ElapsedMS int64 `json:"elapsed_ms"`
	// Transcript is the session's wire log, for results other than Pass;
	// the first and last frames of a very long one.
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
// It is what Run does after Play, for callers without a *testing.T.
func (s Scenario) Evaluate(o Outcome, opts ...Option) Result {
	c := newConfig(opts)
	r := Result{Scenario: s.Name, Spec: s.Spec, Expected: s.Expect.Description, ElapsedMS: o.Elapsed.Milliseconds()}
	got := s.got(o)
	why, deviates := c.deviations[s.Name]
	switch {
	case got == "" && !deviates:
		r.Status, r.Observed = Pass, summary(o)
	case got == "":
		r.Status, r.Observed = Fail, summary(o)
		r.Why = fmt.Sprintf("KnownDeviation(%q, %q) was declared, but the client now does what a correct client does: remove the declaration", s.Name, why)
	case deviates:
		r.Status, r.Observed, r.Why = Deviation, got, why
	default:
		r.Status, r.Observed = Fail, got
	}
	if r.Status != Pass && o.Server != nil {
		r.Transcript = clipTranscript(o.Server.Transcript())
	}
	return r
}

// Failure is the message a failing subtest prints: the scenario, its
// mistake and spec section, what a correct client does and what this one
// did. Run prints it; the transcript follows in the test log.
func (s Scenario) Failure(r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "scenario %s failed\n", s.Name)
	fmt.Fprintf(&b, "  mistake: %s\n", s.Mistake)
	fmt.Fprintf(&b, "  spec:    %s\n", s.Spec)
	fmt.Fprintf(&b, "  want:    %s\n", r.Expected)
	fmt.Fprintf(&b, "  got:     %s\n", r.Observed)
	if r.Why != "" {
		fmt.Fprintf(&b, "  note:    %s\n", r.Why)
	}
	return b.String()
}

// Run plays every scenario of the catalog (or those Only names) against
// the client that connect drives, one subtest each, named after the
// scenario. A subtest fails with the scenario's explanation, what a
// correct client does, what this client did, and the transcript (logged
// by the scenario's server). Run logs the report's table at the end and
// returns the report. A name given to Only or KnownDeviation that is not
// in the catalog fails t.
func Run(t *testing.T, connect ConnectFunc, opts ...Option) *Report {
	t.Helper()
	c := newConfig(opts)
	list := All()
	known := map[string]bool{}
	for _, s := range list {
		known[s.Name] = true
	}
	var unknown []string
	for _, n := range c.only {
		if !known[n] {
			unknown = append(unknown, n)
		}
	}
	for n := range c.deviations {
		if !known[n] {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		t.Errorf("scenarios.Run: no scenario named %s; the catalog has %s", strings.Join(unknown, ", "), strings.Join(Names(), ", "))
	}
	rep := &Report{}
	for _, s := range list {
		if len(c.only) > 0 && !slices.Contains(c.only, s.Name) {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			o := s.Play(t, connect)
			r := s.Evaluate(o, opts...)
			rep.Results = append(rep.Results, r)
			switch r.Status {
			case Fail:
				t.Error(s.Failure(r))
			case Deviation:
				t.Logf("known deviation of scenario %s (%s)\n  want: %s\n  got:  %s", s.Name, r.Why, r.Expected, r.Observed)
			}
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

// JSON returns the report as indented JSON: {"results": [{"scenario",
// "spec", "expected", "observed", "status", "why", "elapsed_ms",
// "transcript"}, …], "summary": {"pass": n, "fail": n, "known-deviation": n}}.
func (r *Report) JSON() ([]byte, error) {
	type summary struct {
		Pass      int `json:"pass"`
		Fail      int `json:"fail"`
		Deviation int `json:"known-deviation"`
	}
	n := r.Counts()
	results := r.Results
	if results == nil {
		results = []Result{}
	}
	return json.MarshalIndent(struct {
		Results []Result `json:"results"`
		Summary summary  `json:"summary"`
	}{results, summary{n[Pass], n[Fail], n[Deviation]}}, "", "  ")
}

// Table returns the report as a plain text table, one line per scenario
// (scenario, expected, observed, status; long texts cut), and a last line
// with the counts.
func (r *Report) Table() string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "SCENARIO\tEXPECTED\tOBSERVED\tSTATUS")
	for _, res := range r.Results {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", res.Scenario, cut(res.Expected, 60), cut(res.Observed, 70), res.Status)
	}
	_ = w.Flush()
	n := r.Counts()
	fmt.Fprintf(&b, "%d scenarios: %d pass, %d known deviations, %d fail\n", len(r.Results), n[Pass], n[Deviation], n[Fail])
	return b.String()
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
