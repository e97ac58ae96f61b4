package mcptest

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

var updateRulesDoc = flag.Bool("update", false, "rewrite docs/rules.md from the rule table")

// TestRuleTable checks every row of the rule table: an address, a keyword
// and a summary; a severity that agrees with the keyword (a MUST is an
// error unless the row says why not, a SHOULD a warning); versions the mock
// knows, among them the one whose page the address is; a transport.
func TestRuleTable(t *testing.T) {
	keywords := []string{"MUST", "MUST NOT", "SHOULD", "SHOULD NOT"}
	for _, r := range Rules() {
		t.Run(string(r.ID), func(t *testing.T) {
			if !strings.HasPrefix(r.Spec, "https://") || strings.ContainsAny(r.Spec, " \t") || !strings.Contains(r.Spec, "#") {
				t.Errorf("Spec %q: want the address of a page and anchor", r.Spec)
			}
			if !slices.Contains(keywords, r.Keyword) {
				t.Errorf("Keyword %q: want one of %q", r.Keyword, keywords)
			}
			if r.Summary == "" || strings.Contains(r.Summary, "\n") || r.Reply == "" {
				t.Errorf("want a one-line Summary and a Reply, got %q, %q", r.Summary, r.Reply)
			}
			must := r.Keyword == "MUST" || r.Keyword == "MUST NOT"
			switch {
			case must && r.Softened == "" && r.Severity != SeverityError:
				t.Errorf("%s: want an error, got %v", r.Keyword, r.Severity)
			case (!must || r.Softened != "") && r.Severity != SeverityWarning:
				t.Errorf("%s (softened: %q): want a warning, got %v", r.Keyword, r.Softened, r.Severity)
			case !must && r.Softened != "":
				t.Errorf("a %s is a warning already: Softened %q says nothing", r.Keyword, r.Softened)
			}
			if len(r.Versions) == 0 || !slices.IsSorted(r.Versions) {
				t.Errorf("Versions %v: want the versions whose spec states the rule, oldest first", r.Versions)
			}
			for _, v := range append(slices.Clone(r.Versions), r.SoftIn...) {
				if !slices.Contains(AllVersions(), v) {
					t.Errorf("version %q is not one the mock knows (%v)", v, AllVersions())
				}
			}
			for _, v := range r.SoftIn {
				if !slices.Contains(r.Versions, v) || !must {
					t.Errorf("SoftIn %q: want a version of the rule, of a MUST", v)
				}
			}
			if rest, ok := strings.CutPrefix(r.Spec, "https://modelcontextprotocol.io/specification/"); ok {
				if v, _, _ := strings.Cut(rest, "/"); !slices.Contains(r.Versions, v) {
					t.Errorf("Spec %q is a page of %s, which is not among Versions %v", r.Spec, v, r.Versions)
				}
			}
			if !slices.Contains([]string{transportAny, transportStdio, transportHTTP}, r.Transport) {
				t.Errorf("Transport %q: want any, stdio or http", r.Transport)
			}
			if strings.HasPrefix(string(r.ID), "http/") && r.Transport != transportHTTP {
				t.Errorf("Transport %q: the http/ rules are http", r.Transport)
			}
		})
	}
}

// TestRuleSeverityByVersion: a rule whose spec says SHOULD in an older
// version is a warning there and an error in the newer ones.
func TestRuleSeverityByVersion(t *testing.T) {
	r := rulesByID[ruleUndeclaredMethod]
	for v, want := range map[string]Severity{"2024-11-05": SeverityWarning, "2025-03-26": SeverityWarning, "2025-06-18": SeverityError, "2025-11-25": SeverityError, "2026-07-28": SeverityError} {
		if got := r.severityIn(r.versionFor(v, isStateless(v))); got != want {
			t.Errorf("%s in %s: want %v, got %v", r.ID, v, want, got)
		}
	}
	if got := r.KeywordText(); got != "MUST (SHOULD in 2024-11-05, 2025-03-26)" {
		t.Errorf("KeywordText: got %q", got)
	}
}

// TestUnknownRuleHint: a misspelled rule gets a did-you-mean, an unknown
// one of a known family that family's rules one per line, any other the
// families, and never the whole list of rules on one line.
func TestUnknownRuleHint(t *testing.T) {
	for _, tc := range []struct {
		id   RuleID
		want []string
	}{
		{"lifecycle/initialise-first", []string{`; did you mean "lifecycle/initialize-first"?`}},
		{"http/sesion-id", []string{`; did you mean "http/session-id"?`}},
		{"mrtr/a-rule-that-is-not-there", []string{"; the mrtr/ rules are:\n\tmrtr/new-id\n\tmrtr/request-state-unchanged\n\tmrtr/responses-complete"}},
		{"no/such-rule", []string{"; rule IDs start with auth/…, capabilities/…, elicitation/…, http/…, jsonrpc/…, lifecycle/…, mrtr/…, pagination/…, params/…, stateless/…, tools/… (mcptest.Rules and `mcpmock list --rules` list them)"}},
	} {
		got := unknownRule(tc.id)
		for _, w := range tc.want {
			if got != w {
				t.Errorf("unknownRule(%q) = %q, want %q", tc.id, got, w)
			}
		}
		for _, line := range strings.Split(got, "\n") {
			n := 0
			for _, r := range ruleTable {
				if strings.Contains(line, string(r.ID)) {
					n++
				}
			}
			if n > 1 {
				t.Errorf("unknownRule(%q): a line names %d rules: %q", tc.id, n, line)
			}
		}
	}
}

// rulesDocPath is the page of the docs that lists the rules, generated
// from the rule table by TestRulesDoc.
const rulesDocPath = "../docs/rules.md"

// rulesDocHeader is the page's text above the table.
const rulesDocHeader = `<!-- Generated from mcptest/rule_table.go by ` + "`go test ./mcptest -run TestRulesDoc -update`" + `; do not edit. -->

# Rules

Every rule the mock holds a client to ([client checks](mcptest.md#client-checks)), each
the sentence of the spec it enforces, linked with its keyword: a MUST fails the test, a
SHOULD is a warning, reported and never failing (and so is a MUST that binds the server,
or that the mock forgives as lenient servers do). A rule's ID is what
` + "`srv.ExpectViolation(rule)`" + ` takes; ` + "`mcptest.Rules()`" + ` and ` + "`mcpmock list --rules`" + ` give the
same table. The ` + "`auth/…`" + ` rules are explained in [authorization](authorization.md#client-rules).

`

// TestRulesDoc fails when docs/rules.md is not the rule table; with
// -update it rewrites the page.
func TestRulesDoc(t *testing.T) {
	want := rulesDocHeader + rulesMarkdown()
	b, err := os.ReadFile(rulesDocPath)
	if err == nil && string(b) == want {
		return
	}
	if *updateRulesDoc {
		if err := os.WriteFile(rulesDocPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Fatalf("want the rule list %s: %v; run go test ./mcptest -run TestRulesDoc -update", rulesDocPath, err)
	}
	t.Errorf("docs/rules.md differs from the rule table; run go test ./mcptest -run TestRulesDoc -update\ngot:\n%s\nwant:\n%s", b, want)
}

// rulesMarkdown is the rule list of docs/rules.md: the rule table as a
// Markdown table.
func rulesMarkdown() string {
	var b strings.Builder
	b.WriteString("| rule | spec | the client… | versions | transport | reply |\n|---|---|---|---|---|---|\n")
	for _, r := range ruleTable {
		id := "`" + string(r.ID) + "`"
		if r.Severity == SeverityWarning {
			id += " (warning)"
		}
		if r.OncePerSession {
			id += " (once per session)"
		}
		kw := "[" + r.KeywordText() + "](" + r.Spec + ")"
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", id, kw, markdownCell(r.Summary), versionsText(r.Versions), r.Transport, markdownCell(r.Reply))
	}
	return b.String()
}

func markdownCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
