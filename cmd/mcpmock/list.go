package main

import (
	"fmt"
	"io"
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

// listRules prints the rule table, one rule a line: its ID, the keyword
// of the spec sentence, severity, once per session, versions, transport,
// what a client does to keep it, and the sentence's address.
func listRules(w io.Writer) {
	for _, r := range mcptest.Rules() {
		how := r.Severity.String()
		if r.OncePerSession {
			how += ", once per session"
		}
		versions := strings.Join(r.Versions, ", ")
		if len(r.Versions) == len(mcptest.AllVersions()) {
			versions = "all versions"
		}
		fmt.Fprintf(w, "%s: %s (%s; %s; transport %s): %s [%s]\n", r.ID, r.KeywordText(), how, versions, r.Transport, r.Summary, r.Spec)
	}
}

// btoi is 1 for true: how many of list's exclusive flags are set.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
