package main

import (
	"io"
)

// httpAvailable reports whether this build serves Streamable HTTP.
func httpAvailable() error {
	return usagef("--http: Streamable HTTP is not available in this build of mcpmock yet (mcptest has no srv.URL()); use stdio, which every MCP client supports")
}

func serveHTTP(spec serverSpec, addr, reportFile string, stdout, logw io.Writer) error {
	return httpAvailable()
}
