package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/scenarios/bugs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestListBugs(t *testing.T) {
	t.Parallel()
	out, _, code := runMcpmock(t, nil, "list", "--bugs")
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	assert.Len(t, lines, len(bugs.All()), "one line a bug")
	assert.Contains(t, out, `mcp-go-588: mark3labs/mcp-go v0.39.1 (stdio client) — "bufio.Scanner: token too long"`)
	assert.Contains(t, out, `[mark3labs/mcp-go#588] recipe: fault.Oversized("tools/list", 70000)`)
}

// TestRunBug: run --bug plays the bug's scenario under the bug's ID: the
// fake client (the reference client) reads a 70 KB line (pass) but sends
// tools/call without a progressToken (opencode#21701: fail, exit 1).
func TestRunBug(t *testing.T) {
	t.Parallel()
	env, cmd := fakeClientCmd("careful")
	jsonFile := filepath.Join(t.TempDir(), "r.json")
	out, stderr, code := runMcpmock(t, env, append([]string{"run", "--bug", "mcp-go-155", "--json", jsonFile, "--"}, cmd...)...)
	assert.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, stderr)
	assert.Regexp(t, `(?m)^mcp-go-155 .* pass$`, out)
	assert.Equal(t, "mcp-go-155", readReport(t, jsonFile).Get("results.0.scenario").String())

	out, _, code = runMcpmock(t, env, append([]string{"run", "--bug", "mcp-go-155", "--bug", "opencode-21701", "--"}, cmd...)...)
	assert.Equal(t, exitVerdict, code, out)
	assert.Regexp(t, `(?m)^opencode-21701 +fail\n(    .*\n)*    observed  tools/call id 3 carries no params\._meta\.progressToken`, out)
	assert.Contains(t, out, "2 scenarios: 1 pass, 0 known deviations, 1 fail")

	// A bug the client has, declared with the reason, is a known deviation.
	out, _, code = runMcpmock(t, env, append([]string{"run", "--bug", "opencode-21701",
		"--known-deviation", "opencode-21701=the reference client asks for no progress", "--"}, cmd...)...)
	assert.Equal(t, 0, code, out)
	assert.Regexp(t, `(?m)^opencode-21701 .* known-deviation$`, out)
}

func TestRunBugUsageMistakes(t *testing.T) {
	t.Parallel()
	_, stderr, code := runMcpmock(t, nil, "run", "--bug", "mcp-go-58", "--", "true")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `mcpmock run: --bug: no bug with ID "mcp-go-58"; did you mean "mcp-go-588"? (mcpmock list --bugs shows the catalog)`)
	_, stderr, code = runMcpmock(t, nil, "run", "--bug", "mcp-go-588", "--scenario", "stdout-banner", "--", "true")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--bug and --scenario cannot be combined")
	_, stderr, code = runMcpmock(t, nil, "run", "--bug", "java-sdk-324", "--", "true")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--bug java-sdk-324 is a bug of the Streamable HTTP transport: add --http")
}

// TestIsAuth: a bug whose recipe names an auth/ scenario is served as that
// scenario is (its authorization server's URLs beside the MCP endpoint,
// no --auth on top), though its scenario is named by the bug's ID.
func TestIsAuth(t *testing.T) {
	assert.True(t, isAuth("auth/no-pkce-support"))
	assert.True(t, isAuth("typescript-sdk-2831"))
	assert.False(t, isAuth("mcp-go-588"))
	assert.False(t, isAuth("giftgen-handshake"))
}
