package bugs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/scenarios/bugs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProofShort: a bug's line (what mcpmock list --bugs prints) ends with
// how it is proven: "real: " and the buggy release as package@version, or
// "raw client"; and the bugs proven by a PyPI release of the official
// Python SDK name it so.
func TestProofShort(t *testing.T) {
	release := regexp.MustCompile(`^(@?[a-z0-9./_:-]+)@v?[0-9][0-9A-Za-z.-]*$`)
	for _, b := range bugs.All() {
		switch b.Proof.Kind {
		case bugs.RealVersion:
			assert.Regexp(t, release, b.Proof.Release, "%s: a real release is named package@version", b.ID)
			assert.True(t, strings.HasSuffix(b.String(), "; proof: real: "+b.Proof.Release), "%s: %s", b.ID, b)
		default:
			assert.Empty(t, b.Proof.Release, b.ID)
			assert.True(t, strings.HasSuffix(b.String(), "; proof: raw client"), "%s: %s", b.ID, b)
		}
	}
	for id, want := range map[string]string{
		"python-sdk-332":      "real: mcp@1.9.1",
		"python-sdk-434":      "real: mcp@1.9.1",
		"python-sdk-2507":     "real: mcp@1.30.0",
		"python-sdk-1577":     "real: mcp@1.30.0",
		"python-sdk-1672":     "real: mcp@1.9.1",
		"python-sdk-2456":     "real: mcp@2.3.0",
		"python-sdk-3556":     "real: mcp@2.3.0",
		"python-sdk-1676":     "real: mcp@2.3.0",
		"python-sdk-2107":     "raw client",
		"mcp-go-588":          "real: github.com/mark3labs/mcp-go@v0.39.1",
		"typescript-sdk-1943": "real: @modelcontextprotocol/sdk@1.32.2",
	} {
		b, ok := bugs.Lookup(id)
		require.True(t, ok, id)
		assert.Equal(t, want, b.Proof.Short(), id)
	}
}

// TestPyPIProofsInstalled: every release a PyPI proof runs has its lock
// (integration/bugs/py/requirements-mcp-VERSION.txt, or the Python clients'
// lock for mcp 2.3.0), and .ci/python_clients.sh plays every bug so proven.
func TestPyPIProofsInstalled(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "..", ".ci", "python_clients.sh"))
	require.NoError(t, err)
	n := 0
	for _, b := range bugs.All() {
		if !strings.HasPrefix(b.Proof.Test, ".ci/python_clients.sh") {
			continue
		}
		n++
		version := strings.TrimPrefix(b.Proof.Release, "mcp@")
		lock := filepath.Join("..", "..", "integration", "bugs", "py", "requirements-mcp-"+version+".txt")
		if version == "2.3.0" {
			lock = filepath.Join("..", "..", "cmd", "mcpmock", "testdata", "python", "requirements.txt")
		}
		text, err := os.ReadFile(lock)
		if assert.NoError(t, err, "%s: the lock of mcp %s", b.ID, version) {
			assert.Contains(t, string(text), "\nmcp=="+version+" \\\n", "%s: %s pins mcp %s", b.ID, lock, version)
		}
		assert.Regexp(t, `(?m)^\s*expect fail `+regexp.QuoteMeta(version)+` `+regexp.QuoteMeta(b.ID)+`\b`, string(script), "%s: .ci/python_clients.sh plays it on mcp %s", b.ID, version)
	}
	assert.Equal(t, 8, n, "the bugs proven by a PyPI release")
}
