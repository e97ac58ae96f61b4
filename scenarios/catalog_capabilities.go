package scenarios

import (
	"encoding/json"
	"strings"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/fault"
	"github.com/tidwall/gjson"
)

// The capability scenarios of the handshake lesson's mistake 7, premature
// "magic" around capabilities: capabilities that are not one honest
// declaration of what the server does. Capabilities declared for a
// feature the server does not serve are capabilities-lie (catalog.go).

// unknownCapabilityKeys are capability keys no client knows today, added
// to whatever the app's server declares: a feature of some future version
// of the spec, and a vendor's key (sjson paths: the dot is escaped).
var unknownCapabilityKeys = []struct {
	path  string
	value json.RawMessage
}{
	{"result.capabilities.wishlists", json.RawMessage(`{"listChanged":true}`)},
	{`result.capabilities.io\.example/giftWrapping`, json.RawMessage(`{"colors":["red","gold"]}`)},
}

func capabilitiesUnknownKeys() Scenario {
	return Scenario{
		Name: "capabilities-unknown-keys",
		Mistake: "The server makes no mistake: beside what it serves, it declares capabilities the client cannot know: \"wishlists\", a feature of some future version of the spec, and a vendor's \"io.example/giftWrapping\" (fault SetField). " +
			"This is how MCP grows (new features arrive as new keys, and old clients ignore them); it catches clients that reject, or crash on, a key they do not know.",
		Spec: spec(latestHandshake, "basic/lifecycle#capability-negotiation"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			var faults []mcptest.Fault
			for _, method := range []string{"initialize", "server/discover"} {
				for _, k := range unknownCapabilityKeys {
					faults = append(faults, fault.SetField(method, k.path, k.value))
				}
			}
			return faulty(base, faults...)
		},
		Expect: Expectation{
			Description:   "the client ignores the capability keys it does not know and proceeds: its work gets results, it breaks no protocol rule, and connect returns nil",
			DecisionPoint: "the client read the server's capabilities (an initialize or server/discover result)",
			Reached:       capabilitiesSeen,
			Check:         sessionProceeds,
		},
	}
}

func capabilitiesDifferByEra() Scenario {
	return Scenario{
		Name: "capabilities-differ-by-era",
		Mistake: "The server's two doors disagree: initialize declares tools, but server/discover, generated from another configuration, leaves them out (fault DeleteField). " +
			"It catches clients that do not take the capabilities of the era they speak: a stateless client that calls tools/list anyway, or one that mixes the two answers.",
		Spec: spec(latestStateless, "server/discover"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(base, fault.DeleteField("server/discover", "result.capabilities.tools"))
		},
		Expect: Expectation{
			Description:   "the client trusts the capabilities of its own era: stateless (after server/discover) it sends no tools/list or tools/call, since discover declared no tools; in the handshake era it completes the handshake and its work gets results; either way it returns before its deadline",
			DecisionPoint: "the client read the server's capabilities (an initialize or server/discover result)",
			Reached:       capabilitiesSeen,
			Check: func(o Outcome) error {
				if o.Elapsed >= o.Deadline {
					return gotf("connect returned %s only when its deadline ended; the client sent %s", errText(o.Err), methods(fromClient(o)))
				}
				if _, ok := initializeResult(o); ok {
					return handshakeProceeds(o)
				}
				res, _ := discoverResult(o)
				if calls := after(append(requests(o, "tools/list"), requests(o, "tools/call")...), res.Seq); len(calls) > 0 {
					return gotf("the client sent %s although server/discover declared no tools capability (only %s)", methods(calls), capabilityNames(res))
				}
				return nil
			},
		},
	}
}

func capabilitiesPerSession() Scenario {
	return Scenario{
		Name: "capabilities-per-session",
		Mistake: "The server generates its capabilities per session: the first session declares tools, but when the client reconnects, the second session's initialize and server/discover results leave them out (fault OmitCapability). " +
			"It catches clients that keep the capabilities of an earlier session (a cache across reconnects) instead of reading each session's own.",
		Spec: spec(latestHandshake, "basic/lifecycle#capability-negotiation"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(base, fault.OmitCapability("tools").InSession(2))
		},
		Expect: Expectation{
			Description:   "the client reads each session's capabilities afresh: in the second session it sends no tools/list or tools/call, since that session declared no tools",
			DecisionPoint: "the client reconnected and read the second session's capabilities (its initialize or server/discover result)",
			NotApplicable: func(o Outcome) string {
				if _, ok := capabilitiesIn(o, 1); ok && o.Sessions == 1 {
					return "the client opened one session and never reconnected, so it never met a second session's capabilities"
				}
				return ""
			},
			Reached: func(o Outcome) error {
				if _, ok := capabilitiesIn(o, 2); !ok {
					return notReachedf("the server never sent the second session's capabilities (%s)", sentWhat(o))
				}
				return nil
			},
			Check: func(o Outcome) error {
				res, _ := capabilitiesIn(o, 2)
				var calls []mcptest.Message
				for _, m := range after(append(requests(o, "tools/list"), requests(o, "tools/call")...), res.Seq) {
					if m.SessionNumber == 2 {
						calls = append(calls, m)
					}
				}
				if len(calls) > 0 {
					return gotf("in the second session the client sent %s although that session declared no tools capability (only %s)", methods(calls), capabilityNames(res))
				}
				return nil
			},
		},
	}
}

// capabilitiesIn returns the result that gave the client the capabilities
// of session n: its initialize result, else its server/discover result.
func capabilitiesIn(o Outcome, n int) (mcptest.Message, bool) {
	var discover mcptest.Message
	for _, m := range o.Journal {
		if m.SessionNumber != n || m.Direction != mcptest.FromServer || m.Kind != mcptest.KindResult {
			continue
		}
		switch m.Method {
		case "initialize":
			return m, true
		case "server/discover":
			if discover.Seq == 0 {
				discover = m
			}
		}
	}
	return discover, discover.Seq > 0
}

// discoverResult returns the server's result to server/discover, if any.
func discoverResult(o Outcome) (mcptest.Message, bool) {
	for _, m := range o.Journal {
		if m.Direction == mcptest.FromServer && m.Kind == mcptest.KindResult && m.Method == "server/discover" {
			return m, true
		}
	}
	return mcptest.Message{}, false
}

// capabilityNames lists the capabilities a result declares.
func capabilityNames(res mcptest.Message) string {
	var names []string
	res.Get("result.capabilities").ForEach(func(k, _ gjson.Result) bool {
		names = append(names, k.String())
		return true
	})
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
