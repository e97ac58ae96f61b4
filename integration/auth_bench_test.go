package integration_test

// A tools/call over Streamable HTTP with a bearer token (WithAuthorization)
// side by side with the same call without authorization, driven by the
// same raw client (bench_http_test.go's, plus an Authorization header):
//
//	go test -run '^$' -bench 'AuthToolCall' -benchmem -count 5 ./integration

import (
	"bytes"
	"context"
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"io"
	"net/http"
	"strconv"
	"testing"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/mcptest/oauth"
)

// benchAuthClient is benchHTTPClient with a bearer token on every request.
type benchAuthClient struct {
	url, token, sid string
	tr              *http.Transport
	nextID          int64
	body            bytes.Buffer
}

func (c *benchAuthClient) post(frame []byte) error {
	req, err := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(frame))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if c.sid != "" {
		req.Header.Set(spec.HeaderSessionID, c.sid)
		req.Header.Set(spec.HeaderProtocolVersion, "2025-11-25")
	}
	resp, err := c.tr.RoundTrip(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	c.body.Reset()
	if _, err := c.body.ReadFrom(resp.Body); err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("status %d: %s", resp.StatusCode, c.body.String())
	}
	if sid := resp.Header.Get(spec.HeaderSessionID); sid != "" {
		c.sid = sid
	}
	return nil
}

func (c *benchAuthClient) call() error {
	id := c.nextID
	c.nextID++
	frame := strconv.AppendInt(append([]byte(nil), benchToolCallHead...), id, 10)
	frame = append(frame, benchToolCallTail...)
	if err := c.post(frame); err != nil {
		return err
	}
	if !bytes.Contains(c.body.Bytes(), []byte(`"id":`+strconv.FormatInt(id, 10)+`,`)) {
		return fmt.Errorf("response without id %d: %s", id, c.body.String())
	}
	return nil
}

// benchToken gets a token the way a pre-registered public client does,
// with the kit's OAuth client: discovery, a headless authorization with
// PKCE, then the token request.
func benchToken(tb testing.TB, mcpURL string) string {
	o := &mcpclient.OAuth{MCPURL: mcpURL, Version: "2025-11-25", ClientID: "bench", AuthMethod: "none"}
	defer o.CloseIdleConnections()
	ok, err := o.Authorize(context.Background(), mcpclient.Challenge{})
	if err != nil || !ok {
		tb.Fatalf("no token: %v (the authorization server said %q)", err, o.AuthorizeError)
	}
	return o.Token
}

// newBenchAuthClient initializes a session on a mock, with a token when
// the mock has authorization.
func newBenchAuthClient(tb testing.TB, bearer bool) *benchAuthClient {
	srv := mcptest.NewServer(tb).WithTools(mcptest.NewTool("echo").ReturnsText("hi"))
	if bearer {
		srv.WithAuthorization(oauth.New(oauth.Options{Clients: []oauth.Client{{ID: "bench"}}}))
	}
	c := &benchAuthClient{url: srv.URL(), tr: &http.Transport{MaxIdleConnsPerHost: 1}, nextID: 2}
	tb.Cleanup(c.tr.CloseIdleConnections)
	if bearer {
		c.token = benchToken(tb, c.url)
	}
	if err := c.post(benchInitializeFrame); err != nil {
		tb.Fatalf("initialize: %v", err)
	}
	if err := c.post(benchInitializedFrame); err != nil {
		tb.Fatalf("notifications/initialized: %v", err)
	}
	tb.Cleanup(func() {
		req, _ := http.NewRequest(http.MethodDelete, c.url, nil)
		req.Header.Set(spec.HeaderSessionID, c.sid)
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		if resp, err := c.tr.RoundTrip(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	})
	return c
}

func BenchmarkAuthToolCall(b *testing.B) {
	for _, bearer := range []bool{false, true} {
		name := "mcptest-json"
		if bearer {
			name = "mcptest-json-bearer"
		}
		b.Run(name, func(b *testing.B) {
			c := newBenchAuthClient(b, bearer)
			b.ReportAllocs()
			for b.Loop() {
				if err := c.call(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestAuthBenchClient: the benchmark's client gets its answer with and
// without a token, and the mock counted the token's use.
func TestAuthBenchClient(t *testing.T) {
	for _, bearer := range []bool{false, true} {
		c := newBenchAuthClient(t, bearer)
		for range 3 {
			if err := c.call(); err != nil {
				t.Fatal(err)
			}
		}
		if c.sid == "" {
			t.Fatal("no session")
		}
	}
}
