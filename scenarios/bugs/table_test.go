package bugs_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/scenarios/bugs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the bug table in docs/bugs.md")

// bugsPage returns the path of docs/bugs.md, the page of real client
// bugs, which holds the bug table and the recipe.
func bugsPage(t *testing.T) string {
	t.Helper()
	path := filepath.Join("..", "..", "docs", "bugs.md")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Contains(t, string(b), bugs.TableBegin, "docs/bugs.md has no bug table marker")
	return path
}

// TestBugsDocTable: the bug table of docs/bugs.md is the catalog's, as
// Table writes it (go test ./scenarios/bugs -run TestBugsDocTable -update
// rewrites it).
func TestBugsDocTable(t *testing.T) {
	path := bugsPage(t)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	text := string(b)
	head, rest, _ := strings.Cut(text, bugs.TableBegin+"\n")
	got, tail, ok := strings.Cut(rest, bugs.TableEnd)
	require.True(t, ok, "%s: %s has no %s after it", path, bugs.TableBegin, bugs.TableEnd)
	want := bugs.Table()
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(head+bugs.TableBegin+"\n"+want+bugs.TableEnd+tail), 0o644))
		return
	}
	assert.Equal(t, want, got, "%s's bug table is not the catalog's: run go test ./scenarios/bugs -run TestBugsDocTable -update", path)

	// The prose counts are the catalog's too.
	n := map[bugs.ProofKind]int{}
	for _, b := range bugs.All() {
		n[b.Proof.Kind]++
	}
	for _, s := range []string{
		fmt.Sprintf("**By the real release** (%d bugs)", n[bugs.RealVersion]),
		fmt.Sprintf("**By a raw client** (%d bugs)", n[bugs.RawClient]),
		fmt.Sprintf("`TestProofs` plays all %d", len(bugs.All())),
	} {
		assert.True(t, strings.Contains(strings.Join(strings.Fields(head), " "), s), "%s: the prose says another count; want %q", path, s)
	}
}

// TestCatalog: at least 60 bugs, each with a unique ID, a source on
// GitHub, one-line texts, a recipe of a scenario or at most three lines,
// and a proof.
func TestCatalog(t *testing.T) {
	all := bugs.All()
	assert.GreaterOrEqual(t, len(all), 60, "the catalog holds at least 60 documented bugs")
	seen := map[string]bool{}
	sources := map[string]bool{}
	for _, b := range all {
		assert.False(t, seen[b.ID], "two bugs with ID %s", b.ID)
		seen[b.ID] = true
		assert.False(t, sources[b.Source], "two bugs from %s", b.Source)
		sources[b.Source] = true
		assert.Regexp(t, `^[a-z0-9-]+-[0-9]+$`, b.ID)
		assert.True(t, strings.HasSuffix(b.ID, "-"+b.Source[strings.LastIndex(b.Source, "#")+1:]), "%s: the ID ends with the number of its source %s", b.ID, b.Source)
		assert.Regexp(t, `^https://github.com/[^/]+/[^/]+/(issues|pull)/[0-9]+$`, b.URL, b.ID)
		for name, s := range map[string]string{"Client": b.Client, "Symptom": b.Symptom, "Fixed": b.Fixed} {
			assert.NotEmpty(t, s, "%s: %s", b.ID, name)
			assert.NotContains(t, s, "\n", "%s: %s is one line", b.ID, name)
		}
		lines := b.Recipe.Lines()
		assert.NotEmpty(t, lines, b.ID)
		assert.LessOrEqual(t, len(lines), 3, "%s: a recipe is a scenario or at most three lines: %v", b.ID, lines)
		if b.Recipe.Scenario == "" {
			assert.NotNil(t, b.Recipe.Expect.Check, "%s: a recipe of faults says what a fixed client does", b.ID)
			assert.NotNil(t, b.Recipe.Expect.Reached, b.ID)
		}
		assert.Contains(t, []bugs.ProofKind{bugs.RealVersion, bugs.RawClient}, b.Proof.Kind, b.ID)
		s := b.Scenario()
		assert.Equal(t, b.ID, s.Name)
		if strings.Contains(b.Recipe.Script, "srv.URL()") {
			assert.True(t, b.Recipe.OverHTTP(), "%s: a recipe on srv.URL() says HTTP", b.ID)
		}
		_, httpProof := httpProofs[b.ID]
		assert.Equal(t, b.Recipe.OverHTTP(), httpProof, "%s: a bug on Streamable HTTP is proven by the HTTP raw client, and only such a bug", b.ID)
	}
	_, ok := bugs.Lookup("mcp-go-588")
	assert.True(t, ok)
	assert.Equal(t, []string{`no bug with ID "mcp-go-58"; did you mean "mcp-go-588"?`}, bugs.Unknown("mcp-go-58"))
}
