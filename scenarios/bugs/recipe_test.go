package bugs_test

// The recipe "turn a bug report into a failing test" of docs/bugs.md, as
// tests: the code blocks of that section are these functions' bodies (the
// raw client stands for the user's client).

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/mcpmock/mcpmock/scenarios/bugs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// myClient and runMyClient are the client of the report (as a
// ConnectFunc, and on one connection): here the raw client without the
// bug; TestReport123Caught plays the one with it.
var (
	myClient    = raw{}.connect()
	runMyClient = raw{call: "search"}.run
)

// TestReport123 is step 2 of the recipe: the report as a bug value,
// played against the client.
func TestReport123(t *testing.T) {
	bug := bugs.Bug{
		ID: "myapp-123", Source: "example/myapp#123", URL: "https://github.com/example/myapp/issues/123",
		Client:  "myapp 0.4 (stdio)",
		Symptom: "the session dies when tools/list is longer than 64 KB",
		Recipe: bugs.Recipe{
			Faults: []mcptest.Fault{fault.Oversized("tools/list", 70_000)},
			Expect: bugs.Proceeds("a 70 KB line"),
		},
		Fixed: "reads lines of any length",
	}
	s := bug.Scenario()
	if r := s.Evaluate(s.Play(t, myClient)); r.Status != scenarios.Pass {
		t.Fatal(s.Failure(r))
	}
}

// TestReport123Caught: the recipe's test fails on the buggy client.
func TestReport123Caught(t *testing.T) {
	bug, _ := bugs.Lookup("mcp-go-588") // the same recipe, in the catalog
	s := bug.Scenario()
	if r := s.Evaluate(s.Play(t, raw{bugs: knobs{MaxLine: 64 << 10}}.connect())); r.Status != scenarios.Fail {
		t.Fatalf("the buggy client is not caught: %s", r)
	}
}

// TestReport123Plain is step 1 of the recipe: the scripted server alone,
// with mcptest's assertions.
func TestReport123Plain(t *testing.T) {
	srv := mcptest.NewServer(t).
		WithTools(mcptest.NewTool("search").ReturnsText("found")).
		WithFaults(fault.Oversized("tools/list", 70_000))
	// the client under test, on srv.Dial() (stdio framing) or srv.URL()
	if err := runMyClient(t.Context(), srv.Dial()); err != nil {
		t.Fatal(err)
	}
	srv.AssertToolCalled(t, "search", nil) // it read the 70 KB list and went on
}

// TestBugsDocRecipe: every Go block of the recipe section of docs/bugs.md
// is the body of a test of this file, so the recipe compiles and runs.
func TestBugsDocRecipe(t *testing.T) {
	page, err := os.ReadFile(bugsPage(t))
	require.NoError(t, err)
	self, err := os.ReadFile("recipe_test.go")
	require.NoError(t, err)
	section := string(page)
	i := strings.Index(section, "\n## Turn a bug report into a failing test\n")
	require.GreaterOrEqual(t, i, 0, "docs/bugs.md has no recipe section")
	section = section[i+1:]
	if j := strings.Index(section, "\n## "); j >= 0 {
		section = section[:j] // the recipe runs to the next section
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(section, -1)
	require.NotEmpty(t, blocks, "the recipe has Go blocks")
	for _, b := range blocks {
		assert.Contains(t, string(self), b[1], "a Go block of the recipe of docs/bugs.md is not in recipe_test.go")
	}
}
