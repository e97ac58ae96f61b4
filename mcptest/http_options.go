package mcptest

import (
	"fmt"
	"net"
	"strings"
	"time"
)

// httpConfig is the HTTP configuration of a Server, fixed when it starts.
type httpConfig struct {
	noGET      bool
	bodyLimit  int64
	origins    []string
	hosts      []string
	retry      time.Duration
	sseWrite   time.Duration // HTTPOptions.SSEWriteTimeout; 0: defaultSSEWriteTimeout
	legacyOnly bool          // only the HTTP+SSE transport of 2024-11-05
}

// HTTPOptions configure the HTTP endpoint (URL, HTTPHandler). The zero
// value of a field is the default: a server of both HTTP transports with a
// standalone SSE stream, bodies up to defaultHTTPBodyLimit, loopback
// origins and hosts only, SSE events that wait defaultSSEWriteTimeout for
// a reader, no retry field.
type HTTPOptions struct {
	// LegacySSEOnly makes the endpoint a server of the HTTP+SSE transport
	// of protocol 2024-11-05 only: a GET opens the SSE stream whose first
	// event, endpoint, names the URL to POST to, and every reply goes on
	// that stream; a Streamable HTTP POST to the endpoint itself gets 405,
	// which the spec's backwards-compatibility section says makes a client
	// fall back to GET. (Without it the endpoint serves both: a GET
	// without Mcp-Session-Id is the old transport.)
	LegacySSEOnly bool
	// NoStandaloneSSE answers GET with 405 Method Not Allowed, as a server
	// that offers no standalone SSE stream does: the client then gets
	// server messages only on the streams of its POSTs.
	NoStandaloneSSE bool
	// BodyLimit is the largest POST body read (0: defaultHTTPBodyLimit);
	// a longer one is answered 413 with a JSON-RPC error.
	BodyLimit int64
	// AllowedOrigins are origins (e.g. "https://app.example") accepted in
	// an Origin header besides loopback ones; a request from any other
	// origin is refused with 403, the DNS-rebinding defence the spec asks
	// servers for.
	AllowedOrigins []string
	// AllowedHosts are host names (without a port, e.g. "mock.internal" or
	// "192.0.2.7") accepted in a Host header besides loopback ones; a
	// request for any other host is refused with 403 (the same defence).
	// It is for a mock reached by a name that is not loopback, as
	// `mcpmock serve --http --allow-remote --allow-host NAME` serves one;
	// a test on srv.URL() never needs it.
	AllowedHosts []string
	// SSEWriteTimeout is how long one SSE event may wait for a client that
	// does not read its stream (0: defaultSSEWriteTimeout): past it the
	// stream is cut, its events kept for Last-Event-ID, the journal says
	// so, and the writer (a Broadcast to every session) goes on.
	SSEWriteTimeout time.Duration
	// SSERetry starts every SSE stream with a retry field of this
	// duration: how long the client waits before it reconnects a stream
	// that broke off (0: no retry field).
	SSERetry time.Duration
}

// WithHTTP configures the HTTP endpoint. Calls add up: a flag set or a
// duration or limit given stays, hosts and origins are added; a negative
// limit or duration, or a host with a port, fails the test, naming the
// call.
func (s *Server) WithHTTP(o HTTPOptions) *Server {
	s.t.Helper()
	return s.configure("WithHTTP", func() error {
		switch {
		case o.BodyLimit < 0:
			return fmt.Errorf("BodyLimit %d is negative", o.BodyLimit)
		case o.SSEWriteTimeout < 0:
			return fmt.Errorf("SSEWriteTimeout %v is negative", o.SSEWriteTimeout)
		case o.SSERetry < 0:
			return fmt.Errorf("SSERetry %v is negative", o.SSERetry)
		}
		var hosts []string
		for _, h := range o.AllowedHosts {
			name := strings.Trim(h, "[]")
			ipv6 := strings.Contains(name, ":") && net.ParseIP(name) != nil
			if name == "" || strings.ContainsAny(name, "/ ") || strings.Contains(name, ":") && !ipv6 {
				return fmt.Errorf("AllowedHosts: host %q: want a host name or IP address without a port", h)
			}
			hosts = append(hosts, strings.ToLower(name))
		}
		c := &s.httpCfg
		c.legacyOnly = c.legacyOnly || o.LegacySSEOnly
		c.noGET = c.noGET || o.NoStandaloneSSE
		if o.BodyLimit > 0 {
			c.bodyLimit = o.BodyLimit
		}
		if o.SSEWriteTimeout > 0 {
			c.sseWrite = o.SSEWriteTimeout
		}
		if o.SSERetry > 0 {
			c.retry = o.SSERetry
		}
		c.origins = append(c.origins, o.AllowedOrigins...)
		c.hosts = append(c.hosts, hosts...)
		return nil
	})
}

// legacyParam is the query parameter of the POST URL of an HTTP+SSE session.
const legacyParam = "sessionId"

// defaultSSEWriteTimeout is how long one SSE event waits for its client to
// read it, unless HTTPOptions.SSEWriteTimeout says otherwise.
const defaultSSEWriteTimeout = 10 * time.Second
