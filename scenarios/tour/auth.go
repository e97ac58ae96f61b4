package tour

import (
	"context"
	"fmt"
	"io"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
)

// The authorization walk (`mcpmock tour auth`, Tour.Run(w, "auth")): one
// healthy authorization with its transcript and sequence diagram, then
// three classic client mistakes, each made by an OAuth client that the mock
// catches. The clients are the tour's own, the module's client kit with
// one of its OAuthBugs each: the Client a Tour is given speaks MCP, not
// necessarily OAuth.
// Unlike the rest of the tour, its transcripts hold what differs from run
// to run: loopback ports, client ids, codes and tokens.

// authWalkName is the name that asks for the authorization walk.
const authWalkName = "auth"

// authMistake is one client mistake of the authorization walk.
type authMistake struct {
	title, summary, scenario, fix string
	// client names the naive client that makes the mistake.
	client string
	// caught is the mistake and how the mock must catch it.
	caught mistake
	// note, if set, is said after the verdict: why the lesson is the
	// rule the mock caught rather than the scenario's verdict.
	note string
	bug  mcpclient.OAuthBugs
}

var authMistakes = []authMistake{
	{
		title:    "no PKCE",
		summary:  "The client sends its user to authorize without a code_challenge: anyone who intercepts the code can redeem it. The spec makes PKCE with S256 mandatory.",
		scenario: "auth/metadata-default",
		fix:      "Make a random code_verifier per authorization, send code_challenge=BASE64URL(SHA256(verifier)) with code_challenge_method=S256, and the verifier with the code.",
		client:   "a naive OAuth client that skips PKCE",
		caught:   mistake{did: "sent no PKCE code_challenge", rules: []mcptest.RuleID{"auth/pkce-s256"}},
		bug:      mcpclient.OAuthBugs{NoPKCE: true},
	},
	{
		title:    "no resource parameter",
		summary:  "The client asks for a token without saying which MCP server it is for (RFC 8707): the token is not bound to its audience, and a server that receives it cannot tell it was meant for another.",
		scenario: "auth/metadata-default",
		fix:      "Send resource=<the MCP server's canonical URL> (the Protected Resource Metadata's resource) in both the authorization and the token request.",
		note:     "The scenario is about discovery, which this client gets right, and this mock issues the token anyway: the lesson is the rule the mock caught, twice, which a stricter authorization server enforces by refusing the token.",
		client:   "a naive OAuth client that sends no resource parameter",
		caught:   mistake{did: "sent no resource parameter", rules: []mcptest.RuleID{"auth/resource-parameter"}},
		bug:      mcpclient.OAuthBugs{NoResource: true, NoTokenResource: true},
	},
	{
		title:    "no re-authorization on a step-up",
		summary:  "A tool needs more than the client's token carries; the server answers 403 insufficient_scope naming the scope, and the client gives up instead of authorizing again for the union of its scopes and the new one.",
		scenario: "auth/scope-step-up",
		fix:      "On 403 with error=\"insufficient_scope\", authorize again for the scopes already granted plus the challenge's scope, then retry the request once; bound the retries.",
		client:   "a naive OAuth client that does not step up",
		caught:   mistake{did: "gave up on the 403 insufficient_scope instead of authorizing again", fails: true},
		bug:      mcpclient.OAuthBugs{NoStepUp: true},
	},
}

// showAuth writes the authorization walk and returns its verdicts.
func (t Tour) showAuth(w io.Writer) ([]Verdict, error) {
	fmt.Fprintf(w, "# Authorization: one healthy flow, then three client mistakes\n\n")
	fmt.Fprintf(w, "%s\n\n", wrap("The mock is an OAuth-protected MCP server with its own authorization server. The clients here are the tour's own OAuth clients (the module's client kit): discovery from the 401's resource_metadata, registration, PKCE, the resource parameter, the token, the call.", ""))
	healthy, _ := scenarios.Lookup("auth/metadata-default")
	v, err := t.play(w, healthy, oauthTourClient("the tour's OAuth client", mcpclient.OAuthBugs{}, nil))
	verdicts := []Verdict{v}
	if err != nil {
		return verdicts, err
	}
	for i, m := range authMistakes {
		fmt.Fprintf(w, "\n# Authorization mistake %d of %d: %s\n\n", i+1, len(authMistakes), m.title)
		fmt.Fprintf(w, "%s\n\n", wrap(m.summary, ""))
		s, ok := scenarios.Lookup(m.scenario)
		if !ok {
			return verdicts, fmt.Errorf("tour: authorization mistake %q names the scenario %q, which is not in the catalog", m.title, m.scenario)
		}
		v, err := t.play(w, s, oauthTourClient(m.client, m.bug, &m.caught))
		verdicts = append(verdicts, v)
		if err != nil {
			return verdicts, err
		}
		if m.note != "" {
			fmt.Fprintf(w, "%s\n", wrap(m.note, ""))
		}
		fmt.Fprintf(w, "\n%s\n", wrap("How to fix it: "+m.fix, ""))
	}
	return verdicts, nil
}

// oauthTourClient is the tour's OAuth client with bug (the mistake the
// mock must catch, nil for a correct client): the kit's client over the
// scenario's URL, authorizing on the 401, that initializes, calls
// suggest_gifts {"age":25} (stepping up on a 403 insufficient_scope) and
// ends its session.
func oauthTourClient(name string, bug mcpclient.OAuthBugs, m *mistake) Client {
	return Client{Name: name, own: true, mistake: m, Run: func(ctx context.Context, ep *scenarios.Endpoint, _ scenarios.Scenario, say func(string, ...any)) error {
		const version = "2025-11-25"
		auth := &mcpclient.OAuth{MCPURL: ep.URL(), Version: version, ClientName: "tour-oauth-client", Say: say, Bugs: bug}
		c := mcpclient.HTTP(ep.URL(), mcpclient.Options{Version: version, Name: "tour-oauth-client", Capabilities: "{}", Auth: auth, Say: say})
		defer c.Close()
		if err := c.Connect(ctx); err != nil {
			return err
		}
		res, err := c.Call(ctx, "tools/call", `{"name":"suggest_gifts","arguments":{"age":25}}`)
		if err != nil {
			return err
		}
		say("called suggest_gifts: %s", res.Get("content.0.text").Raw)
		return c.Close()
	}}
}
