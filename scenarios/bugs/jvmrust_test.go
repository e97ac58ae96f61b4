package bugs_test

import (
	"strings"
	"testing"

	"github.com/mcpmock/mcpmock/scenarios/bugs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The raw proofs of the Java SDK's bugs (TestProofs plays them): a buggy
// client doing on the wire what the 2.2.0 release does, and the fixed one.
func init() {
	proofs["java-sdk-959"] = same(raw{bugs: knobs{HangOnEOF: true}})
	proofs["java-sdk-611"] = same(raw{bugs: knobs{NonJSONFatal: true}})
	proofs["java-sdk-1084"] = same(raw{bugs: knobs{FollowCursorLoop: true}})
	proofs["java-sdk-803"] = same(raw{bugs: knobs{NoCancel: true}})
	proofs["agentic-api-311"] = same(raw{bugs: knobs{FollowCursorLoop: true}})
}

// TestJVMRustProofs: the bugs proven by Java and Rust releases say so on
// their mcpmock list --bugs line, as package@version, and name the CI step
// that plays them.
func TestJVMRustProofs(t *testing.T) {
	for id, want := range map[string]string{
		"java-sdk-959":    "io.modelcontextprotocol.sdk:mcp@2.2.0",
		"java-sdk-611":    "io.modelcontextprotocol.sdk:mcp@2.2.0",
		"java-sdk-1084":   "io.modelcontextprotocol.sdk:mcp@2.2.0",
		"java-sdk-803":    "io.modelcontextprotocol.sdk:mcp@2.2.0",
		"rust-sdk-733":    "rmcp@1.1.1",
		"agentic-api-311": "rmcp@3.11.0",
	} {
		b, ok := bugs.Lookup(id)
		require.True(t, ok, id)
		assert.Equal(t, bugs.RealVersion, b.Proof.Kind, id)
		assert.True(t, strings.HasSuffix(b.String(), "; proof: real: "+want), "%s: %s", id, b)
		assert.Contains(t, b.Proof.Test, "check_jvm_rust_bugs", id)
	}
}
