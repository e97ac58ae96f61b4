package spec

// The JSON-RPC 2.0 error codes, and MCP's.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	// CodeResourceNotFound answers resources/read of a URI the server does
	// not have.
	CodeResourceNotFound = -32002
	// CodeHeaderMismatch (2026-07-28) answers a request whose Mcp-Method,
	// Mcp-Name or Mcp-Protocol-Version header is missing or disagrees with
	// its body.
	CodeHeaderMismatch = -32020
	// CodeMissingClientCapability (2026-07-28) answers a request that needs
	// a client capability the request's _meta does not declare.
	CodeMissingClientCapability = -32021
	// CodeUnsupportedProtocolVersion (2026-07-28) answers a request whose
	// protocol version the server does not support.
	CodeUnsupportedProtocolVersion = -32022
)
