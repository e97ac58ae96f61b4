// Package bugs is the catalog of documented MCP client bugs: bugs that
// real clients (SDKs, the Inspector, hosts, agents) shipped and that a
// public issue or pull request reports, each reproduced by mcpmock with a
// scenario of the catalog or a recipe of at most three faults, each with
// what a fixed client does instead, and each proven: a test shows the
// buggy client caught and the fixed one passing.
//
// A Bug plays as a scenarios.Scenario (Bug.Scenario), so everything that
// judges a scenario judges a bug: in Go,
//
//	bugs.Run(t, connect, "mcp-go-588") // the client under test, as scenarios.Run takes it
//
// and from the command line, for a client in any language,
//
//	mcpmock list --bugs
//	mcpmock run --bug mcp-go-588 -- ./my-client
//
// The package lives under scenarios because a bug is a scenario with a
// history: its server is a scenario of the catalog or GiftGen with a few
// faults, and its verdicts are the scenarios' (pass, fail, not-reached).
package bugs

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/internal/faultkit"
	"github.com/mcpmock/mcpmock/internal/suggest"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
)

// Bug is one documented client bug.
type Bug struct {
	// ID is short and stable, the repository's short name and the issue
	// or PR number: "mcp-go-588". It is the subtest name and what
	// mcpmock run --bug takes.
	ID string
	// Source is where the bug is reported: "mark3labs/mcp-go#588" (an
	// issue or pull request; "PR" is not written, the URL says which).
	Source string
	// URL is the address of Source on GitHub.
	URL string
	// Client is the client that shipped the bug, with the version
	// reported where known: "mark3labs/mcp-go v0.39.1 (stdio)".
	Client string
	// Symptom is what users saw, in one line.
	Symptom string
	// Recipe is how the mock reproduces what triggers the bug.
	Recipe Recipe
	// Fixed is what a fixed client does, which the check holds the client to.
	Fixed string
	// Proof says how the bug is proven caught: by the real buggy version
	// (and which fixed version passes), or by a raw client that does on
	// the wire what the report says the buggy client did.
	Proof Proof
}

// Recipe is how the mock reproduces a bug's trigger: a scenario of the
// catalog, or faults (and at most a line of scripting) added to the app's
// healthy server (GiftGen unless the run says scenarios.WithServer).
type Recipe struct {
	// Scenario names a scenario of scenarios.All(); the bug is judged by
	// its expectation. Empty when the recipe is Faults.
	Scenario string
	// Faults are installed (each Optional: whether they act is the
	// decision point's business) on the app's server.
	Faults []mcptest.Fault
	// Setup, if set, scripts the server before the faults (a tool with
	// a long name, a page size), in one line that Script shows.
	Setup func(srv *mcptest.Server) *mcptest.Server
	// Script is Setup's Go text, for the table.
	Script string
	// Expect is what a fixed client does, for a recipe of faults.
	Expect scenarios.Expectation
	// Deadline is how long the client may run; zero means
	// scenarios.DefaultDeadline.
	Deadline time.Duration
	// HTTP says the trigger is on Streamable HTTP: the client must reach
	// the server at its URL (Endpoint.URL; mcpmock run --http).
	HTTP bool
}

// OverHTTP reports whether the recipe needs the client on Streamable
// HTTP: its HTTP field, or a scenario of scenarios.HTTP().
func (r Recipe) OverHTTP() bool {
	if r.HTTP {
		return true
	}
	for _, s := range scenarios.HTTP() {
		if s.Name == r.Scenario {
			return true
		}
	}
	return false
}

// Lines returns the recipe as Go text, one element a line: the scenario's
// name, or Script and one line per fault.
func (r Recipe) Lines() []string {
	if r.Scenario != "" {
		if r.HTTP {
			return []string{"scenario " + r.Scenario + " over Streamable HTTP (srv.URL())"}
		}
		return []string{"scenario " + r.Scenario}
	}
	var out []string
	if r.Script != "" {
		out = append(out, r.Script)
	}
	for _, f := range r.Faults {
		out = append(out, faultPkg(f)+"."+f.String())
	}
	return out
}

// faultPkg names the package of f's constructor as Go code names it:
// fault, or oauth for an authorization fault.
func faultPkg(f mcptest.Fault) string {
	if sp := faultkit.Fault(f).Spec(); sp != nil && sp.Pkg != "" {
		return sp.Pkg
	}
	return "fault"
}

// String is the recipe on one line, lines separated by "; ".
func (r Recipe) String() string { return strings.Join(r.Lines(), "; ") }

// ProofKind says how a bug is proven.
type ProofKind string

const (
	// RealVersion: a test runs the buggy release of the client (a Go
	// module or npm package at that version) and sees it caught, and the
	// fixed release pass.
	RealVersion ProofKind = "real"
	// RawClient: a hand-written client does on the wire what the report
	// says the buggy client did and is caught; the same client with the
	// fix passes. For hosts, agents and languages that cannot run here.
	RawClient ProofKind = "raw"
)

// Proof is how a bug is proven caught.
type Proof struct {
	Kind ProofKind
	// Buggy and Fixed name the versions a RealVersion proof runs
	// ("github.com/mark3labs/mcp-go v0.39.1"), or say what the raw
	// client does in each case.
	Buggy, Fixed string
	// Test names the test that holds the proof.
	Test string
	// Release is the buggy release of a RealVersion proof as
	// package@version, as its registry names it: "mcp@1.9.1" (the Python package index),
	// "@modelcontextprotocol/sdk@1.32.2" (npm),
	// "github.com/mark3labs/mcp-go@v0.39.1" (a Go module).
	Release string
}

// Short says how the bug is proven in a few words: "real: " and the buggy
// release (package@version), or "raw client".
func (p Proof) Short() string {
	if p.Kind == RealVersion {
		return "real: " + p.Release
	}
	return "raw client"
}

// String says the proof in one line.
func (p Proof) String() string {
	switch p.Kind {
	case RealVersion:
		return fmt.Sprintf("real: %s caught, %s passes (%s)", p.Buggy, p.Fixed, p.Test)
	default:
		return fmt.Sprintf("raw client: %s caught, %s passes (%s)", p.Buggy, p.Fixed, p.Test)
	}
}

// String lists a bug on one line: ID, source, client, symptom, recipe and
// how it is proven (Proof.Short).
func (b Bug) String() string {
	return fmt.Sprintf("%s: %s — %s [%s] recipe: %s; proof: %s", b.ID, b.Client, b.Symptom, b.Source, b.Recipe, b.Proof.Short())
}

// Scenario returns the bug as a scenario: named by the bug's ID, its
// mistake the symptom and source, its server the recipe's (the named
// scenario's, or GiftGen with the faults) and its expectation what a fixed
// client does.
func (b Bug) Scenario() scenarios.Scenario {
	mistake := fmt.Sprintf("%s (%s): %s. Fixed: %s.", b.Client, b.Source, b.Symptom, b.Fixed)
	if b.Recipe.Scenario != "" {
		s, ok := scenarios.Lookup(b.Recipe.Scenario)
		if !ok {
			panic(fmt.Sprintf("bugs: %s names the scenario %q, which the catalog does not have", b.ID, b.Recipe.Scenario))
		}
		s.Name, s.Mistake = b.ID, mistake+" "+s.Mistake
		return s
	}
	r := b.Recipe
	return scenarios.Scenario{
		Name:    b.ID,
		Mistake: mistake,
		Spec:    b.URL,
		Server: func(base *mcptest.Server) *mcptest.Server {
			srv := base
			if r.Setup != nil {
				srv = r.Setup(srv)
			}
			for _, f := range r.Faults {
				srv.WithFaults(f.Optional())
			}
			return srv
		},
		Expect:   r.Expect,
		Deadline: r.Deadline,
	}
}

// All returns the catalog, in a stable order. Each call returns fresh values.
func All() []Bug { return catalog() }

// IDs returns the bugs' IDs, in catalog order.
func IDs() []string {
	var out []string
	for _, b := range All() {
		out = append(out, b.ID)
	}
	return out
}

// Lookup returns the bug with the given ID.
func Lookup(id string) (Bug, bool) {
	all := All()
	i := slices.IndexFunc(all, func(b Bug) bool { return b.ID == id })
	if i < 0 {
		return Bug{}, false
	}
	return all[i], true
}

// Unknown says, for each id that names no bug, that it does not and which
// ID is nearest; nil when every id is in the catalog.
func Unknown(ids ...string) []string {
	var out []string
	for _, id := range ids {
		if _, ok := Lookup(id); !ok {
			out = append(out, fmt.Sprintf("no bug with ID %q%s", id, suggest.DidYouMean(id, IDs())))
		}
	}
	return out
}

// Run plays the bugs named by ids (every bug when none is named) with the
// client that connect drives, each as a subtest named by its ID, and
// fails a subtest when the client has the bug (or never reached the point
// where it would show). It returns the report of the results.
func Run(t *testing.T, connect scenarios.ConnectFunc, ids ...string) *scenarios.Report {
	t.Helper()
	if u := Unknown(ids...); len(u) > 0 {
		t.Fatalf("bugs.Run: %s (bugs.IDs() lists the catalog)", strings.Join(u, "; "))
	}
	rep := &scenarios.Report{}
	for _, b := range All() {
		if len(ids) > 0 && !slices.Contains(ids, b.ID) {
			continue
		}
		s := b.Scenario()
		t.Run(b.ID, func(t *testing.T) {
			t.Helper()
			r := s.Evaluate(s.Play(t, connect))
			rep.Results = append(rep.Results, r)
			switch {
			case r.Status == scenarios.NotApplicable:
				t.Skip(r.Observed)
			case r.Status.Failed():
				t.Error(s.Failure(r))
			}
		})
	}
	return rep
}
