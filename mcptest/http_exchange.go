package mcptest

import (
	"bytes"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"mime"
	"net/http"
	"strings"
	"time"
)

// HTTPExchange is the HTTP side of a message that crossed Streamable HTTP:
// the request that carried it (client messages) or the response that
// carried it (server messages). Message.HTTP is nil for messages of Dial
// and Serve.
type HTTPExchange struct {
	// Method is the HTTP method of the request: POST, or GET for a
	// message the mock sent on a standalone or resumed SSE stream.
	Method string
	// Status is the status code of the response; 0 on a client message.
	Status int
	// ContentType is the media type of the request body (client messages)
	// or of the response (server messages): application/json or text/event-stream.
	ContentType string
	// Accept is the request's Accept header (client messages).
	Accept string
	// SessionID is the request's Mcp-Session-Id header (client messages) or
	// the one the response carried (server messages).
	SessionID string
	// ProtocolVersion is the request's Mcp-Protocol-Version header.
	ProtocolVersion string
	// MCPMethod and MCPName are the request's Mcp-Method and Mcp-Name headers.
	MCPMethod, MCPName string
	// EventID is the SSE event id the message went out with, "" for a JSON reply.
	EventID string
	// Cancelled marks a request of the stateless era (2026-07-28) whose
	// response the client closed before the reply went out: on Streamable
	// HTTP that is the spec's cancellation of the request ("Closing the SSE
	// response stream is the cancellation signal"), and the mock treated it
	// so (no reply). AssertCancelled counts it.
	Cancelled bool
}

// summary is a one-line summary, e.g. "POST 200 text/event-stream id=1-2",
// as the transcript prints it beside the message.
func (x *HTTPExchange) summary() string {
	if x == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(x.Method)
	if x.Status != 0 {
		fmt.Fprintf(&b, " %d", x.Status)
	}
	if x.ContentType != "" {
		b.WriteString(" " + x.ContentType)
	}
	if x.EventID != "" {
		b.WriteString(" event=" + x.EventID)
	}
	if x.SessionID != "" {
		b.WriteString(" session=" + shorten(x.SessionID, 8))
	}
	if x.ProtocolVersion != "" {
		b.WriteString(" version=" + x.ProtocolVersion)
	}
	if x.MCPMethod != "" {
		b.WriteString(" mcp-method=" + x.MCPMethod)
	}
	if x.MCPName != "" {
		b.WriteString(" mcp-name=" + x.MCPName)
	}
	if x.Cancelled {
		b.WriteString(" cancelled (the client closed the response)")
	}
	return b.String()
}

// exchangeOf reads the headers of an HTTP request that matter to MCP.
func exchangeOf(r *http.Request) *HTTPExchange {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return &HTTPExchange{
		Method:          r.Method,
		ContentType:     ct,
		Accept:          strings.Join(r.Header.Values("Accept"), ", "),
		SessionID:       r.Header.Get(spec.HeaderSessionID),
		ProtocolVersion: r.Header.Get(spec.HeaderProtocolVersion),
		MCPMethod:       r.Header.Get(spec.HeaderMethod),
		MCPName:         r.Header.Get(spec.HeaderName),
	}
}

// describeBody names what a journaled client message is, for a violation's detail.
func describeBody(m Message) string {
	if m.Method != "" {
		return m.Method
	}
	return m.Kind.String()
}

// journalHTTP journals what the client sent in one HTTP request that the
// mock answers itself: the body as a message, or, without one, a note.
func journalHTTP(sess *Session, body []byte, x *HTTPExchange) Message {
	var m Message
	if len(bytes.TrimSpace(body)) > 0 {
		m = decode(body).msg
	} else {
		m = Message{Kind: KindInvalid, Problem: x.Method + " request without a JSON-RPC body"}
	}
	m.SessionNumber, m.Direction, m.Time, m.HTTP = sess.n, FromClient, time.Now(), x
	return sess.srv.journal.record(m)
}

// note records the HTTP exchange of a message the mock sent.
func (c *httpConn) note(seq int, x *HTTPExchange) {
	if seq > 0 {
		c.front.srv.journal.amend(seq, func(j *Message) { j.HTTP = x })
	}
}
