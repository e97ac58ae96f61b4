package oauth_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/tidwall/gjson"
)

// oauthRaw is the kit's OAuth client (internal/mcpclient: correct by
// default, each of its Bugs breaks one thing the spec asks of a client) on
// an HTTPWire, with the test's Fatalf for what the flow did not expect.
type oauthRaw struct {
	*mcpclient.OAuth
	w *mcpclient.HTTPWire
	t testing.TB
}

func newOAuthRaw(t testing.TB, srv *mcptest.Server, version string) *oauthRaw {
	return newOAuthRawAt(t, srv.URL(), version)
}

// newOAuthRawAt is newOAuthRaw for the MCP endpoint at mcpURL.
func newOAuthRawAt(t testing.TB, mcpURL, version string) *oauthRaw {
	o := &mcpclient.OAuth{MCPURL: mcpURL, Version: version, ClientName: "oauthraw"}
	w := mcpclient.NewHTTPWire(mcpURL, version, o)
	t.Cleanup(w.Close)
	return &oauthRaw{OAuth: o, w: w, t: t}
}

// stateless reports whether the client speaks the stateless era.
func (o *oauthRaw) stateless() bool { return o.w.Stateless() }

// send sends one MCP request or notification (id "" for one) with the
// token it holds, and no authorization.
func (o *oauthRaw) send(id, method, params string) (int, http.Header, string) {
	o.t.Helper()
	r, err := o.w.Send(context.Background(), id, method, params)
	if err != nil {
		o.t.Fatalf("oauthRaw: %s: %v", method, err)
	}
	return r.Status, r.Header, r.Body
}

// call sends a request and, on 401 or 403 insufficient_scope, authorizes
// and sends it again (step-ups bounded to 3); it returns the last answer.
func (o *oauthRaw) call(id, method, params string) (int, string) {
	o.t.Helper()
	r, err := o.w.Call(context.Background(), id, method, params)
	if err != nil {
		o.t.Fatalf("oauthRaw: %s: %v", method, err)
	}
	return r.Status, r.Body
}

// connect calls initialize and sends notifications/initialized (handshake
// era), or server/discover (stateless era).
func (o *oauthRaw) connect() {
	o.t.Helper()
	if o.stateless() {
		if status, body := o.call("0", "server/discover", ""); status != http.StatusOK {
			o.t.Fatalf("oauthRaw: server/discover: %d %s", status, body)
		}
		return
	}
	status, body := o.call("1", "initialize", fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"oauthraw","version":"1"}}`, o.Version))
	if status != http.StatusOK {
		o.t.Fatalf("oauthRaw: initialize: %d %s", status, body)
	}
	if s, b := o.call("", "notifications/initialized", ""); s != http.StatusAccepted {
		o.t.Fatalf("oauthRaw: notifications/initialized: %d %s", s, b)
	}
}

func (o *oauthRaw) getJSON(u string) (int, gjson.Result) {
	o.t.Helper()
	status, doc, err := o.GetJSON(context.Background(), u)
	if err != nil {
		o.t.Fatal(err)
	}
	return status, doc
}

func (o *oauthRaw) postForm(u string, v url.Values) (int, gjson.Result) {
	o.t.Helper()
	status, doc, err := o.PostForm(context.Background(), u, v)
	if err != nil {
		o.t.Fatal(err)
	}
	return status, doc
}

// refreshToken uses the refresh token; it reports whether it got a new access token.
func (o *oauthRaw) refreshToken() bool {
	o.t.Helper()
	ok, err := o.Refresh(context.Background())
	if err != nil {
		o.t.Fatal(err)
	}
	return ok
}
