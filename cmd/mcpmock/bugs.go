package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/mcpmock/mcpmock/scenarios/bugs"
)

// This file is the bug catalog's part of the command: mcpmock list --bugs
// and mcpmock run --bug ID (package scenarios/bugs).

// listBugs writes the bug catalog, one bug a line: ID, client, symptom,
// source and recipe.
func listBugs(stdout io.Writer) {
	for _, b := range bugs.All() {
		fmt.Fprintln(stdout, b)
	}
}

// playList returns what mcpmock run plays: the bugs named by --bug, as
// scenarios named by their IDs (then --scenario may not be given too; a
// bug on Streamable HTTP needs --http), or the scenarios of the catalog
// that --scenario names (all of them when none is named).
func playList(only, bugIDs []string, overHTTP bool) ([]scenarios.Scenario, error) {
	if len(bugIDs) == 0 {
		var out []scenarios.Scenario
		for _, s := range scenarios.All() {
			if len(only) == 0 || slices.Contains(only, s.Name) {
				out = append(out, s)
			}
		}
		return out, nil
	}
	if len(only) > 0 {
		return nil, usagef("--bug and --scenario cannot be combined: a bug plays its own scenario (mcpmock list --bugs shows its recipe)")
	}
	if u := bugs.Unknown(bugIDs...); len(u) > 0 {
		return nil, usagef("--bug: %s (mcpmock list --bugs shows the catalog)", strings.Join(u, "; "))
	}
	var out []scenarios.Scenario
	for _, id := range bugIDs {
		b, _ := bugs.Lookup(id)
		if b.Recipe.OverHTTP() && !overHTTP {
			return nil, usagef("--bug %s is a bug of the Streamable HTTP transport: add --http (the client gets the URL as its last argument and in %s)", id, envURL)
		}
		out = append(out, b.Scenario())
	}
	return out, nil
}

// isBug reports whether name is a bug's ID given to --bug: a
// --known-deviation may name it.
func isBug(name string, bugIDs []string) bool { return slices.Contains(bugIDs, name) }

// isAuth reports whether the scenario named name arranges its own
// authorization: an auth/ scenario of the catalog, or a bug whose recipe
// names one (its scenario is named by the bug's ID).
func isAuth(name string) bool {
	if scenarios.IsAuth(name) {
		return true
	}
	b, ok := bugs.Lookup(name)
	return ok && scenarios.IsAuth(b.Recipe.Scenario)
}
