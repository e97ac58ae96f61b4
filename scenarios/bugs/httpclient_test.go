package bugs_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/mcpmock/mcpmock/scenarios"
	"github.com/tidwall/gjson"
)

// rawHTTP is a hand-written MCP client on Streamable HTTP (handshake era)
// for the proofs of the HTTP bugs: it initializes, opens the standalone
// SSE stream, lists the tools, calls suggest_gifts and ends its session
// with DELETE. Its zero value is a fixed client; each field turns on one
// behaviour a report describes.
type rawHTTP struct {
	giveUpOn404   bool // a 404 ends its work (no new session)
	hangOn404     bool // a 404 leaves it waiting until its deadline (go-sdk#265)
	noResume      bool // a reply stream cut before the reply loses the call
	hangOnCut     bool // waits for a reply after its stream ended
	ignoreChanged bool // ignores notifications/tools/list_changed
	awaitChange   bool // after the call, waits for a list_changed the server said would come
	noVersionHdr  bool // sends no MCP-Protocol-Version header
	hangOnStatus  bool // an HTTP error status leaves the request waiting until its deadline
}

var errExpired = errors.New("session expired (404 Not Found)")

type httpSession struct {
	rawHTTP
	ctx     context.Context
	hc      *http.Client
	url     string
	session string
	nextID  int
	changed chan struct{}
}

func (c rawHTTP) connect() scenarios.ConnectFunc {
	return func(ctx context.Context, ep *scenarios.Endpoint) error {
		tr := &http.Transport{}
		defer tr.CloseIdleConnections()
		s := &httpSession{rawHTTP: c, ctx: ctx, hc: &http.Client{Transport: tr}, url: ep.URL()}
		err := s.work()
		if errors.Is(err, errExpired) {
			switch {
			case c.hangOn404:
				<-ctx.Done()
			case !c.giveUpOn404:
				s.session = ""
				err = s.work()
			}
		}
		return err
	}
}

func (s *httpSession) work() error {
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	s.changed = make(chan struct{}, 1)
	if _, err := s.call("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "bugs-rawhttp", "version": "1.0.0"}}); err != nil {
		return err
	}
	defer s.delete()
	if _, err := s.post(ctx, map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}, 0); err != nil {
		return err
	}
	if err := s.listen(ctx); err != nil {
		return err
	}
	if _, err := s.call("tools/list", map[string]any{}); err != nil {
		return err
	}
	if _, err := s.call("tools/call", map[string]any{"name": "suggest_gifts", "arguments": map[string]any{"age": 30}}); err != nil {
		return err
	}
	if s.awaitChange && !s.ignoreChanged {
		select {
		case <-s.changed:
			if _, err := s.call("tools/list", map[string]any{}); err != nil {
				return err
			}
		case <-s.ctx.Done():
		}
	}
	return nil
}

// call sends a request and returns its result.
func (s *httpSession) call(method string, params any) (gjson.Result, error) {
	s.nextID++
	id := s.nextID
	m, err := s.post(s.ctx, map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}, id)
	if err != nil {
		return gjson.Result{}, fmt.Errorf("%s: %w", method, err)
	}
	if e := m.Get("error"); e.Exists() {
		return gjson.Result{}, fmt.Errorf("%s: error %d %s", method, e.Get("code").Int(), e.Get("message").String())
	}
	return m.Get("result"), nil
}

func (s *httpSession) request(ctx context.Context, method string, body []byte, lastEventID string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, s.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	if method == http.MethodGet {
		req.Header.Set("Accept", "text/event-stream")
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if s.session != "" {
		req.Header.Set("Mcp-Session-Id", s.session)
		if !s.noVersionHdr {
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
	}
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	return s.hc.Do(req)
}

// post sends a message; for a request (id > 0) it returns the reply, read
// from the JSON body or the SSE stream (resumed with GET and
// Last-Event-ID if it is cut).
func (s *httpSession) post(ctx context.Context, msg map[string]any, id int) (gjson.Result, error) {
	body, _ := json.Marshal(msg)
	resp, err := s.request(ctx, http.MethodPost, body, "")
	if err != nil {
		return gjson.Result{}, err
	}
	defer resp.Body.Close()
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" && s.session == "" {
		s.session = sid
	}
	switch {
	case resp.StatusCode == http.StatusNotFound && s.session != "":
		return gjson.Result{}, errExpired
	case resp.StatusCode >= 300 && s.hangOnStatus:
		<-s.ctx.Done()
		return gjson.Result{}, fmt.Errorf("timed out (the HTTP %d was dropped)", resp.StatusCode)
	case resp.StatusCode >= 300:
		return gjson.Result{}, fmt.Errorf("HTTP %d", resp.StatusCode)
	case id == 0:
		return gjson.Result{}, nil
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return gjson.Result{}, err
		}
		return gjson.ParseBytes(b), nil
	}
	m, last, ok := s.events(resp.Body, id)
	for !ok {
		switch {
		case s.hangOnCut:
			<-s.ctx.Done()
			return gjson.Result{}, errors.New("the reply never came")
		case last == "" || s.noResume:
			return gjson.Result{}, errors.New("the reply stream ended before the reply")
		}
		get, err := s.request(ctx, http.MethodGet, nil, last)
		if err != nil {
			return gjson.Result{}, err
		}
		var next string
		m, next, ok = s.events(get.Body, id)
		get.Body.Close()
		if !ok && next == "" {
			return gjson.Result{}, errors.New("the resumed stream ended before the reply")
		}
		last = next
	}
	return m, nil
}

// events reads an SSE stream until the reply with id (ok) or its end,
// and returns the last event id it saw; notifications/tools/list_changed
// is noted.
func (s *httpSession) events(r io.Reader, id int) (reply gjson.Result, lastID string, ok bool) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<24)
	var data strings.Builder
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id:"):
			lastID = strings.TrimSpace(strings.TrimPrefix(line, "id:"))
		case strings.HasPrefix(line, "data:"):
			data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		case line == "":
			m := gjson.Parse(data.String())
			data.Reset()
			if m.Get("method").String() == "notifications/tools/list_changed" {
				select {
				case s.changed <- struct{}{}:
				default:
				}
			}
			if id > 0 && m.Get("id").Int() == int64(id) && !m.Get("method").Exists() {
				return m, lastID, true
			}
		}
	}
	return gjson.Result{}, lastID, false
}

// listen opens the standalone SSE stream and reads it in the background
// until ctx ends; a server without one (405) is fine.
func (s *httpSession) listen(ctx context.Context) error {
	resp, err := s.request(ctx, http.MethodGet, nil, "")
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound {
			return errExpired
		}
		return nil
	}
	go func() {
		defer resp.Body.Close()
		s.events(resp.Body, 0)
	}()
	return nil
}

func (s *httpSession) delete() {
	if s.session == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2e9)
	defer cancel()
	if resp, err := s.request(ctx, http.MethodDelete, nil, ""); err == nil {
		resp.Body.Close()
	}
}

func init() {
	for id, p := range map[string]proof{
		"python-sdk-3556":     {rawHTTP{giveUpOn404: true}.connect(), rawHTTP{}.connect()},
		"python-sdk-1676":     {rawHTTP{giveUpOn404: true}.connect(), rawHTTP{}.connect()},
		"typescript-sdk-1708": {rawHTTP{giveUpOn404: true}.connect(), rawHTTP{}.connect()}, // also the real 1.32.2 and 2.0.0: .ci/run
		"rust-sdk-733":        {rawHTTP{giveUpOn404: true}.connect(), rawHTTP{}.connect()},
		"mcp-proxy-149":       {rawHTTP{giveUpOn404: true}.connect(), rawHTTP{}.connect()},
		"php-sdk-327":         {rawHTTP{noResume: true}.connect(), rawHTTP{}.connect()},
		"python-sdk-1577":     {rawHTTP{hangOnCut: true}.connect(), rawHTTP{}.connect()},
		"claude-code-79826":   {rawHTTP{ignoreChanged: true, awaitChange: true}.connect(), rawHTTP{awaitChange: true}.connect()},
		"java-sdk-324":        {rawHTTP{hangOnStatus: true}.connect(), rawHTTP{}.connect()},
		"csharp-sdk-495":      {rawHTTP{noVersionHdr: true}.connect(), rawHTTP{}.connect()},
		"go-sdk-265":          {rawHTTP{hangOn404: true}.connect(), rawHTTP{}.connect()},
	} {
		httpProofs[id] = p
	}
}
