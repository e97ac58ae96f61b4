package scenarios

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
)

// spec is the address of a section of a version of the specification.
func spec(version, section string) string {
	return "https://modelcontextprotocol.io/specification/" + version + "/" + section
}

const (
	latestHandshake = "2025-11-25"
	latestStateless = "2026-07-28"
	// unknownVersion is a protocol version no client knows.
	unknownVersion = "2099-01-01"
	// bogusVersion is a protocol version that never existed.
	bogusVersion = "1999-01-01"
)

// GiftGen returns the healthy server the scenarios start from unless a
// run says WithServer, for the test t: the GiftGen backend
// ("gift-genius-backend" 0.2.0) with the tool suggest_gifts ({"age":
// integer}, answered "a board game"), a gift catalog of five resources
// listed two a page, and the prompt gift_idea. It speaks both eras, as a
// new mcptest.Server does; the scenarios add their mistake to it.
func GiftGen(t mcptest.TB) *mcptest.Server {
	t.Helper()
	return mcptest.NewServer(t).
		WithOptions(mcptest.Options{Name: "gift-genius-backend", Version: "0.2.0"}).
		WithOptions(mcptest.Options{Instructions: "Suggest gifts."}).
		WithOptions(mcptest.Options{PageSize: 2}).
		WithTools(mcptest.NewTool("suggest_gifts").
			WithDescription("Suggests gift ideas for a recipient").
			WithInputSchema(ageSchema).
			WhenArgs(`{"age":8}`, mcptest.TextResult("a kite")).
			ReturnsText("a board game")).
		WithResources(giftCatalog()...).
		WithPrompts(mcptest.NewPrompt("gift_idea").
			WithDescription("Ask for a gift idea").
			WithArgument("occasion", "what the gift is for", false).
			ReturnsText("Suggest a gift"))
}

// ageSchema is suggest_gifts' input schema.
const ageSchema = `{"type":"object","properties":{"age":{"type":"integer"}},"required":["age"]}`

func giftCatalog() []*mcptest.Resource {
	gifts := []string{"a kite", "a scarf", "a board game", "a book", "a puzzle"}
	out := make([]*mcptest.Resource, len(gifts))
	for i, g := range gifts {
		uri := fmt.Sprintf("gifts://catalog/%d", i+1)
		out[i] = mcptest.NewResource(uri, fmt.Sprintf("Gift %d", i+1)).WithMIMEType("text/plain").ReturnsText(g)
	}
	return out
}

// legacy narrows a server to the handshake era: server/discover gets
// -32601 and probing clients fall back to initialize.
func legacy(srv *mcptest.Server) *mcptest.Server {
	return srv.WithProtocolVersions(mcptest.HandshakeVersions()...)
}

// faulty adds the scenario's faults, each optional: whether one acts is
// what the decision point judges (a client that never gets there is not
// reached), not a failure of its own.
func faulty(srv *mcptest.Server, faults ...mcptest.Fault) *mcptest.Server {
	for _, f := range faults {
		srv.WithFaults(f.Optional())
	}
	return srv
}

// All returns the catalog, in a stable order: the healthy servers first,
// then the handshake and capability mistakes, version negotiation, era
// detection, framing, failures in the middle of a call, and last the
// Streamable HTTP scenarios of HTTP (not applicable to a client that never
// asks for Endpoint.URL). Each call returns fresh values.
func All() []Scenario {
	return append(withBases([]Scenario{
		giftgenHandshake(),
		giftgenStateless(),
		initializeResultMalformed(),
		protocolVersionUnknown(),
		toolsCapabilityMissing(),
		undeclaredMethods(),
		notifyBeforeInitialized(),
		toolsSchemaChangedQuietly(),
		capabilitiesLie(),
		capabilitiesDifferByEra(),
		capabilitiesUnknownKeys(),
		capabilitiesPerSession(),
		toolsListChanged(),
		negotiateOlderVersion(),
		negotiateUnknownVersion(),
		discoverNeverAnswered(),
		modernOnly(),
		stdoutBanner(),
		wrongIDType(),
		disconnectMidCall(),
		slowToolTimeout(),
		elicitationRoundTrip(),
		loopingCursor(),
	}), append(append(HTTP(), Auth()...), Suite()...)...)
}

// Names returns the names of the catalog's scenarios, in catalog order.
func Names() []string {
	var out []string
	for _, s := range All() {
		out = append(out, s.Name)
	}
	return out
}

// Lookup returns the scenario of All with the given name.
func Lookup(name string) (Scenario, bool) {
	all := All()
	i := slices.IndexFunc(all, func(s Scenario) bool { return s.Name == name })
	if i < 0 {
		return Scenario{}, false
	}
	return all[i], true
}

// ---- the healthy server in each era ----

func giftgenHandshake() Scenario {
	return Scenario{
		Name: "giftgen-handshake",
		Mistake: "The app's healthy server, which makes no mistake: it speaks only the handshake era (2024-11-05 to 2025-11-25), so server/discover is answered -32601. " +
			"It catches clients that cannot fall back from the stateless probe, or that get the handshake wrong (no notifications/initialized, requests before it).",
		Spec:   spec(latestHandshake, "basic/lifecycle#initialization"),
		Server: legacy,
		Expect: Expectation{
			Description:   "the client completes the handshake (initialize, then notifications/initialized), its work gets results (e.g. tools/list), it breaks no protocol rule, and connect returns nil",
			DecisionPoint: "the client sent its first request (a probe or initialize)",
			Reached:       sentRequest,
			Check:         handshakeProceeds,
		},
	}
}

func giftgenStateless() Scenario {
	return Scenario{
		Name: "giftgen-stateless",
		Mistake: "The app's healthy server, which makes no mistake: it speaks both eras and answers server/discover as a 2026-07-28 server. " +
			"It catches clients that probe but do not speak the current, stateless protocol: no per-request _meta, or an initialize after a successful discover.",
		Spec:   spec(latestStateless, "basic/transports/stdio#protocol-version-detection"),
		Server: func(base *mcptest.Server) *mcptest.Server { return base },
		Expect: Expectation{
			Description:   "the client goes stateless: every request carries the per-request _meta (no initialize), its work gets results, no rule is broken, and connect returns nil",
			DecisionPoint: "the client sent its first request; not applicable to a client that initializes without probing (handshake era only)",
			NotApplicable: handshakeOnly,
			Reached:       sentRequest,
			Check: func(o Outcome) error {
				if init := requests(o, "initialize"); len(init) > 0 {
					return gotf("the client sent initialize, so the session is in the handshake era, not the stateless one; it sent %s", methods(fromClient(o)))
				}
				var plain []string
				for _, m := range requests(o, "") {
					if !stateless(m) && m.Method != "server/discover" {
						plain = append(plain, m.Method+" id "+m.ID)
					}
				}
				if len(plain) > 0 {
					return gotf("requests without the per-request protocol version in _meta: %s", strings.Join(plain, ", "))
				}
				return sessionProceeds(o)
			},
		},
	}
}

// ---- the classic handshake and capability mistakes ----

func initializeResultMalformed() Scenario {
	return Scenario{
		Name: "initialize-result-malformed",
		Mistake: "The initialize result is malformed: its capabilities are the JSON value true instead of an object (fault RespondCapabilities). " +
			"It catches clients that accept any result (and then guess what the server can do) or that crash decoding it.",
		Spec: spec(latestHandshake, "basic/lifecycle#initialization"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(legacy(base), fault.RespondCapabilities(`true`))
		},
		Expect: Expectation{
			Description:   "connect fails with an error and nothing else is sent after the malformed initialize result (no notifications/initialized, no tools/list)",
			DecisionPoint: "the client read the initialize result",
			Reached:       initializeAnswered,
			Check:         func(o Outcome) error { return rejectsInitializeResult(o) },
		},
	}
}

func protocolVersionUnknown() Scenario {
	return Scenario{
		Name: "protocol-version-unknown",
		Mistake: "The server ignores the protocolVersion the client asked for and answers initialize with " + bogusVersion + ", a version that never existed (fault RespondProtocolVersion). " +
			"It catches clients that do not check the negotiated version and go on talking a protocol the server may not speak.",
		Spec: spec(latestHandshake, "basic/lifecycle#version-negotiation"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(legacy(base), fault.RespondProtocolVersion(bogusVersion))
		},
		Expect: Expectation{
			Description:   "connect fails with an unsupported-version error (mentioning the version) and nothing else is sent after the initialize result",
			DecisionPoint: "the client read the initialize result",
			Reached:       initializeAnswered,
			Check:         func(o Outcome) error { return rejectsInitializeResult(o, "version", bogusVersion) },
		},
	}
}

func toolsCapabilityMissing() Scenario {
	return Scenario{
		Name: "tools-capability-missing",
		Mistake: "The server forgets to declare the tools capability (in the initialize and server/discover results) although it serves tools (fault OmitCapability). " +
			"It catches clients that call tools/list without checking the capability: the classic \"the app shows no tools\", seen from the client's side.",
		Spec: spec(latestHandshake, "basic/lifecycle#capability-negotiation"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(base, fault.OmitCapability("tools"))
		},
		Expect: Expectation{
			Description:   "tools/list and tools/call are never called, since the server did not declare tools",
			DecisionPoint: "the client read the server's capabilities (an initialize or server/discover result)",
			Reached:       capabilitiesSeen,
			Check: func(o Outcome) error {
				if calls := append(requests(o, "tools/list"), requests(o, "tools/call")...); len(calls) > 0 {
					return gotf("the client sent %s although the server declared no tools capability", methods(calls))
				}
				return nil
			},
		},
	}
}

func undeclaredMethods() Scenario {
	return Scenario{
		Name: "undeclared-methods",
		Mistake: "This one checks the client: the server declares only the tools capability, although it also serves whatever else the app's server has (GiftGen: resources and prompts). " +
			"It catches clients that call methods of capabilities the server never declared (resources/list, prompts/list, logging/setLevel, completion/complete).",
		Spec: spec(latestHandshake, "basic/lifecycle#capability-negotiation"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return base.WithCapabilities(`{"tools":{"listChanged":true}}`)
		},
		Expect: Expectation{
			Description:   "the client calls only methods of the capabilities the server declared (here tools): no resources/*, prompts/*, logging/setLevel or completion/complete",
			DecisionPoint: "the client read the server's capabilities (an initialize or server/discover result)",
			Reached:       capabilitiesSeen,
			Check: func(o Outcome) error {
				var bad []string
				for _, v := range o.Violations {
					if v.Rule == "capabilities/undeclared-method" {
						bad = append(bad, v.Detail)
					}
				}
				if len(bad) > 0 {
					return gotf("%s", strings.Join(bad, "; "))
				}
				return nil
			},
		},
	}
}

func notifyBeforeInitialized() Scenario {
	return Scenario{
		Name: "notify-before-initialized",
		Mistake: "The server talks before the handshake is over: right after its initialize result, before the client can have sent notifications/initialized, it sends notifications/tools/list_changed (fault NotifyAfterInitializeResult). " +
			"It catches clients that treat an early notification as fatal, or deadlock on it.",
		Spec: spec(latestHandshake, "basic/lifecycle#initialization"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(legacy(base), fault.NotifyAfterInitializeResult("notifications/tools/list_changed", nil))
		},
		Expect: Expectation{
			Description:   "the early notification is tolerated and the session proceeds: notifications/initialized is sent, the client's work gets results, and connect returns nil",
			DecisionPoint: "the early notifications/tools/list_changed reached the client (right after the initialize result)",
			Reached:       serverSentAny("notifications/tools/list_changed", "the client never sent initialize, so the early notification was never sent"),
			Check:         handshakeProceeds,
		},
	}
}

func toolsSchemaChangedQuietly() Scenario {
	return Scenario{
		Name: "tools-schema-changed-quietly",
		Mistake: "The server changes a tool's input schema while the client is connected and sends no notifications/tools/list_changed: the client's first tools/call, made with the arguments the listed schema allowed, is rejected with -32602 (fault ReplaceWithJSONRPCError). " +
			"It catches clients that trust a stale tool list forever and repeat the rejected call instead of refreshing it.",
		Spec: spec(latestHandshake, "server/tools#list-changed-notification"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(base, fault.ReplaceWithJSONRPCError("tools/call", -32602,
				"Invalid params: the tool's input schema changed; list the tools again", nil).Nth(1))
		},
		Expect: Expectation{
			Description:   "after its first tools/call is rejected with -32602 (the schema changed and nobody said so), the client lists the tools again before it repeats the call with the same arguments",
			DecisionPoint: "the client's first tools/call was rejected with -32602",
			Reached: func(o Outcome) error {
				if _, ok := rejectedCall(o); !ok {
					return notReachedf("no tools/call was rejected with -32602: the client never called a tool (%s)", sentWhat(o))
				}
				return nil
			},
			After: &Reaction{
				Event: mcptest.Matcher{Description: "the server rejects tools/call with -32602", Match: func(m mcptest.Message) bool {
					return m.Direction == mcptest.FromServer && m.Method == "tools/call" && m.ErrorCode == -32602
				}},
				Then: Always(mcptest.Matcher{Description: "the client sends tools/list or tools/call", Match: func(m mcptest.Message) bool {
					return m.Direction == mcptest.FromClient && m.IsRequest() && (m.Method == "tools/list" || m.Method == "tools/call")
				}}),
				Window: time.Second,
			},
			Check: func(o Outcome) error {
				rejected, _ := rejectedCall(o)
				relist := after(requests(o, "tools/list"), rejected.Seq)
				args := rejected.Get("params.arguments").Raw
				name := rejected.Get("params.name").String()
				for _, c := range after(requests(o, "tools/call"), rejected.Seq) {
					if len(relist) > 0 && relist[0].Seq < c.Seq {
						break
					}
					if c.Get("params.name").String() == name && c.Get("params.arguments").Raw == args {
						return gotf("the client called %s again with the same arguments %s (id %s) without listing the tools first", name, args, c.ID)
					}
				}
				if len(relist) == 0 {
					return gotf("the client never listed the tools again after its call (id %s) was rejected with -32602; it sent %s", rejected.ID, methods(fromClient(o)))
				}
				return nil
			},
		},
	}
}

// rejectedCall returns the client's first tools/call that was answered -32602.
func rejectedCall(o Outcome) (mcptest.Message, bool) {
	for _, c := range requests(o, "tools/call") {
		if res, ok := responseTo(o, c); ok && res.ErrorCode == -32602 {
			return c, true
		}
	}
	return mcptest.Message{}, false
}

func capabilitiesLie() Scenario {
	return Scenario{
		Name: "capabilities-lie",
		Mistake: "The server's capabilities lie: it declares tools but nothing is behind them, so tools/list (and every tools method) is answered -32601, method not found (fault DeclareUnservedCapability). " +
			"It catches clients that crash on the error, retry it in a loop, or call a tool they could not list.",
		Spec: spec(latestHandshake, "basic/lifecycle#capability-negotiation"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(base, fault.DeclareUnservedCapability("tools"))
		},
		Expect: Expectation{
			Description:   "the client copes with the -32601 to tools/list: it calls no tool it could not list, sends tools/list at most twice, and returns",
			DecisionPoint: "the client's tools/list was answered -32601",
			Reached: func(o Outcome) error {
				for _, r := range requests(o, "tools/list") {
					if res, ok := responseTo(o, r); ok && res.ErrorCode == -32601 {
						return nil
					}
				}
				return notReachedf("the client never listed the tools (%s)", sentWhat(o))
			},
			Check: func(o Outcome) error {
				if calls := requests(o, "tools/call"); len(calls) > 0 {
					return gotf("the client called tools (%s) although tools/list failed", ids(calls))
				}
				if lists := requests(o, "tools/list"); len(lists) > 2 {
					return gotf("the client sent tools/list %d times", len(lists))
				}
				return nil
			},
		},
	}
}

// listChangedWindow is how long Play waits, after the connect function
// returned, for a client to list the tools again after
// notifications/tools/list_changed.
const listChangedWindow = 2 * time.Second

func toolsListChanged() Scenario {
	return Scenario{
		Name: "tools-list-changed",
		Mistake: "The server makes no mistake: right after answering the first tools/list, it sends notifications/tools/list_changed, as it must when its tools change, having declared tools.listChanged (fault ListChangedAfter). " +
			"It catches clients that ignore the notification and keep using a tool list the server said is out of date.",
		Spec: spec(latestHandshake, "server/tools#list-changed-notification"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(legacy(base), fault.ListChangedAfter("tools/list", "notifications/tools/list_changed"))
		},
		Expect: Expectation{
			Description:   fmt.Sprintf("the client lists the tools again after notifications/tools/list_changed, before its session ends (Play waits up to %v after connect returned, for clients that re-list from their own goroutine)", listChangedWindow),
			DecisionPoint: "notifications/tools/list_changed reached the client (it is sent after the first tools/list), and the client did not close the session right after it without sending anything",
			Reached: func(o Outcome) error {
				notes := serverSent(o, "notifications/tools/list_changed")
				if len(notes) == 0 {
					return notReachedf("the client never listed the tools, so the notification was never sent (%s)", sentWhat(o))
				}
				if len(after(requests(o, "tools/list"), notes[0].Seq)) == 0 {
					if closed := closedEarly(o, notes[0]); closed != "" {
						return notReachedf("%s, before re-listing: a client that re-lists from a goroutine of its own lost the race with its own close (keep the session open until the re-list; Play waits up to %v for it while the session is open)", closed, listChangedWindow)
					}
				}
				return nil
			},
			After: &Reaction{
				Event:  mcptest.ServerSent("notifications/tools/list_changed"),
				Then:   Always(mcptest.ClientSent("tools/list")),
				Window: listChangedWindow,
			},
			Check: func(o Outcome) error {
				notes := serverSent(o, "notifications/tools/list_changed")
				if len(after(requests(o, "tools/list"), notes[0].Seq)) == 0 {
					return gotf("after notifications/tools/list_changed the client sent %s, but no tools/list", methods(after(fromClient(o), notes[0].Seq)))
				}
				return nil
			},
		},
	}
}
