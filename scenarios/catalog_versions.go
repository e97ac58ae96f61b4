package scenarios

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
)

// ---- version negotiation and era detection ----

func negotiateOlderVersion() Scenario {
	return Scenario{
		Name: "negotiate-older-version",
		Mistake: "The server makes no mistake: it speaks only 2025-03-26 and, as the spec says, answers initialize with that version although the client asked for a newer one. " +
			"It catches clients that insist on getting the version they asked for, although they support the older one.",
		Spec:   spec(latestHandshake, "basic/lifecycle#version-negotiation"),
		Server: func(base *mcptest.Server) *mcptest.Server { return base.WithProtocolVersions("2025-03-26") },
		Expect: Expectation{
			Description:   "the client accepts 2025-03-26, completes the handshake in it, its work gets results, and connect returns nil",
			DecisionPoint: "the client read the initialize result with 2025-03-26",
			Reached:       initializeAnswered,
			Check: func(o Outcome) error {
				if res, ok := initializeResult(o); ok && res.Get("result.protocolVersion").String() != "2025-03-26" {
					return gotf("initialize was answered with %s, not 2025-03-26", res.Get("result.protocolVersion").Raw)
				}
				return handshakeProceeds(o)
			},
		},
	}
}

func negotiateUnknownVersion() Scenario {
	return Scenario{
		Name: "negotiate-unknown-version",
		Mistake: "The server's stateless side speaks only " + unknownVersion + ", a version the client cannot know: server/discover and every request with per-request _meta get -32022 listing only that version (fault RejectProtocolVersionStateless). Its handshake side still works. " +
			"It catches clients that ignore -32022 and go on in their own version, or retry with a version the server did not list.",
		Spec: spec(latestStateless, "basic/versioning#version-negotiation"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(base, fault.RejectProtocolVersionStateless(unknownVersion))
		},
		Expect: Expectation{
			Description:   "after -32022 the client sends no stateless request in a version the server did not list; it falls back to initialize and completes the handshake, or gives up with an error",
			DecisionPoint: "the client got -32022 to a stateless request; not applicable to a client that initializes without probing",
			NotApplicable: handshakeOnly,
			Reached: func(o Outcome) error {
				if unsupported(o) == 0 {
					return notReachedf("the client sent no stateless request, so -32022 was never answered (%s)", sentWhat(o))
				}
				return nil
			},
			Check: func(o Outcome) error {
				var bad []string
				for _, m := range after(requests(o, ""), unsupported(o)) {
					if v := m.Get(metaVersionPath).String(); stateless(m) && v != unknownVersion {
						bad = append(bad, fmt.Sprintf("%s id %s in %s", m.Method, m.ID, v))
					}
				}
				if len(bad) > 0 {
					return gotf("after -32022 listed only %s the client sent %s", unknownVersion, strings.Join(bad, ", "))
				}
				if handshakeDone(o) || o.Err != nil {
					return nil
				}
				return gotf("no handshake, and connect returned nil; the client sent %s", methods(fromClient(o)))
			},
		},
	}
}

// unsupported returns the Seq of the server's first -32022, 0 if none.
func unsupported(o Outcome) int {
	for _, m := range o.Journal {
		if m.Direction == mcptest.FromServer && m.ErrorCode == -32022 {
			return m.Seq
		}
	}
	return 0
}

func discoverNeverAnswered() Scenario {
	return Scenario{
		Name: "discover-never-answered",
		Mistake: "A legacy server that never answers server/discover, as older servers ignore methods they do not know instead of answering -32601 (fault Hang). " +
			"It catches probing clients that wait for the probe forever instead of timing out and falling back to initialize, as the stdio transport says.",
		Spec: spec(latestStateless, "basic/transports/stdio#protocol-version-detection"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(legacy(base), fault.Hang("server/discover"))
		},
		Expect: Expectation{
			Description:   "the client gives up on server/discover after a reasonable wait, falls back to initialize, completes the handshake and its work gets results within its deadline; connect returns nil",
			DecisionPoint: "the client sent server/discover (which hangs); not applicable to a client that never probes",
			NotApplicable: func(o Outcome) string {
				if len(requests(o, "")) > 0 && len(requests(o, "server/discover")) == 0 {
					return "the client never probes with server/discover: it " + strings.TrimPrefix(sentWhat(o), "it ")
				}
				if o.OverHTTP && !faultsActed(o) {
					// A limit of the mock: a probe that belongs to no
					// session is answered by the HTTP front itself.
					return "over Streamable HTTP the mock answers a server/discover outside any session itself (-32601 with HTTP 400), so the hang cannot be played; this scenario is about the stdio transport's version detection"
				}
				return ""
			},
			Reached: serverSentAnyClient("server/discover"),
			Check:   handshakeProceeds,
		},
		Deadline: 10 * time.Second,
	}
}

// faultsActed reports whether any of the play's faults acted.
func faultsActed(o Outcome) bool {
	for _, h := range o.Faults {
		if h.Hits() > 0 {
			return true
		}
	}
	return false
}

// serverSentAnyClient is reached once the client sent a request of method.
func serverSentAnyClient(method string) func(o Outcome) error {
	return func(o Outcome) error {
		if len(requests(o, method)) == 0 {
			return notReachedf("the client never sent %s (%s)", method, sentWhat(o))
		}
		return nil
	}
}

func modernOnly() Scenario {
	return Scenario{
		Name: "modern-only",
		Mistake: "A server that speaks only 2026-07-28: server/discover succeeds, initialize is rejected naming the supported versions. " +
			"It catches clients that initialize anyway after a successful discover, and handshake-only clients that carry on after the rejection.",
		Spec: spec(latestStateless, "basic/transports/stdio#protocol-version-detection"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return base.WithProtocolVersions(mcptest.StatelessVersions()...)
		},
		Expect: Expectation{
			Description:   "the client goes stateless and its work gets results without ever sending initialize after discover succeeded; a handshake-only client instead fails with an error after initialize is rejected and sends nothing more",
			DecisionPoint: "the client's first request (a probe or initialize) was answered",
			Reached:       sentRequest,
			Check: func(o Outcome) error {
				for _, v := range o.Violations {
					if v.Rule == "stateless/no-initialize-after-discover" {
						return gotf("%s (id %s); the client sent %s", v.Detail, v.Message.ID, methods(fromClient(o)))
					}
				}
				if init := requests(o, "initialize"); len(init) > 0 {
					res, _ := responseTo(o, init[0])
					later := after(fromClient(o), res.Seq)
					switch {
					case res.Seq == 0:
						return gotf("initialize (id %s) was never answered", init[0].ID)
					case len(later) > 0 && !workAnswered(o):
						return gotf("after initialize was rejected the client sent %s", methods(later))
					case len(later) == 0 && o.Err == nil:
						return gotf("initialize was rejected, and connect returned nil")
					case len(later) == 0:
						return nil
					}
				}
				return sessionProceeds(o)
			},
		},
	}
}
