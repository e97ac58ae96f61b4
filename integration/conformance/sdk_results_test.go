package conformance_test

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/scenarios"
)

// sdkResultsPage is the page of the docs that holds the SDKs' results: the
// conformance table of the Go SDKs and its sentence of totals.
const sdkResultsPage = "../../docs/sdk-results.md"

// totalsRE reads the sentence of totals of docs/sdk-results.md, "Totals:
// go-sdk 14 pass / 8 known-deviation / 5 n/a over stdio, 16 / 9 / 2 over
// HTTP; mark3labs 17 / 5 / 5 over stdio, 18 / 7 / 2 over HTTP."
var totalsRE = regexp.MustCompile(`Totals:\s+go-sdk\s+(\d+) pass / (\d+) known-deviation / (\d+) n/a over stdio,\s+(\d+) / (\d+) / (\d+) over HTTP;\s+mark3labs\s+(\d+) / (\d+) / (\d+) over stdio,\s+(\d+) / (\d+) / (\d+) over HTTP\.`)

// docTotals returns the pass / known-deviation / n/a totals of each
// conformance run that docs/sdk-results.md gives, by the run's name (gosdk, gosdk-http, mark3labs,
// mark3labs-http).
func docTotals(t *testing.T) map[string][3]int {
	t.Helper()
	b, err := os.ReadFile(sdkResultsPage)
	if err != nil {
		t.Fatalf("want to read %s: %v", sdkResultsPage, err)
	}
	m := totalsRE.FindSubmatch(b)
	if m == nil {
		t.Fatalf("want the conformance totals of docs/sdk-results.md (%s), found none: keep the sentence in that form", totalsRE)
	}
	n := func(i int) int { v, _ := strconv.Atoi(string(m[i])); return v }
	return map[string][3]int{
		"gosdk":          {n(1), n(2), n(3)},
		"gosdk-http":     {n(4), n(5), n(6)},
		"mark3labs":      {n(7), n(8), n(9)},
		"mark3labs-http": {n(10), n(11), n(12)},
	}
}

// checkDocTotals fails t when a whole run's verdicts or totals differ from
// those of docs/sdk-results.md; a run that go test -run narrowed is not
// compared.
func checkDocTotals(t *testing.T, name string, rep *scenarios.Report) {
	t.Helper()
	if len(rep.Results) != len(scenarios.Names()) {
		t.Logf("%d of %d scenarios played: the totals of docs/sdk-results.md are not compared", len(rep.Results), len(scenarios.Names()))
		return
	}
	want, ok := docTotals(t)[name]
	if !ok {
		t.Fatalf("docs/sdk-results.md has no totals for the conformance run %q", name)
	}
	if table, ok := stdioTable(t)[name]; ok {
		for _, r := range rep.Results {
			if want, ok := table[r.Scenario]; !ok {
				t.Errorf("the conformance table of docs/sdk-results.md has no row for %s", r.Scenario)
			} else if r.Status != want {
				t.Errorf("the conformance table of docs/sdk-results.md says %s for %s with %s; this run: %s: update the table", want, name, r.Scenario, r.Status)
			}
		}
	}
	c := rep.Counts()
	got := [3]int{c[scenarios.Pass], c[scenarios.Deviation], c[scenarios.NotApplicable]}
	if got != want || c[scenarios.Fail] != 0 || c[scenarios.NotReached] != 0 {
		t.Errorf("docs/sdk-results.md's totals of %s are %d pass / %d known-deviation / %d n/a; this run: %d / %d / %d (and %d fail, %d not-reached): update its table and totals", name, want[0], want[1], want[2], got[0], got[1], got[2], c[scenarios.Fail], c[scenarios.NotReached])
	}
}

// TestSDKResultsTotalsParse: the totals of docs/sdk-results.md are there
// and each run's add up to the catalog.
func TestSDKResultsTotalsParse(t *testing.T) {
	for name, tot := range docTotals(t) {
		if sum := tot[0] + tot[1] + tot[2]; sum != len(scenarios.Names()) {
			t.Errorf("docs/sdk-results.md's totals of %s add up to %d, the catalog has %d scenarios", name, sum, len(scenarios.Names()))
		}
	}
}

// stdioTable parses the conformance table of docs/sdk-results.md (the rows of
// scenario, mistake, decision point, correct client, go-sdk, mark3labs)
// into each SDK's status over stdio, by scenario: a cell that starts with
// "pass", "**deviation**" or "not-applicable" says so; "over HTTP: …"
// (an http-* scenario) is not-applicable over stdio; "same" is go-sdk's.
// The row "auth/*" is every scenario of scenarios.Auth.
func stdioTable(t *testing.T) map[string]map[string]scenarios.Status {
	t.Helper()
	b, err := os.ReadFile(sdkResultsPage)
	if err != nil {
		t.Fatalf("want to read %s: %v", sdkResultsPage, err)
	}
	_, rest, ok := strings.Cut(string(b), "| scenario | the server's mistake | judged once | a correct client | go-sdk v1.8.0 | mark3labs v1.2.1 |\n")
	if !ok {
		t.Fatalf("want the conformance table of docs/sdk-results.md, with its header, found none")
	}
	out := map[string]map[string]scenarios.Status{"gosdk": {}, "mark3labs": {}}
	for _, l := range strings.Split(rest, "\n")[1:] { // after the |---| line
		if !strings.HasPrefix(l, "|") {
			break
		}
		cells := strings.Split(strings.Trim(l, "|"), "|")
		if len(cells) != 6 {
			t.Fatalf("want 6 cells in the conformance row %q of docs/sdk-results.md, found %d", l, len(cells))
		}
		name := strings.TrimSpace(cells[0])
		var gosdk scenarios.Status
		for i, sdk := range []string{"gosdk", "mark3labs"} {
			cell := strings.TrimSpace(cells[4+i])
			var st scenarios.Status
			switch {
			case strings.HasPrefix(cell, "pass"):
				st = scenarios.Pass
			case strings.HasPrefix(cell, "**deviation**"):
				st = scenarios.Deviation
			case strings.HasPrefix(cell, "not-applicable"), strings.HasPrefix(cell, "over HTTP:"):
				st = scenarios.NotApplicable
			case cell == "same" && i == 1:
				st = gosdk
			default:
				t.Fatalf("the conformance table of docs/sdk-results.md: cannot read the %s cell of %s: %q", sdk, name, cell)
			}
			if i == 0 {
				gosdk = st
			}
			out[sdk][name] = st
			if name == "auth/*" {
				delete(out[sdk], name)
				for _, s := range scenarios.Auth() {
					out[sdk][s.Name] = st
				}
			}
		}
	}
	return out
}

// TestSDKResultsTableMatchesTotals: the conformance table of
// docs/sdk-results.md has a row for each scenario, and its stdio columns
// add up to the totals sentence.
func TestSDKResultsTableMatchesTotals(t *testing.T) {
	totals := docTotals(t)
	for sdk, rows := range stdioTable(t) {
		for _, n := range scenarios.Names() {
			if _, ok := rows[n]; !ok {
				t.Errorf("the conformance table of docs/sdk-results.md has no row for %s", n)
			}
		}
		var got [3]int
		for _, st := range rows {
			switch st {
			case scenarios.Pass:
				got[0]++
			case scenarios.Deviation:
				got[1]++
			case scenarios.NotApplicable:
				got[2]++
			}
		}
		if got != totals[sdk] {
			t.Errorf("the conformance table of docs/sdk-results.md gives %s %v (pass, deviation, n/a) over stdio, its totals sentence %v", sdk, got, totals[sdk])
		}
	}
}
