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
	sseWrite   time.Duration // WithSSEWriteTimeout; 0: DefaultSSEWriteTimeout
	legacyOnly bool          // only the HTTP+SSE transport of 2024-11-05
}

// WithLegacySSEOnly makes the HTTP endpoint a server of the HTTP+SSE
// transport of protocol 2024-11-05 only: a GET opens the SSE stream whose
// first event, endpoint, names the URL to POST to, and every reply goes
// on that stream; a Streamable HTTP POST to the endpoint itself gets 405,
// which the spec's backwards-compatibility section says makes a client
// fall back to GET. (Without it the endpoint serves both: a GET without
// Mcp-Session-Id is the old transport.)
func (s *Server) WithLegacySSEOnly() *Server {
	s.t.Helper()
	return s.configure("WithLegacySSEOnly", func() error { s.httpCfg.legacyOnly = true; return nil })
}

// legacyParam is the query parameter of the POST URL of an HTTP+SSE session.
const legacyParam = "sessionId"

// WithoutStandaloneSSE makes the HTTP endpoint answer GET with 405 Method
// Not Allowed, as a server that offers no standalone SSE stream does: the
// client then gets server messages only on the streams of its POSTs.
func (s *Server) WithoutStandaloneSSE() *Server {
	s.t.Helper()
	return s.configure("WithoutStandaloneSSE", func() error { s.httpCfg.noGET = true; return nil })
}

// WithHTTPBodyLimit sets the largest POST body the HTTP endpoint reads (by
// default DefaultHTTPBodyLimit); a longer one is answered 413 with a
// JSON-RPC error.
func (s *Server) WithHTTPBodyLimit(n int64) *Server {
	s.t.Helper()
	return s.configure("WithHTTPBodyLimit", func() error {
		if n <= 0 {
			return fmt.Errorf("limit %d is not positive", n)
		}
		s.httpCfg.bodyLimit = n
		return nil
	})
}

// WithAllowedOrigins adds origins (e.g. "https://app.example") the HTTP
// endpoint accepts in an Origin header besides loopback ones; a request
// from any other origin is refused with 403, the DNS-rebinding defence the
// spec asks servers for.
func (s *Server) WithAllowedOrigins(origins ...string) *Server {
	s.t.Helper()
	return s.configure("WithAllowedOrigins", func() error {
		s.httpCfg.origins = append(s.httpCfg.origins, origins...)
		return nil
	})
}

// WithAllowedHosts adds host names (without a port, e.g. "mock.internal"
// or "192.0.2.7") the HTTP endpoint accepts in a Host header besides
// loopback ones; a request for any other host is refused with 403 (the
// same DNS-rebinding defence). It is for a mock reached by a name that is
// not loopback, as `mcpmock serve --http … --allow-remote --allow-host`
// serves one; a test on srv.URL() never needs it.
func (s *Server) WithAllowedHosts(hosts ...string) *Server {
	s.t.Helper()
	return s.configure("WithAllowedHosts", func() error {
		for _, h := range hosts {
			name := strings.Trim(h, "[]")
			ipv6 := strings.Contains(name, ":") && net.ParseIP(name) != nil
			if name == "" || strings.ContainsAny(name, "/ ") || strings.Contains(name, ":") && !ipv6 {
				return fmt.Errorf("host %q: want a host name or IP address without a port", h)
			}
			s.httpCfg.hosts = append(s.httpCfg.hosts, strings.ToLower(name))
		}
		return nil
	})
}

// DefaultSSEWriteTimeout is how long one SSE event waits for its client to
// read it, unless WithSSEWriteTimeout says otherwise.
const DefaultSSEWriteTimeout = 10 * time.Second

// WithSSEWriteTimeout sets how long one SSE event may wait for a client
// that does not read its stream (by default DefaultSSEWriteTimeout): past
// it the stream is cut, its events kept for Last-Event-ID, the journal
// says so, and the writer (a Broadcast to every session) goes on.
func (s *Server) WithSSEWriteTimeout(d time.Duration) *Server {
	s.t.Helper()
	return s.configure("WithSSEWriteTimeout", func() error {
		if d <= 0 {
			return fmt.Errorf("timeout %v is not positive", d)
		}
		s.httpCfg.sseWrite = d
		return nil
	})
}

// WithSSERetry makes every SSE stream of the HTTP endpoint start with a
// retry field of d: how long the client waits before it reconnects a
// stream that broke off.
func (s *Server) WithSSERetry(d time.Duration) *Server {
	s.t.Helper()
	return s.configure("WithSSERetry", func() error {
		if d <= 0 {
			return fmt.Errorf("retry %v is not positive", d)
		}
		s.httpCfg.retry = d
		return nil
	})
}
