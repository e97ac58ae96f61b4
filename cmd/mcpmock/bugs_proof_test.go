package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestListBugsProof: each line of list --bugs ends with how the bug is
// proven: by a real release (package@version) or by a raw client.
func TestListBugsProof(t *testing.T) {
	t.Parallel()
	out, _, code := runMcpmock(t, nil, "list", "--bugs")
	require.Equal(t, 0, code)
	lines := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		id, _, _ := strings.Cut(l, ":")
		lines[id] = l
	}
	for id, want := range map[string]string{
		"python-sdk-332":      "; proof: real: mcp@1.9.1",
		"python-sdk-3556":     "; proof: real: mcp@2.3.0",
		"mcp-go-588":          "; proof: real: github.com/mark3labs/mcp-go@v0.39.1",
		"typescript-sdk-1708": "; proof: real: @modelcontextprotocol/sdk@1.32.2",
		"python-sdk-2107":     "; proof: raw client",
	} {
		assert.True(t, strings.HasSuffix(lines[id], want), "%s: want the line to end with %q: %s", id, want, lines[id])
	}
}
