package conformance_test

// The agreement of the official suite's client mode and `mcpmock run` (issue
// 30 point 3). CI (.ci/agreement.sh) plays the same client programs (the
// TypeScript SDK, go-sdk, mark3labs) under `conformance client --scenario X`
// and `mcpmock run --http --scenario X` for every scenario both have, and
// commits both verdicts in agreement/CLIENT.tsv; agreement/explanations.json
// explains every disagreement. This file holds the two together and writes
// the "Agreement" table of docs/conformance.md:
//
//	go test ./integration/conformance -run TestAgreementTable -update

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// agreementDir holds CLIENT.tsv and explanations.json.
const agreementDir = "agreement"

// conformancePage is the page that holds the agreement table.
const conformancePage = "../../docs/conformance.md"

// The markers between which docs/conformance.md holds the agreement table.
const (
	agreementBegin = "<!-- agreement:begin (generated from integration/conformance/agreement by `go test ./integration/conformance -run TestAgreementTable -update`; do not edit) -->"
	agreementEnd   = "<!-- agreement:end -->"
)

// agreementClients are the clients of .ci/agreement.sh, each with its file
// and its column title, in the table's order.
var agreementClients = []struct {
	file, title string
	// noAuth: the SDK has no OAuth client, so .ci/agreement.sh plays no
	// auth/ scenario with it.
	noAuth bool
}{
	{"typescript", "TypeScript SDK 1.32.2", false},
	{"gosdk", "go-sdk v1.8.0", false},
	{"mark3labs", "mark3labs v1.2.1", false},
	{"python-mcp", "Python SDK mcp 2.3.0", false},
	{"fastmcp", "FastMCP 4.1.6", false},
	{"rmcp", "rmcp 3.11.0", false},
	{"java", "Java SDK 2.2.0", true},
}

// playedBy is the scenarios of all that .ci/agreement.sh plays with a
// client.
func playedBy(all []string, noAuth bool) []string {
	if !noAuth {
		return all
	}
	return slices.DeleteFunc(slices.Clone(all), func(s string) bool { return strings.HasPrefix(s, "auth/") })
}

// explanation is one entry of explanations.json: the verdicts of one
// client on the scenarios it names, and which the spec supports.
type explanation struct {
	Client     string   `json:"client"`
	Scenarios  []string `json:"scenarios"`
	Suite      string   `json:"suite"`
	Mock       string   `json:"mock"`
	Right      string   `json:"right"` // mock, suite or both
	Kind       string   `json:"kind"`
	Spec       string   `json:"spec"`
	Transcript string   `json:"transcript"`
	Why        string   `json:"why"`
}

// verdictPair is a scenario's two verdicts for one client.
type verdictPair struct{ suite, mock string }

// readAgreement reads CLIENT.tsv: scenario → verdicts, and the scenarios
// in the file's order.
func readAgreement(t *testing.T, client string) (map[string]verdictPair, []string) {
	t.Helper()
	path := filepath.Join(agreementDir, client+".tsv")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) == 0 || lines[0] != "scenario\tsuite\tmock" {
		t.Fatalf("%s: the first line is not the header scenario\\tsuite\\tmock", path)
	}
	out := map[string]verdictPair{}
	var order []string
	for i, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) != 3 {
			t.Fatalf("%s:%d: want 3 tab-separated fields, got %q", path, i+2, l)
		}
		out[f[0]] = verdictPair{f[1], f[2]}
		order = append(order, f[0])
	}
	return out, order
}

// TestAgreementTable: every disagreement of the committed runs is
// explained, every explanation still matches the runs' verdicts, and the
// table of docs/conformance.md is the one these files give.
func TestAgreementTable(t *testing.T) {
	var ex struct {
		Explanations []explanation `json:"explanations"`
	}
	b, err := os.ReadFile(filepath.Join(agreementDir, "explanations.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ex); err != nil {
		t.Fatalf("explanations.json: %v", err)
	}
	runs := map[string]map[string]verdictPair{}
	var scenarios []string
	for _, c := range agreementClients {
		r, order := readAgreement(t, c.file)
		runs[c.file] = r
		if scenarios == nil {
			scenarios = order
		} else if !slices.Equal(playedBy(scenarios, c.noAuth), order) {
			t.Errorf("%s.tsv holds other scenarios than %s.tsv (auth/ left out where the SDK has no OAuth client): .ci/agreement.sh plays every client on the same list", c.file, agreementClients[0].file)
		}
	}

	// note[client][scenario] is the number of the explanation (from 1).
	note := map[string]map[string]int{}
	for i, e := range ex.Explanations {
		r, ok := runs[e.Client]
		if !ok {
			var names []string
			for _, c := range agreementClients {
				names = append(names, c.file)
			}
			t.Errorf("explanation %d: client %q has no runs (one of %s)", i+1, e.Client, strings.Join(names, ", "))
			continue
		}
		if !slices.Contains([]string{"mock", "suite", "both"}, e.Right) {
			t.Errorf("explanation %d: right is %q; say which verdict the spec supports: mock, suite or both", i+1, e.Right)
		}
		if e.Spec == "" || e.Transcript == "" || e.Why == "" {
			t.Errorf("explanation %d: an explanation names its spec sentence, the transcript line that decides, and why", i+1)
		}
		for _, s := range e.Scenarios {
			got, ok := r[s]
			switch {
			case !ok:
				t.Errorf("explanation %d: %s is not among the scenarios of %s.tsv", i+1, s, e.Client)
			case got != verdictPair{e.Suite, e.Mock}:
				t.Errorf("explanation %d explains %s on %s as suite %s, mock %s, but the runs now give suite %s, mock %s: update or remove it", i+1, e.Client, s, e.Suite, e.Mock, got.suite, got.mock)
			}
			if note[e.Client] == nil {
				note[e.Client] = map[string]int{}
			}
			if n, dup := note[e.Client][s]; dup {
				t.Errorf("explanations %d and %d both explain %s on %s", n, i+1, e.Client, s)
			}
			note[e.Client][s] = i + 1
		}
	}
	for _, c := range agreementClients {
		for _, s := range playedBy(scenarios, c.noAuth) {
			if v := runs[c.file][s]; v.suite != v.mock && note[c.file][s] == 0 {
				t.Errorf("%s on %s: the suite says %s, the mock %s, and no entry of %s explains it: read both logs (.ci/agreement.sh prints them) and add one, or fix the mock",
					c.title, s, v.suite, v.mock, filepath.Join("integration/conformance", agreementDir, "explanations.json"))
			}
		}
	}

	holdSection(t, conformancePage, agreementBegin, agreementEnd, agreementTable(scenarios, runs, note, ex.Explanations),
		"the agreement table of "+conformancePage+" is not that of "+agreementDir+": run go test ./integration/conformance -run TestAgreementTable -update")
}

// holdSection holds the part of page between the markers begin and end
// to want: with -update it writes want there, else a difference fails
// the test with msg.
func holdSection(t *testing.T, page, begin, end, want, msg string) {
	t.Helper()
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	head, rest, ok := strings.Cut(string(b), begin+"\n")
	got, tail, ok2 := strings.Cut(rest, end)
	if !ok || !ok2 {
		t.Fatalf("%s has no %s … %s", page, begin, end)
	}
	if *updatePython {
		if err := os.WriteFile(page, []byte(head+begin+"\n"+want+end+tail), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got != want {
		t.Error(msg)
	}
}

// agreementTable is the generated part of docs/conformance.md: a row per
// scenario, a column per client holding "suite / mock", a disagreement in
// bold with the number of its explanation, then the explanations.
func agreementTable(scenarios []string, runs map[string]map[string]verdictPair, note map[string]map[string]int, ex []explanation) string {
	var b strings.Builder
	b.WriteString("| scenario |")
	for _, c := range agreementClients {
		fmt.Fprintf(&b, " %s |", c.title)
	}
	b.WriteString("\n|---|")
	for range agreementClients {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	agree, differ, pairs := 0, 0, 0
	for _, s := range scenarios {
		fmt.Fprintf(&b, "| `%s` |", s)
		for _, c := range agreementClients {
			v, ok := runs[c.file][s]
			if !ok {
				b.WriteString(" not played (no OAuth client) |")
				continue
			}
			pairs++
			if v.suite == v.mock {
				agree++
				fmt.Fprintf(&b, " %s / %s |", v.suite, v.mock)
				continue
			}
			differ++
			fmt.Fprintf(&b, " **%s / %s** (%d) |", v.suite, v.mock, note[c.file][s])
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "\n%d scenarios, %d clients, %d pairs of verdicts: %d agree, %d differ, each explained below.\n\n", len(scenarios), len(agreementClients), pairs, agree, differ)
	for i, e := range ex {
		title := e.Client
		for _, c := range agreementClients {
			if c.file == e.Client {
				title = c.title
			}
		}
		right := map[string]string{"mock": "the mock's verdict", "suite": "the suite's verdict", "both": "both"}[e.Right]
		fmt.Fprintf(&b, "%d. **%s**, %s (suite %s, mock %s): %s. Right: %s.\n", i+1, title, codeList(e.Scenarios), e.Suite, e.Mock, e.Kind, right)
		fmt.Fprintf(&b, "   - Spec: %s.\n", strings.TrimSuffix(e.Spec, "."))
		fmt.Fprintf(&b, "   - Transcript: %s.\n", strings.TrimSuffix(e.Transcript, "."))
		fmt.Fprintf(&b, "   - Why: %s\n", e.Why)
	}
	return b.String()
}

// codeList is names as a comma-separated list of code spans.
func codeList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}
