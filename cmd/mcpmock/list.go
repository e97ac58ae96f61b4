package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcpmock/mcpmock/config"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
)

func listCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("list", "[--faults | --rules | --bugs]", stderr)
	faults := fs.Bool("faults", false, "list the faults a config file can name, with their parameters")
	rules := fs.Bool("rules", false, "list the client rules the mock checks, with the spec sentence each enforces")
	bugList := fs.Bool("bugs", false, "list the catalog of documented client bugs (mcpmock run --bug ID plays one)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if n := btoi(*faults) + btoi(*rules) + btoi(*bugList); n > 1 {
		return usagef("--faults, --rules and --bugs: choose one")
	}
	if *rules {
		listRules(stdout)
		return nil
	}
	if *bugList {
		listBugs(stdout)
		return nil
	}
	if *faults {
		for _, f := range config.Faults() {
			fmt.Fprintln(stdout, f)
		}
		var refs []string
		for _, r := range config.Refinements() {
			refs = append(refs, fmt.Sprintf("%s (%s): %s", r.Name, r.Type, r.Doc))
		}
		fmt.Fprintf(stdout, "\nEvery fault also takes:\n  %s\n", strings.Join(refs, "\n  "))
		return nil
	}
	for _, s := range scenarios.All() {
		fmt.Fprintln(stdout, s)
	}
	return nil
}

// ruleAreas are the rule IDs' areas (the part before "/") in the order of
// the specification's pages: the base protocol (messages, lifecycle,
// versioning and the stateless era, the multi round-trip pattern,
// transports, authorization, utilities), then the server's features, then
// the client's; each with the heading listRules gives it.
var ruleAreas = []struct{ area, heading string }{
	{"jsonrpc", "Base protocol: JSON-RPC messages"},
	{"lifecycle", "Base protocol: lifecycle"},
	{"capabilities", "Base protocol: lifecycle, capability negotiation"},
	{"stateless", "Base protocol: the stateless era (2026-07-28)"},
	{"mrtr", "Base protocol: multi round-trip requests"},
	{"http", "Base protocol: transports, Streamable HTTP"},
	{"auth", "Base protocol: authorization"},
	{"params", "Base protocol: utilities (cancellation, progress, _meta)"},
	{"pagination", "Server features: pagination"},
	{"tools", "Server features: tools"},
	{"elicitation", "Client features: elicitation"},
}

// areaOf is the area of a rule ID, and its place in ruleAreas (an area
// missing there comes after them all, under its own name).
func areaOf(id mcptest.RuleID) (string, int) {
	area, _, _ := strings.Cut(string(id), "/")
	for i, a := range ruleAreas {
		if a.area == area {
			return a.heading, i
		}
	}
	return area, len(ruleAreas)
}

// listRules prints the rule table grouped by area in the order of the
// spec's pages, each group under a heading, one rule a line: its ID, the
// keyword of the spec sentence, severity, once per session, versions,
// transport, what a client does to keep it, and the sentence's address.
func listRules(w io.Writer) {
	rules := mcptest.Rules()
	slices.SortStableFunc(rules, func(a, b mcptest.Rule) int {
		ha, ia := areaOf(a.ID)
		hb, ib := areaOf(b.ID)
		return cmp.Or(cmp.Compare(ia, ib), strings.Compare(ha, hb))
	})
	heading := ""
	for _, r := range rules {
		if h, _ := areaOf(r.ID); h != heading {
			if heading != "" {
				fmt.Fprintln(w)
			}
			heading = h
			fmt.Fprintf(w, "%s:\n", h)
		}
		how := r.Severity.String()
		if r.OncePerSession {
			how += ", once per session"
		}
		versions := strings.Join(r.Versions, ", ")
		if len(r.Versions) == len(mcptest.AllVersions()) {
			versions = "all versions"
		}
		fmt.Fprintf(w, "  %s: %s (%s; %s; transport %s): %s [%s]\n", r.ID, r.KeywordText(), how, versions, r.Transport, r.Summary, r.Spec)
	}
}

// btoi is 1 for true: how many of list's exclusive flags are set.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
