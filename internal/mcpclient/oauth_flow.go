package mcpclient

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
)

// The flow of the OAuth client: discovery, registration, authorization and
// token, as the spec's Authorization section orders them; each step's
// OAuthBugs are read where the step is.

// discoverPRM finds the Protected Resource Metadata: the challenge's URL,
// else the path-inserted one, then the root one (RFC 9728).
func (o *OAuth) discoverPRM(ctx context.Context) (bool, error) {
	u, err := url.Parse(o.MCPURL)
	if err != nil {
		return false, err
	}
	org := u.Scheme + "://" + u.Host
	var urls []string
	if rm := o.Challenge.Param("resource_metadata"); rm != "" && !o.Bugs.RootPRMFirst && !o.Bugs.IgnoreChallengePRM {
		urls = append(urls, rm)
	}
	inserted, root := org+"/.well-known/oauth-protected-resource"+u.Path, org+"/.well-known/oauth-protected-resource"
	switch {
	case o.Bugs.RootPRMFirst:
		urls = append(urls, root, inserted)
	case o.Bugs.NoRootPRM:
		urls = append(urls, inserted)
	default:
		urls = append(urls, inserted, root)
	}
	for _, p := range urls {
		status, doc, err := o.GetJSON(ctx, p)
		if err != nil {
			return false, err
		}
		if status != http.StatusOK {
			continue
		}
		want := o.MCPURL // RFC 9728 §3.3: the resource is the one the metadata was fetched for
		if p == root {
			want = org
		}
		if doc.Get("resource").String() != want && !o.Bugs.IgnorePRMResource {
			o.prmRejected = true
			return false, nil
		}
		o.PRM = doc
		return true, nil
	}
	return false, nil
}

// discoverMetadata finds the authorization server's metadata, trying the
// forms in the spec's order, and checks it as the spec asks.
func (o *OAuth) discoverMetadata(ctx context.Context, issuer string) (bool, error) {
	iu, err := url.Parse(issuer)
	if err != nil {
		return false, err
	}
	org, ip := iu.Scheme+"://"+iu.Host, strings.TrimSuffix(iu.Path, "/")
	urls := []string{org + "/.well-known/oauth-authorization-server" + ip, org + "/.well-known/openid-configuration" + ip}
	if ip != "" {
		urls = append(urls, org+ip+"/.well-known/openid-configuration")
	}
	if o.Bugs.OneMetadataForm {
		urls = urls[:1]
	}
	if o.Bugs.OpenIDFirst {
		urls[0], urls[1] = urls[1], urls[0]
	}
	for _, m := range urls {
		status, doc, err := o.GetJSON(ctx, m)
		if err != nil {
			return false, err
		}
		if status != http.StatusOK {
			continue
		}
		if doc.Get("issuer").String() != issuer && !o.Bugs.IgnoreIssuer {
			return false, nil
		}
		if !doc.Get("code_challenge_methods_supported").Exists() && !o.Bugs.IgnoreNoPKCE {
			return false, nil
		}
		o.Metadata = doc
		return true, nil
	}
	return false, nil
}

// Authorize runs the whole flow for challenge (discovery, registration,
// authorization, token) and reports whether it got a token; see Do for
// the error.
func (o *OAuth) Authorize(ctx context.Context, challenge Challenge) (bool, error) {
	return o.authorize(ctx, challenge)
}

func (o *OAuth) authorize(ctx context.Context, challenge Challenge) (bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.Challenge = challenge
	var issuer string
	found, err := o.discoverPRM(ctx)
	if err != nil {
		return false, err
	}
	if found {
		issuer = o.PRM.Get("authorization_servers.0").String()
		if o.Bugs.MixServers {
			if other := o.PRM.Get("authorization_servers.1").String(); other != "" {
				if ok, err := o.discoverMetadata(ctx, other); err != nil {
					return false, err
				} else if ok {
					o.tokenEndpoint = o.Metadata.Get("token_endpoint").String()
				}
			}
		}
		if ok, err := o.discoverMetadata(ctx, issuer); !ok || err != nil {
			return false, err
		}
	} else {
		// No PRM: the 2025-03-26 discovery, the MCP server's origin as
		// authorization server, its metadata or else the default endpoints.
		if o.Bugs.NoLegacyFallback || o.prmRejected || o.Version > "2025-03-26" {
			o.say("found no Protected Resource Metadata it can use: it stops")
			return false, nil // a newer client MUST use PRM: without one it stops
		}
		u, err := url.Parse(o.MCPURL)
		if err != nil {
			return false, err
		}
		issuer = u.Scheme + "://" + u.Host
		ok, err := o.discoverMetadata(ctx, issuer)
		if err != nil {
			return false, err
		}
		if !ok {
			o.Metadata = gjson.Parse(fmt.Sprintf(`{"issuer":%q,"authorization_endpoint":%q,"token_endpoint":%q,"registration_endpoint":%q,"code_challenge_methods_supported":["S256"]}`,
				issuer, issuer+"/authorize", issuer+"/token", issuer+"/register"))
		}
	}
	if o.ClientCredentials {
		v := url.Values{"grant_type": {"client_credentials"}, "resource": {o.PRM.Get("resource").String()}}
		if sc := o.Challenge.Param("scope"); sc != "" {
			v.Set("scope", sc)
		}
		status, tok, err := o.tokenRequest(ctx, v)
		if err != nil || status != http.StatusOK {
			return false, err
		}
		o.Token = tok.Get("access_token").String()
		o.say("got a token with its client credentials")
		return true, nil
	}
	if err := o.register(ctx, issuer); err != nil {
		return false, err
	}
	return o.authorizationCode(ctx, issuer)
}

// register makes sure it has a client_id for the authorization server
// issuer: its own (pre-registered, or earlier), its CIMD URL, or a new one
// from Dynamic Client Registration.
func (o *OAuth) register(ctx context.Context, issuer string) error {
	if o.clientIssuer != "" && o.clientIssuer != issuer && !o.Bugs.KeepClient {
		o.ClientID, o.ClientSecret, o.AuthMethod = "", "", "" // credentials do not carry over to another server
	}
	if o.ClientID == "" && o.CIMDURL != "" && o.Metadata.Get("client_id_metadata_document_supported").Bool() {
		o.clientIssuer = issuer
		o.ClientID, o.ClientSecret, o.AuthMethod = o.CIMDURL, "", "none"
	}
	if o.ClientID != "" {
		return nil
	}
	o.clientIssuer = issuer
	name := o.ClientName
	if name == "" {
		name = "mcpmock-client"
	}
	reg := map[string]any{"client_name": name, "redirect_uris": []string{RedirectURI},
		"grant_types": []string{"authorization_code", "refresh_token"}, "response_types": []string{"code"},
		"token_endpoint_auth_method": "none"}
	if methods := o.Metadata.Get("token_endpoint_auth_methods_supported").Array(); len(methods) > 0 {
		reg["token_endpoint_auth_method"] = methods[0].String() // one the server takes
		for _, m := range methods {
			if m.String() == "none" {
				reg["token_endpoint_auth_method"] = "none"
			}
		}
	}
	if o.ClientAuth != "" {
		reg["token_endpoint_auth_method"] = o.ClientAuth
	}
	if !o.Bugs.NoAppType {
		reg["application_type"] = "native"
	}
	if o.Bugs.NoRefreshGrant {
		reg["grant_types"] = []string{"authorization_code"}
	}
	b, _ := json.Marshal(reg)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.Metadata.Get("registration_endpoint").String(), bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("mcpclient: register: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := o.client().Do(req)
	if err != nil {
		return fmt.Errorf("mcpclient: register: %w", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		return fmt.Errorf("mcpclient: register: %d %s", resp.StatusCode, body)
	}
	r := gjson.ParseBytes(body)
	o.ClientID, o.ClientSecret, o.AuthMethod = r.Get("client_id").String(), r.Get("client_secret").String(), r.Get("token_endpoint_auth_method").String()
	if o.Bugs.ForceAuth != "" {
		o.AuthMethod = o.Bugs.ForceAuth
	}
	o.say("registered (Dynamic Client Registration)")
	return nil
}

// scopes are the scopes it asks for: the challenge's, else the PRM's
// scopes_supported, else none; a step-up adds what was granted.
func (o *OAuth) scopes() []string {
	var scopes []string
	if sc := o.Challenge.Param("scope"); sc != "" {
		scopes = strings.Fields(sc)
	} else {
		for _, s := range o.PRM.Get("scopes_supported").Array() {
			scopes = append(scopes, s.String())
		}
	}
	if !o.Bugs.NoUnion {
		for _, g := range o.Granted {
			if !slices.Contains(scopes, g) {
				scopes = append(scopes, g)
			}
		}
	}
	if o.Bugs.Scope != nil {
		scopes = strings.Fields(*o.Bugs.Scope)
	}
	if o.Bugs.AddOffline && !slices.Contains(scopes, "offline_access") {
		scopes = append(scopes, "offline_access")
	}
	return scopes
}

// authorizationCode authorizes (reading the 302, not following it) and
// redeems the code.
func (o *OAuth) authorizationCode(ctx context.Context, issuer string) (bool, error) {
	pkce := NewPKCE()
	state := rand.Text()
	resource := o.PRM.Get("resource").String()
	if !o.PRM.Exists() {
		resource = o.MCPURL // 2025-03-26: no PRM; the canonical URI of the MCP server (RFC 8707)
	}
	if o.Bugs.Resource != "" {
		resource = o.Bugs.Resource
	}
	v := url.Values{"response_type": {"code"}, "client_id": {o.ClientID}, "redirect_uri": {RedirectURI}}
	switch {
	case o.Bugs.NoPKCE:
	case o.Bugs.PlainPKCE:
		v.Set("code_challenge", pkce.Verifier)
		v.Set("code_challenge_method", "plain")
	default:
		v.Set("code_challenge", pkce.Challenge)
		v.Set("code_challenge_method", "S256")
	}
	if !o.Bugs.NoResource {
		v.Set("resource", resource)
	}
	if !o.Bugs.NoState {
		v.Set("state", state)
	}
	if scopes := o.scopes(); len(scopes) > 0 {
		v.Set("scope", strings.Join(scopes, " "))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.Metadata.Get("authorization_endpoint").String()+"?"+v.Encode(), nil)
	if err != nil {
		return false, fmt.Errorf("mcpclient: authorize: %w", err)
	}
	resp, err := o.client().Do(req)
	if err != nil {
		return false, fmt.Errorf("mcpclient: authorize: %w", err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil {
		return false, fmt.Errorf("mcpclient: authorize: %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	back := loc.Query()
	if e := back.Get("error"); e != "" {
		o.AuthorizeError = e
		o.say("the authorization server refused: %s (%s)", e, back.Get("error_description"))
		return false, nil
	}
	if !o.Bugs.NoState && !o.Bugs.IgnoreState && back.Get("state") != state {
		o.say("the authorization response's state is not the one it sent: it stops")
		return false, nil // a response to another request
	}
	if !o.Bugs.IgnoreIss {
		advertised := o.Metadata.Get("authorization_response_iss_parameter_supported").Bool()
		want := issuer
		if o.Bugs.IssSlash {
			want += "/"
		}
		if iss, ok := back["iss"]; (ok && iss[0] != want) || (!ok && (advertised || o.Bugs.RequireIss)) {
			o.say("the authorization response's iss is not the issuer it asked: it stops")
			return false, nil // RFC 9207 §2.4: the response is not from the server the client asked
		}
	}
	tv := url.Values{"grant_type": {"authorization_code"}, "code": {back.Get("code")}, "redirect_uri": {RedirectURI}, "code_verifier": {pkce.Verifier}}
	if o.Bugs.WrongVerifier {
		tv.Set("code_verifier", pkce.Verifier+"x")
	}
	if !o.Bugs.NoTokenResource {
		tv.Set("resource", resource)
		if o.Bugs.TokenResource != "" {
			tv.Set("resource", o.Bugs.TokenResource)
		}
	}
	status, tok, err := o.tokenRequest(ctx, tv)
	if err != nil {
		return false, err
	}
	if status != http.StatusOK {
		o.say("the token request was refused: %s", tok.Get("error").String())
		return false, nil
	}
	o.Token, o.RefreshToken = tok.Get("access_token").String(), tok.Get("refresh_token").String()
	o.Granted = strings.Fields(tok.Get("scope").String())
	o.say("got a token (scope %q)", tok.Get("scope").String())
	return true, nil
}

// Refresh uses the refresh token and reports whether it got a new access
// token.
func (o *OAuth) Refresh(ctx context.Context) (bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	status, tok, err := o.tokenRequest(ctx, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {o.RefreshToken}})
	if err != nil || status != http.StatusOK {
		return false, err
	}
	o.Token, o.RefreshToken = tok.Get("access_token").String(), tok.Get("refresh_token").String()
	return true, nil
}
