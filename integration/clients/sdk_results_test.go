// Package clients holds client apps on the SDKs of other languages (java/,
// rust/) that .ci/jvm_rust_clients.sh builds and plays through mcpmock run,
// and the verdicts of those runs (results/): this test renders them into
// the table of docs/sdk-results.md and holds them to the catalog.
package clients_test

import (
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

var update = flag.Bool("update", false, "rewrite the Java and Rust table of docs/sdk-results.md from results/*.json")

const (
	page       = "../../docs/sdk-results.md"
	tableBegin = "<!-- jvm-rust:begin (generated from integration/clients/results by `go test ./integration/clients -run TestSDKResultsTable -update`; do not edit) -->"
	tableEnd   = "<!-- jvm-rust:end -->"
)

// run is one `mcpmock run` of .ci/jvm_rust_clients.sh: its results file
// and its column in the table.
type run struct{ file, sdk, column string }

var runs = []run{
	{"java-stdio", "Java SDK 2.2.0", "Java stdio"},
	{"java-http", "Java SDK 2.2.0", "Java HTTP"},
	{"rust-stdio", "rmcp 3.11.0", "rmcp stdio"},
	{"rust-http", "rmcp 3.11.0", "rmcp HTTP"},
	{"rust-stdio-auto", "rmcp 3.11.0", "rmcp Auto stdio"},
	{"rust-http-auto", "rmcp 3.11.0", "rmcp Auto HTTP"},
}

// unplayed are the scenarios a run leaves out on purpose, and why; the
// table says so in their cells.
var unplayed = map[string]map[string]string{}

// verdict is one scenario's line of a results file.
type verdict struct {
	Scenario string           `json:"scenario"`
	Status   scenarios.Status `json:"status"`
	Why      string           `json:"why,omitempty"`
}

func load(t *testing.T, r run) map[string]verdict {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("results", r.file+".json"))
	if err != nil {
		t.Fatalf("want the verdicts of %s: %v (MCPMOCK_UPDATE_RESULTS=1 with .ci/jvm_rust_clients.sh writes them)", r.file, err)
	}
	var vs []verdict
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatalf("results/%s.json: %v", r.file, err)
	}
	out := map[string]verdict{}
	for _, v := range vs {
		out[v.Scenario] = v
	}
	return out
}

// TestSDKResultsComplete: every run covers the whole catalog but the
// scenarios it leaves out on purpose, nothing failed or went unreached,
// and every known deviation says why, naming its SDK.
func TestSDKResultsComplete(t *testing.T) {
	for _, r := range runs {
		got := load(t, r)
		for _, name := range scenarios.Names() {
			v, ok := got[name]
			_, skipped := unplayed[r.file][name]
			switch {
			case !ok && !skipped:
				t.Errorf("%s: no verdict for %s: play the whole catalog, or say why not in unplayed", r.file, name)
			case ok && skipped:
				t.Errorf("%s: %s is played although unplayed says it is not: drop it from unplayed", r.file, name)
			case !ok:
			case v.Status.Failed():
				t.Errorf("%s: %s is %s: declare it a known deviation with its reason in .ci/jvm_rust_clients.sh, or fix what is wrong", r.file, name, v.Status)
			case v.Status == scenarios.Deviation && !strings.Contains(v.Why, r.sdk):
				t.Errorf("%s: the known deviation %s does not name %s in its reason %q", r.file, name, r.sdk, v.Why)
			}
		}
		for name := range got {
			if !slices.Contains(scenarios.Names(), name) {
				t.Errorf("%s: a verdict for %s, which the catalog does not have: play the runs again", r.file, name)
			}
		}
	}
}

// TestSDKResultsTable: docs/sdk-results.md holds the table Table renders
// from the results, between its markers; -update writes it.
func TestSDKResultsTable(t *testing.T) {
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, tableBegin), strings.Index(doc, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: want the markers %q and %q around the Java and Rust table", page, tableBegin, tableEnd)
	}
	want := tableBegin + "\n" + table(t) + tableEnd
	if doc[i:j+len(tableEnd)] == want {
		return
	}
	if !*update {
		t.Fatalf("the Java and Rust table of %s is not what results/*.json say: run go test ./integration/clients -run TestSDKResultsTable -update", page)
	}
	if err := os.WriteFile(page, []byte(doc[:i]+want+doc[j+len(tableEnd):]), 0o644); err != nil {
		t.Fatal(err)
	}
}

// cell is a verdict as a table cell.
func cell(v verdict, ok bool, skipped string) string {
	switch {
	case skipped != "":
		return "not played"
	case !ok:
		return "—"
	case v.Status == scenarios.Deviation:
		return "**deviation**"
	default:
		return string(v.Status)
	}
}

// table renders the results: a row a scenario (the auth/ ones in one row
// when their verdicts agree), a column a run, then each run's totals and
// each deviation's reason.
func table(t *testing.T) string {
	results := make([]map[string]verdict, len(runs))
	for i, r := range runs {
		results[i] = load(t, r)
	}
	var b strings.Builder
	b.WriteString("| scenario |")
	for _, r := range runs {
		b.WriteString(" " + r.column + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(runs)) + "\n")
	row := func(name string) []string {
		cells := make([]string, len(runs))
		for i, r := range runs {
			v, ok := results[i][name]
			cells[i] = cell(v, ok, unplayed[r.file][name])
		}
		return cells
	}
	var auth []string
	for _, s := range scenarios.Auth() {
		auth = append(auth, s.Name)
	}
	authSame := true
	for _, name := range auth[1:] {
		if !slices.Equal(row(name), row(auth[0])) {
			authSame = false
		}
	}
	for _, name := range scenarios.Names() {
		if slices.Contains(auth, name) && authSame {
			if name == auth[0] {
				fmt.Fprintf(&b, "| the %d `auth/*` | %s |\n", len(auth), strings.Join(row(name), " | "))
			}
			continue
		}
		fmt.Fprintf(&b, "| %s | %s |\n", name, strings.Join(row(name), " | "))
	}
	b.WriteString("\nTotals (pass / known deviation / not applicable / not played):")
	for i, r := range runs {
		var n [4]int
		for _, v := range results[i] {
			switch v.Status {
			case scenarios.Pass:
				n[0]++
			case scenarios.Deviation:
				n[1]++
			case scenarios.NotApplicable:
				n[2]++
			}
		}
		n[3] = len(unplayed[r.file])
		sep := ";"
		if i == len(runs)-1 {
			sep = "."
		}
		fmt.Fprintf(&b, " %s %d / %d / %d / %d%s", r.column, n[0], n[1], n[2], n[3], sep)
	}
	b.WriteString("\n\nWhy, for each deviation and each scenario not played (the reasons `.ci/jvm_rust_clients.sh` declares):\n\n")
	for _, name := range scenarios.Names() {
		// The runs that share a reason are named together.
		var whys []string
		cols := map[string][]string{}
		for i, r := range runs {
			why := unplayed[r.file][name]
			if v, ok := results[i][name]; ok && v.Status == scenarios.Deviation {
				why = v.Why
			}
			if why == "" {
				continue
			}
			if _, seen := cols[why]; !seen {
				whys = append(whys, why)
			}
			cols[why] = append(cols[why], r.column)
		}
		for _, why := range whys {
			fmt.Fprintf(&b, "- `%s` (%s): %s\n", name, strings.Join(cols[why], ", "), strings.ReplaceAll(why, "|", `\|`))
		}
	}
	return b.String()
}
