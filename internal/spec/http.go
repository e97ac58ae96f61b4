package spec

// The HTTP headers of the Streamable HTTP transport.
const (
	// HeaderSessionID carries the session a server assigned (handshake era).
	HeaderSessionID = "Mcp-Session-Id"
	// HeaderProtocolVersion carries the negotiated version on every request
	// after initialize (from 2025-06-18) and on every stateless request.
	HeaderProtocolVersion = "Mcp-Protocol-Version"
	// HeaderMethod repeats the body's method (stateless era).
	HeaderMethod = "Mcp-Method"
	// HeaderName repeats what the method acts on: Method.NameParam of the
	// params (stateless era).
	HeaderName = "Mcp-Name"
	// HeaderParamPrefix starts the name of the header a client mirrors a
	// tool argument into (stateless era): Mcp-Param- followed by the
	// x-mcp-header annotation of the argument's inputSchema property.
	HeaderParamPrefix = "Mcp-Param-"
	// HeaderLastEventID asks a server to resume an SSE stream after that event.
	HeaderLastEventID = "Last-Event-ID"
)

// ProtocolVersionHeader are the handshake versions in which a client sends
// HeaderProtocolVersion on every request after initialize (2025-06-18
// and 2025-11-25).
const ProtocolVersionHeader Set = 1<<2 | 1<<3

// The keys of the _meta of the stateless era.
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
	MetaLogLevel           = "io.modelcontextprotocol/logLevel"
	MetaServerInfo         = "io.modelcontextprotocol/serverInfo"
	MetaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
)
