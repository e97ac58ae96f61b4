package bugs_test

import (
	"testing"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/mcpmock/mcpmock/scenarios/bugs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// proof is how the raw clients prove a bug: buggy does on the wire what
// the report says the buggy client did; fixed is the same client with
// the fix. A bug proven by a real version (integration/bugs/…) still has a
// fixed raw client here, to show the check blames no correct client; its
// buggy one is nil when the real version is the only proof.
type proof struct{ buggy, fixed scenarios.ConnectFunc }

func pair(buggy, fixed raw) proof { return proof{buggy.connect(), fixed.connect()} }

// same is a proof whose buggy client differs from the correct one by b.
func same(b raw) proof { return proof{b.connect(), raw{call: b.call}.connect()} }

// onSchema is a tool predicate of the tool's inputSchema.
func onSchema(f func(schema gjson.Result) bool) func(tool gjson.Result) bool {
	return func(tool gjson.Result) bool { return f(tool.Get("inputSchema")) }
}

var (
	before1125  = []string{"2024-11-05", "2025-03-26", "2025-06-18"}
	arrayNoItem = func(s gjson.Result) bool {
		for _, p := range s.Get("properties").Map() {
			if p.Get("type").String() == "array" && !p.Get("items").Exists() {
				return true
			}
		}
		return false
	}
)

// proofs holds a proof for every bug of the catalog.
var proofs = map[string]proof{
	"mcp-go-155":                 same(raw{bugs: knobs{MaxLine: 64 << 10}}),
	"mcp-go-588":                 same(raw{bugs: knobs{MaxLine: 64 << 10}}),
	"mcp-go-462":                 same(raw{bugs: knobs{PanicLine: 4096}}),
	"go-mcp-128":                 same(raw{bugs: knobs{MaxLine: 64 << 10}}),
	"llamacloud-5":               same(raw{bugs: knobs{NonJSONFatal: true}}),
	"firecrawl-98":               same(raw{bugs: knobs{NonJSONFatal: true}}),
	"mateclaw-227":               same(raw{bugs: knobs{NonJSONFatal: true}}),
	"inspect-ai-3290":            same(raw{bugs: knobs{NonJSONFatal: true}}),
	"brave-search-mcp-server-32": same(raw{bugs: knobs{NonJSONFatal: true}}),
	"postman-mcp-server-154":     same(raw{bugs: knobs{NonJSONFatal: true}}),
	"actual-mcp-109":             same(raw{bugs: knobs{NonJSONFatal: true}}),
	"python-sdk-2456":            same(raw{bugs: knobs{StrictUTF8: true}}),

	"mcp-go-650":     same(raw{bugs: knobs{OnlyVersions: before1125}, version: "2025-06-18"}),
	"eino-ext-622":   same(raw{bugs: knobs{OnlyVersions: before1125}, version: "2025-06-18"}),
	"bifrost-6611":   same(raw{bugs: knobs{OnlyVersions: before1125}, version: "2025-06-18"}),
	"mcp-go-687":     same(raw{bugs: knobs{OmitProtocolVersion: true}}),
	"mcp-golang-134": same(raw{version: "1.0"}),

	"claude-code-59835": same(raw{bugs: knobs{SkipInitialized: true}}),
	"mcp-hangar-881":    same(raw{bugs: knobs{SkipInitialized: true}}),
	"mcptools-77":       same(raw{bugs: knobs{SkipInitialized: true}}),
	"f-mcptools-47":     same(raw{bugs: knobs{InitializedWithID: true}}),
	"librechat-7117":    same(raw{bugs: knobs{IgnoreListChanged: true}}),

	"vscode-248810":            same(raw{bugs: knobs{DropTool: onSchema(arrayNoItem)}, call: "tag_gifts"}),
	"gitlab-mcp-286":           same(raw{bugs: knobs{RejectToolList: onSchema(func(s gjson.Result) bool { return s.Raw == "{}" })}, call: "suggest_gifts"}),
	"atlas-ui-3-727":           same(raw{bugs: knobs{RejectToolList: onSchema(func(s gjson.Result) bool { return s.Get("type").String() != "object" })}, call: "suggest_gifts"}),
	"composio-2788":            same(raw{bugs: knobs{MaxToolName: 60}, call: long64}),
	"mcp-playwright-145":       same(raw{bugs: knobs{MaxToolName: 60}, call: long64}),
	"anytype-mcp-5":            same(raw{bugs: knobs{MaxTools: 40}, call: "tool_45"}),
	"vscode-243602":            same(raw{bugs: knobs{MaxToolName: 64 - len("mcp_giftgen_")}, call: longPrefixed}),
	"chrome-devtools-mcp-1169": same(raw{bugs: knobs{MaxToolName: 64}, call: long64 + "_x"}),
	"typescript-sdk-1943":      same(raw{bugs: knobs{StrictOutput: true}, call: "gift_price"}),
	"vercel-ai-14925":          same(raw{bugs: knobs{KnownContent: []string{"text", "image", "audio", "resource"}}, call: "gift_card"}),

	"vercel-ai-19240":          same(raw{bugs: knobs{OnePage: true}}),
	"mcp2cli-65":               same(raw{bugs: knobs{OnePage: true}}),
	"mcp-cli-248":              same(raw{bugs: knobs{OnePage: true}}),
	"factory-7":                same(raw{bugs: knobs{OnePage: true}}),
	"codebase-memory-mcp-1247": same(raw{bugs: knobs{FollowCursorLoop: true}}),
	"fastmcp-5025":             pair(raw{bugs: knobs{EmptyCursorEnds: true}, version: mcpclient.StatelessVersion}, raw{version: mcpclient.StatelessVersion}),

	"inspector-1292":     same(raw{bugs: knobs{IgnoreListChanged: true}}),
	"python-sdk-2107":    same(raw{bugs: knobs{IgnoreListChanged: true}}),
	"typescript-sdk-205": same(raw{bugs: knobs{IgnoreListChanged: true}}),
	"claude-ai-mcp-960":  same(raw{bugs: knobs{KeepFirstList: true}, call: "wrap_gift"}),
	"bifrost-6885":       same(raw{bugs: knobs{IgnoreListChanged: true}}),

	"python-sdk-332":             same(raw{bugs: knobs{HangOnEOF: true}}),
	"python-sdk-434":             same(raw{bugs: knobs{HangOnEOF: true}}),
	"langchain-mcp-adapters-609": same(raw{bugs: knobs{NoTimeout: true}}),
	"ruby-mcp-client-178":        same(raw{bugs: knobs{NoCancel: true}}),
	"python-sdk-2507":            same(raw{bugs: knobs{NoCancel: true}}),
	"opencode-21701":             same(raw{bugs: knobs{NoProgress: true}, call: "index_repo"}),

	"mcp-go-154":      same(raw{bugs: knobs{IntRequestIDs: true}, call: "check_alive"}),
	"mcp-go-201":      same(raw{bugs: knobs{NoTimeout: true}}),
	"genie-14":        same(raw{bugs: knobs{FloatRequestIDs: true}}),
	"zero-942":        same(raw{bugs: knobs{RouteByID: true}}),
	"csharp-sdk-1390": same(raw{bugs: knobs{NoPing: true}, call: "check_alive"}),
	"ruby-sdk-541":    same(raw{bugs: knobs{IgnoreServerRequests: true}, call: "check_alive"}),

	"hermes-agent-59208": same(raw{bugs: knobs{EmptyElicitation: true}, call: "delete_wishlist"}),
}

// Names the proofs use, from the catalog.
const (
	long64       = "search_the_gift_catalog_for_ideas_by_age_budget_and_occasion_now"
	longPrefixed = "suggest_gifts_for_the_recipient_by_age_budget_and_occasion"
)

// TestProofs plays every bug of the catalog with its buggy raw client,
// which must fail (caught: not merely not reached), and with the fixed
// one, which must pass. The bugs run in parallel: the buggy clients that
// wait for their deadline cost their deadline once, not each.
func TestProofs(t *testing.T) {
	for _, b := range bugs.All() {
		p, ok := proofs[b.ID]
		if !ok {
			p, ok = httpProofs[b.ID]
		}
		t.Run(b.ID, func(t *testing.T) {
			require.True(t, ok, "bug %s has no proof in proofs or httpProofs", b.ID)
			t.Parallel()
			s := b.Scenario()
			if p.buggy != nil {
				r := s.Evaluate(s.Play(t, p.buggy))
				assert.Equal(t, scenarios.Fail, r.Status, "the buggy client is caught: %s", r)
			}
			r := s.Evaluate(s.Play(t, p.fixed))
			assert.Equal(t, scenarios.Pass, r.Status, "the fixed client passes: %s\n%s", r, r.Transcript)
		})
	}
}

// httpProofs are the proofs of the bugs on Streamable HTTP (httpclient_test.go).
var httpProofs = map[string]proof{}
