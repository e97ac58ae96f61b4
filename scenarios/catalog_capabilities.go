package scenarios

import (
	"encoding/json"
	"strings"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/tidwall/gjson"
)

// The capability scenarios of the handshake lesson's mistake 7, premature
// "magic" around capabilities: capabilities that are not one honest
// declaration of what the server does. Capabilities declared for a
// feature the server does not serve are capabilities-lie (catalog.go).
// Capabilities that differ between two sessions of one server are not here
// yet: they need a workflow that connects twice.

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
		Mistake: "None: beside what it serves, the server declares capabilities the client cannot know: \"wishlists\", a feature of some future version of the spec, and a vendor's \"io.example/giftWrapping\". " +
			"This is how MCP grows (new features arrive as new keys, and old clients ignore them); it catches clients that reject, or crash on, a key they do not know.",
		Spec: spec(latestHandshake, "basic/lifecycle#capability-negotiation"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			var faults []mcptest.Fault
			for _, method := range []string{"initialize", "server/discover"} {
				for _, k := range unknownCapabilityKeys {
					faults = append(faults, mcptest.SetField(method, k.path, k.value))
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
		Mistake: "The server's two doors disagree: initialize declares tools, but server/discover, generated from another configuration, leaves them out. " +
			"It catches clients that do not take the capabilities of the era they speak: a stateless client that calls tools/list anyway, or one that mixes the two answers.",
		Spec: spec(latestStateless, "server/discover"),
		Server: func(base *mcptest.Server) *mcptest.Server {
			return faulty(base, mcptest.DeleteField("server/discover", "result.capabilities.tools"))
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
