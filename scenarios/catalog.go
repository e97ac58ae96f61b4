package scenarios

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/tidwall/gjson"
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
	return append([]Scenario{
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
	}, append(HTTP(), Auth()...)...)
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

// ---- framing and failures in the middle of a call ----

func stdoutBanner() Scenario {
	return Scenario{
		Name: "stdout-banner",
		Mistake: "The server prints a banner line that is not JSON, naming itself (GiftGen's: \"gift-genius-backend 0.2.0 listening on stdio\"), on stdout before its first message (fault Banner). " +
			"It catches clients that drop the connection on one bad line instead of skipping it.",
		Spec: spec(latestHandshake, "basic/transports#stdio"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			name, version := base.ServerInfo()
			return faulty(base, fault.Banner(strings.TrimSpace(name+" "+version)+" listening on stdio"))
		},
		Expect: Expectation{
			Description:   "the client skips the non-JSON line and the session proceeds: its work gets results and connect returns nil",
			DecisionPoint: "the banner and the server's first message reached the client (it sent a request)",
			Reached:       sentRequest,
			Check:         sessionProceeds,
		},
	}
}

func wrongIDType() Scenario {
	return Scenario{
		Name: "wrong-id-type",
		Mistake: "The server answers tools/call with the right id in the wrong type (the string \"3\" for the integer 3, or the reverse), which JSON-RPC does not treat as the same id (fault FlipIDType). " +
			"It catches clients that take the stray reply for theirs, and clients that hang forever waiting for a reply that will never match.",
		Spec: spec(latestHandshake, "basic#responses"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(base, fault.FlipIDType("tools/call"))
		},
		Expect: Expectation{
			Description:   "the reply with the mistyped id is not taken for the call's reply: the call fails when the client's deadline ends, and connect returns an error",
			DecisionPoint: "the client called a tool and got the reply with the mistyped id",
			Reached:       calledTool,
			Check: func(o Outcome) error {
				if o.Err == nil {
					return gotf("connect returned nil: the client took the reply with the mistyped id for the reply to its call")
				}
				return nil
			},
		},
		Deadline: time.Second,
	}
}

func disconnectMidCall() Scenario {
	return Scenario{
		Name: "disconnect-mid-call",
		Mistake: "The server closes the connection when tools/call arrives, without answering: a crash in the middle of a call (fault CloseBefore). " +
			"It catches clients whose pending call never notices the closed connection and waits for a reply until its own timeout, or forever.",
		Spec: spec(latestHandshake, "basic/lifecycle#shutdown"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(base, fault.CloseBefore("tools/call"))
		},
		Expect: Expectation{
			Description:   "the pending call fails at once with an error (end of file), and connect returns well before its deadline",
			DecisionPoint: "the client called a tool and the connection closed under the call",
			Reached:       calledTool,
			Check: func(o Outcome) error {
				if o.Err == nil {
					return gotf("connect returned nil although the connection closed in the middle of the call")
				}
				if o.Elapsed >= o.Deadline/2 {
					return gotf("connect returned %s only after %v, with a deadline of %v: the client waited for its timeout instead of noticing the closed connection", errText(o.Err), o.Elapsed.Round(time.Millisecond), o.Deadline)
				}
				return nil
			},
		},
		Deadline: 4 * time.Second,
	}
}

func slowToolTimeout() Scenario {
	return Scenario{
		Name: "slow-tool-timeout",
		Mistake: "The server takes an hour to answer tools/call, far longer than the client is willing to wait (fault Delay). " +
			"It catches clients that give up without telling the server (no notifications/cancelled), leaving it to work for nothing, and clients that never give up.",
		Spec: spec(latestHandshake, "basic/utilities/cancellation"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(base, fault.Delay("tools/call", time.Hour))
		},
		Expect: Expectation{
			Description:   "when its deadline ends the client gives up on the call, sends notifications/cancelled with the call's requestId before its session ends (Play waits up to 1s after connect returned, for clients that send it from their own goroutine), and connect returns an error",
			DecisionPoint: "the client called a tool (the call never ends)",
			Reached:       calledTool,
			After: &Reaction{ // a client may send the cancellation from a goroutine of its own
				Event: mcptest.ClientSent("tools/call"),
				Then: func(call mcptest.Message) mcptest.Matcher {
					return mcptest.Matcher{Description: "the client cancels tools/call id " + call.ID, Match: func(m mcptest.Message) bool {
						return m.Direction == mcptest.FromClient && m.IsNotification() && m.Method == "notifications/cancelled" &&
							m.Get("params.requestId").Raw == call.ID
					}}
				},
				Window: time.Second,
			},
			Check: func(o Outcome) error {
				cancelled := map[string]bool{}
				for _, n := range notifications(o, "notifications/cancelled") {
					cancelled[n.Get("params.requestId").Raw] = true
				}
				var problems []string
				for _, c := range requests(o, "tools/call") {
					if !cancelled[c.ID] {
						problem := fmt.Sprintf("no notifications/cancelled for tools/call id %s", c.ID)
						if closed := closedEarly(o, c); closed != "" {
							problem += " (" + closed + ": a notifications/cancelled sent from a goroutine of the client's own races that close)"
						}
						problems = append(problems, problem)
					}
				}
				if o.Err == nil {
					problems = append(problems, "connect returned nil")
				}
				if len(problems) > 0 {
					return gotf("%s; the client sent %s", strings.Join(problems, "; "), methods(fromClient(o)))
				}
				return nil
			},
		},
		Deadline: time.Second,
	}
}

// confirmSchema is what elicitation-round-trip asks the user for.
const confirmSchema = `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`

func elicitationRoundTrip() Scenario {
	return Scenario{
		Name: "elicitation-round-trip",
		Mistake: "Every tool needs the user to confirm before it answers: in the stateless era the first call gets an input_required result with an elicitation and a requestState; in the handshake era the server sends elicitation/create in the middle of the call. " +
			"It catches clients that mishandle the multi-round-trip retry (same id, requestState changed or dropped, an input left unanswered) or never finish the call.",
		Spec: spec(latestStateless, "basic/patterns/mrtr"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return base.Handle("tools/call", confirmFirst(base))
		},
		Expect: Expectation{
			Description:   "the client answers the elicitation and the call completes: in the stateless era it retries with a new id, requestState echoed unchanged and a response for every input (handshake era: it answers elicitation/create); a client without the elicitation capability gets -32021 (-32603 in the handshake era, which has no such code) and reports it",
			DecisionPoint: "the client called a tool and was asked for input (input_required, elicitation/create, or -32021 / -32603 for lacking the capability)",
			Reached:       calledTool,
			Check: func(o Outcome) error {
				var mrtr []mcptest.Violation
				for _, v := range o.Violations {
					if strings.HasPrefix(string(v.Rule), "mrtr/") || v.Rule == "jsonrpc/id-unique" {
						mrtr = append(mrtr, v)
					}
				}
				if len(mrtr) > 0 {
					return gotf("the retry broke %s", violationList(mrtr))
				}
				for _, c := range requests(o, "tools/call") {
					res, ok := responseTo(o, c)
					switch {
					case !ok:
					case res.Kind == mcptest.KindResult && res.Get("result.resultType").String() != "input_required":
						return nil
					case missingCapability(res):
						if o.Err == nil {
							return gotf("the call got %d (the client lacks the elicitation capability), but connect returned nil", res.ErrorCode)
						}
						return nil
					}
				}
				for _, r := range serverSent(o, "elicitation/create") {
					for _, m := range o.Journal {
						if m.Direction == mcptest.FromClient && m.IsResponse() && m.ID == r.ID && m.Kind == mcptest.KindError {
							return gotf("the client answered elicitation/create with error %d %q", m.ErrorCode, m.Get("error.message").String())
						}
					}
				}
				return gotf("the tool call never completed; the client sent %s; connect returned %s", methods(fromClient(o)), errText(o.Err))
			},
		},
	}
}

// missingCapability reports whether res is the answer to a client that
// lacks the elicitation capability: -32021, or in the handshake era -32603
// with data.requiredCapabilities.
func missingCapability(res mcptest.Message) bool {
	return res.ErrorCode == -32021 ||
		res.ErrorCode == -32603 && res.Get("error.data.requiredCapabilities").IsObject()
}

// confirmFirst answers every tools/call after the user confirmed, whatever
// the tool: a stateless-era call gets input_required with an elicitation
// (the retry is answered), a handshake-era call sends elicitation/create
// first. A client that did not declare elicitation gets -32021 (-32603 in
// the handshake era).
func confirmFirst(srv *mcptest.Server) mcptest.Handler {
	// missing is the answer to a client that did not declare elicitation:
	// -32021 with data.requiredCapabilities in the stateless era; the
	// handshake era has no such code, so -32603 (internal error) with the
	// same data, as mcptest answers a RequiresInput tool. data is JSON
	// text, so a json.RawMessage: a Go string would be a JSON string.
	missing := func(statelessEra bool) mcptest.Reply {
		data := json.RawMessage(`{"requiredCapabilities":{"elicitation":{}}}`)
		if statelessEra {
			return mcptest.JSONRPCError(-32021, "Missing required client capability: elicitation", data)
		}
		return mcptest.JSONRPCError(-32603, "Missing required client capability: elicitation", data)
	}
	answer := func(name string, resp gjson.Result) mcptest.Reply {
		if resp.Get("action").String() != "accept" {
			return mcptest.ToolErrorResult("not confirmed")
		}
		return mcptest.TextResult(name + ": done, as confirmed")
	}
	return func(ctx context.Context, req *mcptest.Request) mcptest.Reply {
		name := req.Message.Get("params.name").String()
		if stateless(req.Message) {
			if r := req.InputResponse("confirm"); r.Exists() {
				return answer(name, r)
			}
			if !req.Message.Get(metaCapsPath + ".elicitation").Exists() {
				return missing(true)
			}
			return mcptest.InputRequired("confirm-"+req.Message.ID, confirmInput())
		}
		if !initCaps(srv, req.Session).Get("elicitation").Exists() {
			return missing(false)
		}
		reply, err := req.Session.SendRequest(ctx, "elicitation/create", map[string]any{
			"message": "Please confirm the call of " + name, "requestedSchema": json.RawMessage(confirmSchema)})
		if err != nil {
			return mcptest.JSONRPCError(-32603, "asking the client to confirm: "+err.Error(), nil)
		}
		if reply.Kind == mcptest.KindError {
			return mcptest.JSONRPCError(-32603, "the client answered elicitation/create with an error", nil)
		}
		return answer(name, reply.Get("result"))
	}
}

func confirmInput() mcptest.InputRequest {
	return mcptest.ElicitInput("confirm", "Please confirm the call", confirmSchema)
}

// initCaps returns the capabilities the client declared in the
// session's initialize.
func initCaps(srv *mcptest.Server, sess *mcptest.Session) gjson.Result {
	for _, m := range srv.Journal().All().InSession(sess.Number()) {
		if m.Direction == mcptest.FromClient && m.IsRequest() && m.Method == "initialize" {
			return m.Get("params.capabilities")
		}
	}
	return gjson.Result{}
}

// maxPages is how many requests of one list a correct client sends
// against a looping cursor.
const maxPages = 10

func loopingCursor() Scenario {
	return Scenario{
		Name: "looping-cursor",
		Mistake: "The server's paginated lists loop: every page of tools/list and resources/list has a nextCursor pointing back at the first page (fault LoopingCursor). " +
			"It catches clients that follow nextCursor blindly and page forever (auto-paging iterators included).",
		Spec: spec(latestHandshake, "server/utilities/pagination"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(base, fault.LoopingCursor("tools/list"), fault.LoopingCursor("resources/list"))
		},
		Expect: Expectation{
			Description:   fmt.Sprintf("the client notices the repeated cursor and stops paging (at most %d requests of each list), and connect returns before its deadline", maxPages),
			DecisionPoint: "the client followed a nextCursor: it asked for a page after the first (a client that reads one page never meets the loop)",
			Reached: func(o Outcome) error {
				for _, method := range []string{"tools/list", "resources/list"} {
					for _, r := range requests(o, method) {
						if r.Get("params.cursor").Exists() {
							return nil
						}
					}
				}
				return notReachedf("the client never asked for a second page (%s)", sentWhat(o))
			},
			Check: func(o Outcome) error {
				for _, method := range []string{"tools/list", "resources/list"} {
					if n := len(requests(o, method)); n > maxPages {
						return gotf("the client sent %s %d times in %v, following the looping cursor", method, n, o.Elapsed.Round(time.Millisecond))
					}
				}
				if o.Elapsed >= o.Deadline {
					return gotf("connect returned %s only when its deadline ended (after %v)", errText(o.Err), o.Elapsed.Round(time.Millisecond))
				}
				return nil
			},
		},
	}
}
