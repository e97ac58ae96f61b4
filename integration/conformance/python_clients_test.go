package conformance_test

// The Python clients' verdicts over the catalog (issue 31): the official
// SDK (mcp) and FastMCP's client, each an app in cmd/mcpmock/testdata/python
// played by `mcpmock run` in CI (.ci/python_clients.sh). Their expected
// verdicts are committed in cmd/mcpmock/testdata/python/verdicts.json, one
// map a run (client × transport × era), with the reason of every known
// deviation; this file holds that file to the catalog and writes the table
// of docs/sdk-results.md from it. CI hands it the runs' JSON reports:
//
//	MCPMOCK_PYTHON_REPORTS=DIR go test ./integration/conformance -run TestPythonClientVerdicts
//
// compares each report with its run's verdicts, and with -update writes the
// reports' verdicts into the file (a new failure still has to be declared,
// with its reason, by hand) and the table into the docs.

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/scenarios"
)

var updatePython = flag.Bool("update", false, "rewrite cmd/mcpmock/testdata/python/verdicts.json from the reports in MCPMOCK_PYTHON_REPORTS, and the Python table of docs/sdk-results.md; TestAgreementTable: rewrite the agreement table of docs/conformance.md")

// pythonVerdictsFile is the committed verdicts of the Python clients.
const pythonVerdictsFile = "../../cmd/mcpmock/testdata/python/verdicts.json"

// The markers between which docs/sdk-results.md holds the Python table.
const (
	pythonTableBegin = "<!-- python:begin (generated from cmd/mcpmock/testdata/python/verdicts.json by `go test ./integration/conformance -run TestPythonClientVerdicts -update`; do not edit) -->"
	pythonTableEnd   = "<!-- python:end -->"
)

// pyVerdicts is verdicts.json.
type pyVerdicts struct {
	// Clients names each client's package and version: "mcp 2.3.0".
	Clients map[string]string `json:"clients"`
	// Runs are the plays of CI, in the order of the table's columns.
	Runs []pyRun `json:"runs"`
	// Deviations are the known deviations, each with the runs it is
	// declared for and its reason (the spec's sentence and the transcript's
	// line).
	Deviations []pyNote `json:"deviations"`
	// NotPlayed are the scenarios a run leaves out, each with why.
	NotPlayed []pyNote `json:"not_played"`
}

// pyRun is one `mcpmock run` of a client program.
type pyRun struct {
	// Name is the run's name, and its report's file name (NAME.json).
	Name string `json:"name"`
	// Client is a key of Clients.
	Client string `json:"client"`
	// Program is the app in cmd/mcpmock/testdata/python; Mode its first
	// argument, the SDK's Client(mode=...): legacy or auto.
	Program string `json:"program"`
	Mode    string `json:"mode"`
	// Transport is stdio or http.
	Transport string `json:"transport"`
	// Play is what the run plays: "catalog" (every scenario but the
	// auth/ ones) or "auth" (the auth/ scenarios, with an OAuth app).
	Play string `json:"play"`
	// Verdicts is each played scenario's status.
	Verdicts map[string]scenarios.Status `json:"verdicts"`
}

// pyNote is a reason given for some runs' verdict on a scenario.
type pyNote struct {
	Scenario string   `json:"scenario"`
	Runs     []string `json:"runs"`
	Why      string   `json:"why"`
}

func readPyVerdicts(t *testing.T) *pyVerdicts {
	t.Helper()
	b, err := os.ReadFile(pythonVerdictsFile)
	if err != nil {
		t.Fatalf("want to read %s: %v", pythonVerdictsFile, err)
	}
	var v pyVerdicts
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: %v", pythonVerdictsFile, err)
	}
	return &v
}

// note returns the note of notes for the scenario in the run, and its
// number (from 1) in notes.
func note(notes []pyNote, scenario, run string) (pyNote, int) {
	for i, n := range notes {
		if n.Scenario == scenario && slices.Contains(n.Runs, run) {
			return n, i + 1
		}
	}
	return pyNote{}, 0
}

// playSet returns the scenarios a run of that kind plays, in catalog order,
// before its NotPlayed are taken out.
func playSet(play string) []string {
	var out []string
	for _, name := range scenarios.Names() {
		if strings.HasPrefix(name, "auth/") == (play == "auth") {
			out = append(out, name)
		}
	}
	return out
}

// played returns the scenarios the run plays, in catalog order.
func (v *pyVerdicts) played(r pyRun) []string {
	var out []string
	for _, name := range playSet(r.Play) {
		if _, n := note(v.NotPlayed, name, r.Name); n == 0 {
			out = append(out, name)
		}
	}
	return out
}

// check returns what is wrong with the file: a run whose verdicts are not
// those of the scenarios it plays, a status that fails (every fail is
// declared a known deviation with its reason, or left unplayed with why),
// a deviation without its verdict or the reverse.
func (v *pyVerdicts) check() []string {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	runs := map[string]bool{}
	for _, r := range v.Runs {
		if runs[r.Name] {
			add("two runs are named %s", r.Name)
		}
		runs[r.Name] = true
		if _, ok := v.Clients[r.Client]; !ok {
			add("%s: the client %q is not in clients", r.Name, r.Client)
		}
		if !slices.Contains([]string{"stdio", "http"}, r.Transport) || !slices.Contains([]string{"legacy", "auto"}, r.Mode) ||
			!slices.Contains([]string{"catalog", "auth"}, r.Play) || (r.Play == "auth" && r.Transport != "http") {
			add("%s: transport %q, mode %q, play %q: want stdio or http, legacy or auto, catalog or auth (auth over http)", r.Name, r.Transport, r.Mode, r.Play)
		}
		played := v.played(r)
		for _, name := range played {
			st, ok := r.Verdicts[name]
			switch {
			case !ok:
				add("%s plays %s but has no verdict for it", r.Name, name)
			case st == scenarios.Fail || st == scenarios.NotReached:
				add("%s: %s is %s: declare it a known deviation with its reason, or leave it unplayed with why", r.Name, name, st)
			case !slices.Contains(scenarios.Statuses(), st):
				add("%s: %s has the status %q, which is none of %v", r.Name, name, st, scenarios.Statuses())
			}
			_, dev := note(v.Deviations, name, r.Name)
			if (st == scenarios.Deviation) != (dev != 0) {
				add("%s: %s is %s, and a known deviation is declared for it: %t", r.Name, name, st, dev != 0)
			}
		}
		for name := range r.Verdicts {
			if !slices.Contains(played, name) {
				add("%s has a verdict for %s, which it does not play", r.Name, name)
			}
		}
	}
	for _, notes := range [][]pyNote{v.Deviations, v.NotPlayed} {
		for _, n := range notes {
			if _, ok := scenarios.Lookup(n.Scenario); !ok {
				add("a note names the scenario %q, which the catalog does not have", n.Scenario)
			}
			if strings.TrimSpace(n.Why) == "" || len(n.Runs) == 0 {
				add("the note on %s gives no reason or no run", n.Scenario)
			}
			for _, r := range n.Runs {
				if !runs[r] {
					add("the note on %s names the run %q, which is not in runs", n.Scenario, r)
				}
			}
		}
	}
	return problems
}

// cellOf is a run's verdict on a scenario as a cell of the table.
func (v *pyVerdicts) cellOf(r pyRun, name string) string {
	if !slices.Contains(playSet(r.Play), name) {
		return "—"
	}
	if _, n := note(v.NotPlayed, name, r.Name); n != 0 {
		return fmt.Sprintf("not played (%d)", n)
	}
	switch st := r.Verdicts[name]; st {
	case scenarios.Deviation:
		_, n := note(v.Deviations, name, r.Name)
		return fmt.Sprintf("**deviation** (%d)", n)
	case scenarios.NotApplicable:
		return "n/a"
	default:
		return string(st)
	}
}

// table returns the Python section's generated part: a table of the
// catalog's scenarios and one of the authorization scenarios, each a
// column a run, with the totals; then the reasons, numbered as the cells
// cite them.
func (v *pyVerdicts) table() string {
	var b strings.Builder
	for _, play := range []string{"catalog", "auth"} {
		var runs []pyRun
		for _, r := range v.Runs {
			if r.Play == play {
				runs = append(runs, r)
			}
		}
		if len(runs) == 0 {
			continue
		}
		b.WriteString("\n| scenario |")
		for _, r := range runs {
			fmt.Fprintf(&b, " %s, %s, %s |", v.Clients[r.Client], map[string]string{"stdio": "stdio", "http": "Streamable HTTP"}[r.Transport], r.Mode)
		}
		b.WriteString("\n|---|" + strings.Repeat("---|", len(runs)) + "\n")
		for _, name := range playSet(play) {
			fmt.Fprintf(&b, "| %s |", name)
			for _, r := range runs {
				fmt.Fprintf(&b, " %s |", v.cellOf(r, name))
			}
			b.WriteString("\n")
		}
		b.WriteString("\nTotals:")
		for i, r := range runs {
			n := map[scenarios.Status]int{}
			for _, st := range r.Verdicts {
				n[st]++
			}
			sep := ";"
			if i == len(runs)-1 {
				sep = "."
			}
			fmt.Fprintf(&b, " %s %s over %s: %d pass / %d known-deviation / %d n/a / %d not played%s", v.Clients[r.Client], r.Mode, r.Transport,
				n[scenarios.Pass], n[scenarios.Deviation], n[scenarios.NotApplicable], len(playSet(play))-len(v.played(r)), sep)
		}
		b.WriteString("\n")
	}
	b.WriteString("\nKnown deviations, numbered as the cells cite them, each declared in CI with this reason:\n\n")
	for i, n := range v.Deviations {
		fmt.Fprintf(&b, "%d. `%s` (%s): %s\n", i+1, n.Scenario, strings.Join(n.Runs, ", "), n.Why)
	}
	if len(v.NotPlayed) > 0 {
		b.WriteString("\nNot played, numbered as the cells cite them:\n\n")
		for i, n := range v.NotPlayed {
			fmt.Fprintf(&b, "%d. `%s` (%s): %s\n", i+1, n.Scenario, strings.Join(n.Runs, ", "), n.Why)
		}
	}
	return b.String()
}

// TestPythonClientVerdicts: the committed verdicts of the Python clients
// cover what each run plays, with no unexplained failure; the table of
// docs/sdk-results.md is theirs; and, given CI's reports
// (MCPMOCK_PYTHON_REPORTS), each run's verdicts are those of its report.
func TestPythonClientVerdicts(t *testing.T) {
	v := readPyVerdicts(t)
	if dir := os.Getenv("MCPMOCK_PYTHON_REPORTS"); dir != "" {
		changed := false
		for i, r := range v.Runs {
			b, err := os.ReadFile(filepath.Join(dir, r.Name+".json"))
			if err != nil {
				t.Errorf("run %s: %v (CI's .ci/python_clients.sh writes DIR/%s.json)", r.Name, err, r.Name)
				continue
			}
			var rep scenarios.Report
			if err := json.Unmarshal(b, &rep); err != nil {
				t.Fatalf("run %s: the report: %v", r.Name, err)
			}
			got := map[string]scenarios.Status{}
			for _, res := range rep.Results {
				got[res.Scenario] = res.Status
				if want := r.Verdicts[res.Scenario]; res.Status != want {
					t.Errorf("run %s: %s is %s, the committed verdict %q: %s%s", r.Name, res.Scenario, res.Status, want, res.Observed, whyOf(res))
					changed = true
				}
			}
			for name := range r.Verdicts {
				if _, ok := got[name]; !ok {
					t.Errorf("run %s: the report has no result for %s", r.Name, name)
				}
			}
			v.Runs[i].Verdicts = got
		}
		if changed && *updatePython {
			b, err := json.MarshalIndent(v, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(pythonVerdictsFile, append(b, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s: declare each new known deviation with its reason", pythonVerdictsFile)
		}
	}
	for _, p := range v.check() {
		t.Errorf("%s: %s", pythonVerdictsFile, p)
	}

	holdSection(t, sdkResultsPage, pythonTableBegin, pythonTableEnd, v.table(),
		"the Python table of "+sdkResultsPage+" is not that of "+pythonVerdictsFile+": run go test ./integration/conformance -run TestPythonClientVerdicts -update")
}

// whyOf is a result's reason, for a message.
func whyOf(r scenarios.Result) string {
	if r.Why == "" {
		return ""
	}
	return " (" + r.Why + ")"
}
