package scenarios

import (
	"net/http"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
)

// HTTP returns the scenarios of the Streamable HTTP transport, for a
// client that reaches the server at Endpoint.URL: an expired session, an
// HTTP error page in place of one reply, a reply stream cut before the
// reply, and a server of the old HTTP+SSE transport only. They are the
// last four of All. Each is not applicable to a client that never asked
// for Endpoint.URL (a stdio client, which connects with Endpoint.Open), and judged
// for every client that did.
func HTTP() []Scenario {
	return withBases([]Scenario{httpSessionExpired(), httpErrorPage(), httpStreamDropped(), httpLegacyOnly()})
}

// overDial returns why an HTTP scenario does not apply: the client never
// asked for Endpoint.URL (and sent nothing over HTTP), so it does not use
// the HTTP transport. "" otherwise: a client that took the URL and then
// sent nothing is judged, and does not reach the decision point.
func overDial(o Outcome) string {
	if o.OverHTTP {
		return ""
	}
	for _, m := range o.Journal {
		if m.Direction == mcptest.FromClient && m.HTTP != nil {
			return ""
		}
	}
	return "the client never asked for Endpoint.URL: it does not use the Streamable HTTP transport, and this scenario is about HTTP"
}

// httpStatus returns the server's messages answered with HTTP status code.
func httpStatus(o Outcome, code int) mcptest.Messages {
	return o.Journal.From(mcptest.FromServer).Filter(func(m mcptest.Message) bool { return m.HTTP != nil && m.HTTP.Status == code })
}

func httpSessionExpired() Scenario {
	return Scenario{
		Name: "http-session-expired",
		Mistake: "The server forgets the session at the second request of the session (after initialize): that request and every later one with its Mcp-Session-Id get 404 Not Found, as after a restart (fault ExpireSession). " +
			"It catches clients that give up, or keep sending the dead session id, instead of starting a new session as the spec says they MUST.",
		Spec: spec(latestHandshake, "basic/transports#session-management"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(legacy(base), fault.ExpireSession().Nth(2))
		},
		Expect: Expectation{
			Description:   "after the 404 the client sends a new initialize without the old session id, and its work in the new session gets results",
			DecisionPoint: "the server answered a request of the session with 404",
			NotApplicable: overDial,
			Reached: func(o Outcome) error {
				if len(httpStatus(o, http.StatusNotFound)) == 0 {
					return notReachedf("the session never expired: the client sent no second request in it (%s)", sentWhat(o))
				}
				return nil
			},
			Check: func(o Outcome) error {
				expired := httpStatus(o, http.StatusNotFound)[0]
				for _, m := range requests(o, "initialize") {
					if m.SessionNumber > expired.SessionNumber {
						for _, r := range o.Journal.InSession(m.SessionNumber).From(mcptest.FromServer) {
							if r.Kind == mcptest.KindResult && r.Method != "initialize" {
								return nil
							}
						}
						return gotf("the client initialized a new session (%d) but got no result in it; connect returned %s", m.SessionNumber, errText(o.Err))
					}
				}
				return gotf("after the 404 (#%d) the client did not initialize a new session; connect returned %s", expired.Seq, errText(o.Err))
			},
		},
	}
}

func httpErrorPage() Scenario {
	return Scenario{
		Name: "http-error-page",
		Mistake: "A gateway in front of the server answers the first tools/call with 503 Service Unavailable and an HTML page instead of a JSON-RPC reply; the session itself is fine (fault HTTPStatus). " +
			"It catches clients that swallow the error or that take the session for dead and leave without ending it.",
		Spec: spec(latestHandshake, "basic/transports#sending-messages-to-the-server"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(legacy(base), fault.HTTPStatus("tools/call", http.StatusServiceUnavailable, "").Nth(1))
		},
		Expect: Expectation{
			Description:   "the 503 reaches the app as an error of its call (connect returns it, naming the status) and the client ends its session with DELETE",
			DecisionPoint: "a tools/call of the client was answered with the 503 page",
			NotApplicable: overDial,
			Reached: func(o Outcome) error {
				if len(httpStatus(o, http.StatusServiceUnavailable)) == 0 {
					return notReachedf("the client never called a tool over HTTP (%s)", sentWhat(o))
				}
				return nil
			},
			Check: func(o Outcome) error {
				page := httpStatus(o, http.StatusServiceUnavailable)[0]
				if o.Err == nil && len(o.Journal.InSession(page.SessionNumber).Requests("tools/call")) < 2 {
					return gotf("connect returned nil although its only tools/call was answered 503: the error never reached the app")
				}
				for _, v := range o.Violations {
					if v.Rule == "http/delete-on-close" && v.Message.SessionNumber == page.SessionNumber {
						return gotf("the client left session %d open after the 503 (no DELETE); connect returned %s", page.SessionNumber, errText(o.Err))
					}
				}
				return nil
			},
		},
	}
}

func httpStreamDropped() Scenario {
	return Scenario{
		Name: "http-stream-dropped",
		Mistake: "The server answers tools/call with an SSE stream that a proxy cuts right after it opened, before the reply; the events carry ids, so the stream can be resumed (fault DropStream). " +
			"It catches clients that lose the call instead of reconnecting with GET and Last-Event-ID, which makes the server replay the reply.",
		Spec: spec(latestHandshake, "basic/transports#resumability-and-redelivery"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(legacy(base), fault.DropStream("tools/call", 0, true))
		},
		Expect: Expectation{
			Description:   "the client resumes the stream with GET and Last-Event-ID, gets the replayed reply, and connect returns nil",
			DecisionPoint: "the stream of a tools/call of the client was cut before its reply",
			NotApplicable: overDial,
			Reached: func(o Outcome) error {
				for _, h := range o.Faults {
					if h.Hits() > 0 {
						return nil
					}
				}
				return notReachedf("the client never called a tool over HTTP (%s)", sentWhat(o))
			},
			Check: func(o Outcome) error {
				for _, r := range o.Journal.From(mcptest.FromServer).Responses("tools/call") {
					if r.HTTP != nil && r.HTTP.Method == http.MethodGet {
						if o.Err != nil {
							return gotf("the reply was replayed on the resumed stream, but connect returned %s", errText(o.Err))
						}
						return nil
					}
				}
				return gotf("the client never resumed the cut stream with Last-Event-ID, so the reply was never delivered; connect returned %s", errText(o.Err))
			},
		},
		Deadline: 4 * time.Second,
	}
}

func httpLegacyOnly() Scenario {
	return Scenario{
		Name: "http-legacy-sse-only",
		Mistake: "The server speaks only the HTTP+SSE transport of 2024-11-05: the Streamable HTTP initialize POST gets 405 Method Not Allowed. " +
			"It catches clients that give up instead of falling back, as the spec's backwards-compatibility section says, to a GET that opens the old transport's SSE stream.",
		Spec: spec(latestHandshake, "basic/transports#backwards-compatibility"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return legacy(base).WithHTTP(mcptest.HTTPOptions{LegacySSEOnly: true})
		},
		Expect: Expectation{
			Description:   "after the 405 the client GETs the endpoint, POSTs to the URL of its endpoint event, completes the handshake and its work gets results",
			DecisionPoint: "the server answered a POST of the client with 405",
			NotApplicable: overDial,
			Reached: func(o Outcome) error {
				if len(httpStatus(o, http.StatusMethodNotAllowed)) == 0 {
					return notReachedf("the client never POSTed to the endpoint (%s)", sentWhat(o))
				}
				return nil
			},
			Check: func(o Outcome) error {
				for _, r := range o.Journal.From(mcptest.FromServer).Responses("initialize") {
					if r.Kind == mcptest.KindResult {
						return sessionProceeds(o)
					}
				}
				return gotf("after the 405 the client never opened the HTTP+SSE transport (no initialize reached the server); connect returned %s", errText(o.Err))
			},
		},
	}
}
