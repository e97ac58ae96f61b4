package tour

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/tidwall/gjson"
)

// The authorization walk (`mcpmock tour auth`, Tour.Run(w, "auth")): one
// healthy authorization with its transcript and sequence diagram, then
// three classic client mistakes, each made by a hand-written OAuth client
// that the mock catches. The clients are the tour's own (standard library
// only): the Client a Tour is given speaks MCP, not necessarily OAuth.
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
	bug  oauthBug
}

// oauthBug is what the tour's OAuth client gets wrong; the zero value is
// a correct client.
type oauthBug struct {
	noPKCE, noResource, noStepUp bool
}

var authMistakes = []authMistake{
	{
		title:    "no PKCE",
		summary:  "The client sends its user to authorize without a code_challenge: anyone who intercepts the code can redeem it. The spec makes PKCE with S256 mandatory.",
		scenario: "auth/metadata-default",
		fix:      "Make a random code_verifier per authorization, send code_challenge=BASE64URL(SHA256(verifier)) with code_challenge_method=S256, and the verifier with the code.",
		client:   "a naive OAuth client that skips PKCE",
		caught:   mistake{did: "sent no PKCE code_challenge", rules: []mcptest.RuleID{mcptest.RuleAuthPKCE}},
		bug:      oauthBug{noPKCE: true},
	},
	{
		title:    "no resource parameter",
		summary:  "The client asks for a token without saying which MCP server it is for (RFC 8707): the token is not bound to its audience, and a server that receives it cannot tell it was meant for another.",
		scenario: "auth/metadata-default",
		fix:      "Send resource=<the MCP server's canonical URL> (the Protected Resource Metadata's resource) in both the authorization and the token request.",
		note:     "The scenario is about discovery, which this client gets right, and this mock issues the token anyway: the lesson is the rule the mock caught, twice, which a stricter authorization server enforces by refusing the token.",
		client:   "a naive OAuth client that sends no resource parameter",
		caught:   mistake{did: "sent no resource parameter", rules: []mcptest.RuleID{mcptest.RuleAuthResource}},
		bug:      oauthBug{noResource: true},
	},
	{
		title:    "no re-authorization on a step-up",
		summary:  "A tool needs more than the client's token carries; the server answers 403 insufficient_scope naming the scope, and the client gives up instead of authorizing again for the union of its scopes and the new one.",
		scenario: "auth/scope-step-up",
		fix:      "On 403 with error=\"insufficient_scope\", authorize again for the scopes already granted plus the challenge's scope, then retry the request once; bound the retries.",
		client:   "a naive OAuth client that does not step up",
		caught:   mistake{did: "gave up on the 403 insufficient_scope instead of authorizing again", fails: true},
		bug:      oauthBug{noStepUp: true},
	},
}

// showAuth writes the authorization walk and returns its verdicts.
func (t Tour) showAuth(w io.Writer) ([]Verdict, error) {
	fmt.Fprintf(w, "# Authorization: one healthy flow, then three client mistakes\n\n")
	fmt.Fprintf(w, "%s\n\n", wrap("The mock is an OAuth-protected MCP server with its own authorization server. The clients here are the tour's own hand-written OAuth clients (standard library only): discovery from the 401's resource_metadata, registration, PKCE, the resource parameter, the token, the call.", ""))
	healthy, _ := scenarios.Lookup("auth/metadata-default")
	v, err := t.play(w, healthy, oauthTourClient("the tour's OAuth client", oauthBug{}, nil))
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
// mock must catch, nil for a correct client): over the scenario's URL it
// initializes (authorizing on the 401), calls suggest_gifts {"age":25}
// (stepping up on a 403 insufficient_scope) and ends its session.
func oauthTourClient(name string, bug oauthBug, m *mistake) Client {
	return Client{Name: name, own: true, mistake: m, Run: func(ctx context.Context, ep *scenarios.Endpoint, _ scenarios.Scenario, say func(string, ...any)) error {
		tr := &http.Transport{}
		defer tr.CloseIdleConnections()
		o := &oauthTour{ctx: ctx, url: ep.URL(), bug: bug, say: say,
			c: &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
		if _, err := o.call(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"tour-oauth-client","version":"1.0.0"}}}`); err != nil {
			return err
		}
		if _, err := o.call(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
			return err
		}
		res, err := o.call(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"suggest_gifts","arguments":{"age":25}}}`)
		if err != nil {
			return err
		}
		say("called suggest_gifts: %s", gjson.Get(res, "result.content.0.text").Raw)
		return o.end()
	}}
}

// oauthTour is one run of the tour's OAuth client.
type oauthTour struct {
	ctx     context.Context
	c       *http.Client
	url     string
	bug     oauthBug
	say     func(string, ...any)
	session string
	token   string
	granted []string
	client  string // client_id, once registered
}

// call POSTs one message; on 401 it authorizes, on 403 insufficient_scope
// it steps up (at most twice), then sends it again.
func (o *oauthTour) call(body string) (string, error) {
	method := gjson.Get(body, "method").String()
	for try := 0; ; try++ {
		req, err := http.NewRequestWithContext(o.ctx, http.MethodPost, o.url, strings.NewReader(body))
		if err != nil {
			return "", err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if o.token != "" {
			req.Header.Set("Authorization", "Bearer "+o.token)
		}
		if o.session != "" {
			req.Header.Set("Mcp-Session-Id", o.session)
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		resp, err := o.c.Do(req)
		if err != nil {
			return "", err
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		challenge := params(resp.Header.Get("WWW-Authenticate"))
		switch {
		case resp.StatusCode == http.StatusUnauthorized && try < 2:
			o.say("%s: 401, authorizing (the challenge names the metadata at %s)", method, challenge["resource_metadata"])
			if err := o.authorize(challenge); err != nil {
				return "", err
			}
		case resp.StatusCode == http.StatusForbidden && challenge["error"] == "insufficient_scope" && try < 2:
			if o.bug.noStepUp {
				o.say("%s: 403 insufficient_scope (scope %q): gave up", method, challenge["scope"])
				return "", fmt.Errorf("%s: 403 Forbidden", method)
			}
			o.say("%s: 403 insufficient_scope: stepping up for %q and what it had", method, challenge["scope"])
			if err := o.authorize(challenge); err != nil {
				return "", err
			}
		case resp.StatusCode/100 != 2:
			return "", fmt.Errorf("%s: %s", method, resp.Status)
		default:
			if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
				o.session = sid
			}
			text := string(b)
			if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
				for _, line := range strings.Split(text, "\n") {
					if d, ok := strings.CutPrefix(line, "data: "); ok {
						text = d
					}
				}
			}
			return text, nil
		}
	}
}

// end ends the session with DELETE, as a client that is done does.
func (o *oauthTour) end() error {
	req, err := http.NewRequestWithContext(o.ctx, http.MethodDelete, o.url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+o.token)
	req.Header.Set("Mcp-Session-Id", o.session)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := o.c.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	o.say("ended its session (DELETE)")
	return nil
}

// authorize runs the flow from a challenge: metadata, registration,
// authorization (read from the 302, not followed), token.
func (o *oauthTour) authorize(challenge map[string]string) error {
	prm, err := o.getJSON(challenge["resource_metadata"])
	if err != nil {
		return err
	}
	issuer := prm.Get("authorization_servers.0").String()
	iu, _ := url.Parse(issuer)
	md, err := o.getJSON(iu.Scheme + "://" + iu.Host + "/.well-known/oauth-authorization-server" + iu.Path)
	if err != nil {
		return err
	}
	if o.client == "" {
		reg, _ := json.Marshal(map[string]any{"client_name": "tour-oauth-client", "redirect_uris": []string{"http://127.0.0.1:1/callback"},
			"grant_types": []string{"authorization_code", "refresh_token"}, "token_endpoint_auth_method": "none", "application_type": "native"})
		resp, err := o.c.Post(md.Get("registration_endpoint").String(), "application/json", strings.NewReader(string(reg)))
		if err != nil {
			return err
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		o.client = gjson.GetBytes(b, "client_id").String()
		o.say("registered (Dynamic Client Registration)")
	}
	scopes := strings.Fields(challenge["scope"])
	for _, g := range o.granted {
		if !strings.Contains(" "+challenge["scope"]+" ", " "+g+" ") {
			scopes = append(scopes, g)
		}
	}
	verifier := rand.Text() + rand.Text()
	sum := sha256.Sum256([]byte(verifier))
	state := rand.Text()
	resource := prm.Get("resource").String()
	v := url.Values{"response_type": {"code"}, "client_id": {o.client}, "redirect_uri": {"http://127.0.0.1:1/callback"}, "state": {state}}
	if !o.bug.noPKCE {
		v.Set("code_challenge", base64.RawURLEncoding.EncodeToString(sum[:]))
		v.Set("code_challenge_method", "S256")
	}
	if !o.bug.noResource {
		v.Set("resource", resource)
	}
	if len(scopes) > 0 {
		v.Set("scope", strings.Join(scopes, " "))
	}
	resp, err := o.c.Get(md.Get("authorization_endpoint").String() + "?" + v.Encode())
	if err != nil {
		return err
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	back := loc.Query()
	if e := back.Get("error"); e != "" {
		o.say("the authorization server refused: %s (%s)", e, back.Get("error_description"))
		return fmt.Errorf("authorize: %s", e)
	}
	if back.Get("state") != state || back.Get("iss") != "" && back.Get("iss") != issuer {
		return fmt.Errorf("authorize: the response is not the answer to this request")
	}
	tv := url.Values{"grant_type": {"authorization_code"}, "code": {back.Get("code")}, "redirect_uri": {"http://127.0.0.1:1/callback"},
		"code_verifier": {verifier}, "client_id": {o.client}}
	if !o.bug.noResource {
		tv.Set("resource", resource)
	}
	tr, err := o.c.Post(md.Get("token_endpoint").String(), "application/x-www-form-urlencoded", strings.NewReader(tv.Encode()))
	if err != nil {
		return err
	}
	b, _ := io.ReadAll(tr.Body)
	tr.Body.Close()
	tok := gjson.ParseBytes(b)
	if tr.StatusCode != http.StatusOK {
		o.say("the token request was refused: %s", tok.Get("error").String())
		return fmt.Errorf("token: %s", tr.Status)
	}
	o.token, o.granted = tok.Get("access_token").String(), strings.Fields(tok.Get("scope").String())
	o.say("got a token (scope %q)", tok.Get("scope").String())
	return nil
}

func (o *oauthTour) getJSON(u string) (gjson.Result, error) {
	req, err := http.NewRequestWithContext(o.ctx, http.MethodGet, u, nil)
	if err != nil {
		return gjson.Result{}, err
	}
	resp, err := o.c.Do(req)
	if err != nil {
		return gjson.Result{}, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return gjson.Result{}, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return gjson.ParseBytes(b), nil
}

// params reads a Bearer challenge's parameters (name="value" pairs).
func params(h string) map[string]string {
	out := map[string]string{}
	for rest := h; ; {
		eq := strings.Index(rest, `="`)
		if eq < 0 {
			return out
		}
		name := rest[:eq]
		if i := strings.LastIndexAny(name, " ,"); i >= 0 {
			name = name[i+1:]
		}
		val, tail, _ := strings.Cut(rest[eq+2:], `"`)
		out[strings.ToLower(name)] = val
		rest = tail
	}
}
