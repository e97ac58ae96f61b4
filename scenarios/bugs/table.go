package bugs

import (
	"fmt"
	"strings"
)

// The markers between which docs/bugs.md holds the table Table generates.
const (
	TableBegin = "<!-- bugs:begin (generated from scenarios/bugs by `go test ./scenarios/bugs -run TestBugsDocTable -update`; do not edit) -->"
	TableEnd   = "<!-- bugs:end -->"
)

// Table returns the catalog as a Markdown table: one row a bug, with its
// source (linked), the client, the symptom, the recipe, what a fixed
// client does and how the bug is proven; then a line with the counts.
func Table() string {
	var b strings.Builder
	b.WriteString("| ID | source | client | symptom | recipe | fixed client | proof |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	counts := map[ProofKind]int{}
	all := All()
	for _, bug := range all {
		counts[bug.Proof.Kind]++
		recipe := make([]string, 0, 3)
		for _, l := range bug.Recipe.Lines() {
			recipe = append(recipe, "`"+strings.ReplaceAll(l, "`", "'")+"`")
		}
		proof := "raw client"
		if bug.Proof.Kind == RealVersion {
			proof = fmt.Sprintf("real: %s caught, %s passes", bug.Proof.Buggy, bug.Proof.Fixed)
		}
		fmt.Fprintf(&b, "| `%s` | [%s](%s) | %s | %s | %s | %s | %s |\n", bug.ID, bug.Source, bug.URL,
			cell(bug.Client), cell(bug.Symptom), strings.Join(recipe, "<br>"), cell(bug.Fixed), cell(proof))
	}
	fmt.Fprintf(&b, "\n%d bugs: %d proven by the real buggy version, %d by a raw client.\n", len(all), counts[RealVersion], counts[RawClient])
	return b.String()
}

// cell escapes a table cell's text.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
