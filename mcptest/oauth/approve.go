package oauth

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// Approval is what the redirect of an approved authorization request
// carries back to the client: the parameters of its Location.
type Approval struct {
	Code, State, Iss string
}

// Approve plays the user's browser at the mock's authorization endpoint:
// it sends the authorization request authURL (the URL a client opens), which
// the mock approves at once, and returns what the 302 redirect carries
// back, without following it — what a browser and the client's loopback
// redirect listener would do, without either. It is a client's
// AuthorizationCodeFetcher (go-sdk) or its "open the browser" step
// (mark3labs, golang.org/x/oauth2) in a test. A redirect that carries an
// OAuth error (an unknown client, a missing code_challenge…) is an error
// naming it, with the Approval's State and Iss set.
func Approve(ctx context.Context, authURL string) (Approval, error) {
	tr := &http.Transport{} // the connection ends with the call
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return Approval{}, fmt.Errorf("oauth: Approve: %w", err)
	}
	resp, err := c.Do(req)
	if err != nil {
		return Approval{}, fmt.Errorf("oauth: Approve: %w", err)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil || loc.String() == "" {
		return Approval{}, fmt.Errorf("oauth: Approve: the authorization endpoint answered %d, not a redirect (is %s the mock's authorization endpoint?): %s",
			resp.StatusCode, shorten(authURL, 80), shorten(string(body), 200))
	}
	q := loc.Query()
	a := Approval{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
	if e := q.Get("error"); e != "" {
		return a, fmt.Errorf("oauth: Approve: the authorization server refused the request: %s: %s", e, q.Get("error_description"))
	}
	return a, nil
}
