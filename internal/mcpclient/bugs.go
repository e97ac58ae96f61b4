package mcpclient

import "github.com/tidwall/gjson"

// Bugs are the deliberate mistakes of the kit's MCP client, one knob each,
// for the tests, lessons and bug proofs that show the mock (or a scenario)
// catching them; the zero value makes none. Each knob says what it does
// and names what catches it: a scenario of the catalog, or a bug of
// scenarios/bugs. The OAuth client's mistakes are OAuthBugs.
type Bugs struct {
	// Reading the server's output (stdio).

	MaxLine      int  // a line longer than this many bytes ends its read loop, as bufio.Scanner's 64 KB does (mcp-go-155)
	PanicLine    int  // a line longer than this many bytes panics the call waiting for a reply, as mcp-go v0.32's 4 KB buffer did (mcp-go-462)
	NonJSONFatal bool // a line that is not JSON ends its read loop (stdout-banner, llamacloud-5)
	StrictUTF8   bool // bytes that are not UTF-8 end its read loop (python-sdk-2456)
	HangOnEOF    bool // at the end of the server's output its calls wait for their deadline (disconnect-mid-call, python-sdk-332)

	// Ids.

	LooseIDs        bool // matches a reply to its call by the id's number: "3" answers 3, as the TypeScript SDK 1.32 does; lenient, not a bug (wrong-id-type passes it)
	RouteByID       bool // takes any message with a pending call's id for its reply, a request of the server too (zero-942)
	IntRequestIDs   bool // decodes the server's request ids as integers: a string id ends its read loop (mcp-go-154)
	FloatRequestIDs bool // decodes the server's request ids as float64: an id above 2^53 is answered with another (genie-14)

	// The handshake and the capabilities.

	OmitProtocolVersion       bool     // sends initialize without protocolVersion (mcp-go-687)
	OnlyVersions              []string // the protocol versions it accepts from the server (nil: every one it speaks) (negotiate-older-version, mcp-go-650)
	AcceptAnyResult           bool     // takes any initialize result, unchecked (initialize-result-malformed, protocol-version-unknown)
	SkipInitialized           bool     // never sends notifications/initialized (giftgen-handshake, claude-code-59835)
	InitializedWithID         bool     // sends notifications/initialized with an id, as a request (f-mcptools-47)
	StrictHandshake           bool     // a message of the server before its own notifications/initialized ends the session (notify-before-initialized)
	RejectUnknownCapabilities bool     // a server capability it does not know ends the session (capabilities-unknown-keys)
	IgnoreCapabilities        bool     // uses what the server did not declare (tools-capability-missing, undeclared-methods)
	StaleCapabilities         string   // uses these capabilities (an earlier session's, JSON text) instead of the server's (capabilities-per-session)

	// The stateless era.

	NoProbeTimeout    bool // waits for server/discover's answer until its deadline, whatever Options.ProbeTimeout says (discover-never-answered)
	NoMeta            bool // sends its requests after server/discover without the per-request _meta (giftgen-stateless)
	Ignore32022       bool // goes stateless after a -32022 that offered none of its versions (negotiate-unknown-version)
	InitAfterDiscover bool // sends initialize although server/discover succeeded (modern-only)
	ReuseRetryID      bool // retries after input_required with the same id (elicitation-round-trip)

	// Lists.

	OnePage          bool // reads the first page of a list only (vercel-ai-19240)
	FollowCursorLoop bool // follows a nextCursor it has seen before (looping-cursor, codebase-memory-mcp-1247)
	EmptyCursorEnds  bool // takes nextCursor "" for the end of the list (fastmcp-5025)

	// What the app does with the tools (Work).

	IgnoreListChanged    bool                         // ignores notifications/tools/list_changed (tools-list-changed)
	KeepFirstList        bool                         // lists again after list_changed but keeps the first list (claude-ai-mcp-960)
	RetryStale           bool                         // repeats a call rejected with -32602 instead of listing the tools again (tools-schema-changed-quietly)
	CallDespiteListError bool                         // calls its tool although tools/list failed (capabilities-lie)
	DropTool             func(tool gjson.Result) bool // drops the listed tools it cannot take (vscode-248810)
	RejectToolList       func(tool gjson.Result) bool // one such tool fails the whole list (gitlab-mcp-286, atlas-ui-3-727)
	MaxToolName          int                          // drops tools whose names are longer (composio-2788, vscode-243602)
	MaxTools             int                          // keeps only the first this many tools (anytype-mcp-5)
	StrictOutput         bool                         // checks structuredContent against the outputSchema's required fields even when isError (typescript-sdk-1943)
	KnownContent         []string                     // the content types it can read, any other fails the call (nil: every one) (vercel-ai-14925)
	NoProgress           bool                         // calls tools without a progressToken (opencode-21701)
	SwallowHTTPErrors    bool                         // takes an HTTP error status of tools/call for an empty result (http-error-page)

	// The server's requests.

	NoPing               bool // answers ping with -32601 (csharp-sdk-1390)
	IgnoreServerRequests bool // never answers a request of the server (ruby-sdk-541)
	EmptyElicitation     bool // accepts an elicitation with empty content (hermes-agent-59208)

	// Giving up.

	NoCancel  bool // gives up on a call without notifications/cancelled (slow-tool-timeout, python-sdk-2507)
	NoTimeout bool // waits for a reply until its connection is closed, whatever its context says (mcp-go-201, langchain-mcp-adapters-609)

	// Streamable HTTP.

	NoResume        bool // a reply stream cut before the reply loses the call (http-stream-dropped, php-sdk-327)
	HangOnCut       bool // waits for a reply after its stream ended (python-sdk-1577)
	HangOnStatus    bool // an HTTP error status leaves the call waiting for its deadline (java-sdk-324)
	NoVersionHeader bool // sends no Mcp-Protocol-Version header (csharp-sdk-495)
	GiveUpOn404     bool // a 404 for its session ends its work instead of starting a new session (http-session-expired, python-sdk-3556)
	HangOn404       bool // a 404 for its session leaves it waiting for its deadline (go-sdk-265)
	NoFallback      bool // a 400, 404 or 405 to its first POST ends its work instead of the HTTP+SSE transport (http-legacy-sse-only)
}
