package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
)

// mcpPath is where serve --http mounts the MCP endpoint.
const mcpPath = "/mcp"

// defaultListen is where serve --http and record --url listen unless
// --listen says otherwise: loopback, any free port (the URL is printed).
const defaultListen = "127.0.0.1:0"

func splitAddr(flagName, addr string) (string, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", usagef("%s %q: want host:port, e.g. 127.0.0.1:8080 (port 0: any free port)", flagName, addr)
	}
	return host, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// httpListen is where serve --http listens, and what it lets in.
type httpListen struct {
	addr        string
	allowRemote bool     // --allow-remote: addr need not be loopback
	hosts       []string // --allow-host: Host names served besides loopback ones
	untilSignal bool     // --until-signal: ending every session does not end serve
	admin       bool     // --admin: the admin API and the tests' endpoints (admin.go)
}

// check refuses a listen address that is not loopback unless --allow-remote
// asked for it, saying why, and returns the warning to log when it did.
func (l httpListen) check() (warning string, err error) {
	for _, h := range l.hosts {
		if _, _, err := net.SplitHostPort(h); err == nil || strings.Contains(h, "/") {
			return "", usagef("--allow-host %q: want a host name or IP address, without a port", h)
		}
	}
	host, err := splitAddr("--listen", l.addr)
	if err != nil || isLoopback(host) {
		return "", err
	}
	if !l.allowRemote {
		return "", usagef("--listen %q is not a loopback address: mcpmock serves loopback addresses only (127.0.0.1, ::1, localhost), "+
			"since the mock answers anyone who reaches it, with no authentication, breaks the protocol when told to, and keeps all they send; "+
			"to listen there anyway (a container, a VM), add --allow-remote, and --allow-host NAME for each name clients reach it by", l.addr)
	}
	w := fmt.Sprintf("mcpmock: warning: listening on %s, which is not loopback (--allow-remote): anyone who reaches it can talk to the mock", l.addr)
	if len(l.hosts) == 0 {
		w += "; it serves only requests whose Host is loopback (--allow-host NAME adds a name)"
	}
	return w, nil
}

// serveHTTP is serve --http: the mock's Streamable HTTP endpoint at
// http://ADDR/mcp, printed on stdout. It ends when every session the
// client opened has ended (DELETE), or on SIGTERM or SIGINT; a stateless
// (2026-07-28) client has no session to end, so only a signal ends it,
// and with --until-signal (many clients, one after the other: a test
// suite) only a signal ends it whatever the clients do.
func serveHTTP(spec serverSpec, listen httpListen, reportFile string, stdout, logw io.Writer) error {
	warning, err := listen.check()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", listen.addr)
	if err != nil {
		return usagef("--listen %s: %v", listen.addr, err)
	}
	if warning != "" {
		fmt.Fprintln(logw, warning)
	}
	ctx, stop := signalContext()
	defer stop()
	first := &firstRequest{}
	rep := serveOnce(ctx, spec, "http", logw, func(ctx context.Context, srv *mcptest.Server) string {
		if len(listen.hosts) > 0 {
			srv.WithHTTP(mcptest.HTTPOptions{AllowedHosts: listen.hosts})
		}
		mux := http.NewServeMux()
		mux.Handle(mcpPath, srv.HTTPHandler())
		if spec.auth.enabled() || spec.scenario != nil && isAuth(spec.scenario.Name) {
			// The authorization's well-known URLs and endpoints.
			mux.Handle("/", srv.HTTPHandler())
		}
		var h http.Handler = mux
		if listen.admin {
			a := newAdmin(spec, "http://"+ln.Addr().String(), logw)
			h = a.wrap(mux)
			defer a.close()
			fmt.Fprintf(logw, "mcpmock: admin API at http://%s%s (docs/admin.md)\n", ln.Addr(), adminPrefix)
		}
		hs := &http.Server{Handler: first.wrap(h), ReadHeaderTimeout: 10 * time.Second}
		served := make(chan struct{})
		go func() {
			defer close(served)
			_ = hs.Serve(ln)
		}()
		endpoint := "http://" + ln.Addr().String() + mcpPath
		fmt.Fprintln(stdout, endpoint)
		fmt.Fprintf(logw, "mcpmock: serving Streamable HTTP at %s\n", endpoint)
		var why string
		if listen.untilSignal {
			<-ctx.Done()
			why = signalName(ctx)
		} else {
			why = waitSessions(ctx, srv)
		}
		// Close the mock first: it ends its SSE streams and waits for its
		// handlers (the DELETE that ended the session still answers); then
		// the HTTP server shuts down with nothing left in flight.
		srv.Close()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
		_ = hs.Close()
		<-served
		return why
	}, first.since)
	if listen.admin {
		noteAdmin(rep)
	}
	return finish(rep, reportFile, logw)
}

// waitSessions waits until the client has opened at least one session and
// every session it opened has ended, or ctx ends, and says which.
func waitSessions(ctx context.Context, srv *mcptest.Server) string {
	for {
		sessions := srv.Sessions()
		var open *mcptest.Session
		for _, s := range sessions {
			select {
			case <-s.Done():
			default:
				open = s
			}
			if open != nil {
				break
			}
		}
		if len(sessions) > 0 && open == nil {
			return "the client ended its session (DELETE)"
		}
		// Wait for the open session to end, a new session, or ctx.
		wctx, cancel := context.WithCancel(ctx)
		newSession := make(chan struct{})
		known := len(sessions)
		go func() {
			defer close(newSession)
			_, _ = srv.Await(wctx, mcptest.Matcher{Description: "a message of a new session", Match: func(m mcptest.Message) bool { return m.SessionNumber > known }})
		}()
		var openDone <-chan struct{}
		if open != nil {
			openDone = open.Done()
		}
		select {
		case <-ctx.Done():
			cancel()
			<-newSession
			return signalName(ctx)
		case <-openDone:
		case <-newSession:
		}
		cancel()
		<-newSession
	}
}

// firstRequest notes when the first HTTP request came.
type firstRequest struct {
	mu    sync.Mutex
	first time.Time
}

func (f *firstRequest) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		if f.first.IsZero() {
			f.first = time.Now()
		}
		f.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (f *firstRequest) since() time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.first.IsZero() {
		return 0
	}
	return time.Since(f.first)
}

// httpFront is the address mcpmock run gives an HTTP client before the
// scenario's server exists: a reverse proxy on its own loopback port that
// holds the client's first request until the play begins (the scenario's
// deadline counts from that request, not from the client's start-up), then
// forwards every request to the scenario's server.
type httpFront struct {
	ln       net.Listener
	hs       *http.Server
	url      string
	arrived  chan struct{} // closed at the first request
	once     sync.Once
	target   chan string // the scenario server's URL, once the play began
	mu       sync.Mutex
	proxy    *httputil.ReverseProxy
	served   chan struct{}
	errorLog *log.Logger
}

func newHTTPFront(logw io.Writer) (*httpFront, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	f := &httpFront{ln: ln, url: "http://" + ln.Addr().String() + mcpPath, arrived: make(chan struct{}), target: make(chan string, 1), served: make(chan struct{}),
		errorLog: log.New(logw, "mcpmock run: http front: ", 0)}
	f.hs = &http.Server{Handler: f, ReadHeaderTimeout: 10 * time.Second, ErrorLog: f.errorLog}
	go func() {
		defer close(f.served)
		_ = f.hs.Serve(ln)
	}()
	return f, nil
}

func (f *httpFront) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.once.Do(func() { close(f.arrived) })
	p, err := f.upstream(r.Context())
	if err != nil {
		http.Error(w, "mcpmock run: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	if r.Method == http.MethodPost {
		// A client that sends a message and goes away (a notifications/cancelled
		// just before it exits) still delivered it: the mock must read it, as
		// it would without the front in between. So the client's going away
		// reaches the mock only once the request is written to it; from then
		// on it does, as it would without the front: in the stateless era a
		// closed response is how a client cancels a request.
		ctx, stop := forwardGone(r.Context())
		defer stop()
		r = r.WithContext(ctx)
		w = keepGoing{w}
	}
	p.ServeHTTP(w, r)
}

// forwardGone returns the context of a POST's upstream request: it ends
// when the client's request context ends (the client went away), but not
// before the upstream request is written (httptrace's WroteRequest). stop
// releases it.
func forwardGone(client context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(client))
	wrote, done := make(chan struct{}), make(chan struct{})
	var once sync.Once
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		WroteRequest: func(httptrace.WroteRequestInfo) { once.Do(func() { close(wrote) }) },
	})
	unwatch := context.AfterFunc(client, func() {
		select {
		case <-wrote:
			cancel()
		case <-done:
		}
	})
	return ctx, func() {
		unwatch()
		close(done)
		cancel()
	}
}

// keepGoing hides the http.CloseNotifier of a ResponseWriter, with which
// httputil.ReverseProxy cancels the upstream request when the client goes
// away; Flush still reaches the writer through Unwrap.
type keepGoing struct{ w http.ResponseWriter }

func (k keepGoing) Header() http.Header         { return k.w.Header() }
func (k keepGoing) Write(b []byte) (int, error) { return k.w.Write(b) }
func (k keepGoing) WriteHeader(code int)        { k.w.WriteHeader(code) }
func (k keepGoing) Unwrap() http.ResponseWriter { return k.w }

// upstream waits until the play began and returns the proxy to its server.
func (f *httpFront) upstream(ctx context.Context) (*httputil.ReverseProxy, error) {
	f.mu.Lock()
	p := f.proxy
	f.mu.Unlock()
	if p != nil {
		return p, nil
	}
	select {
	case u := <-f.target:
		target, err := url.Parse(u)
		if err != nil {
			return nil, err
		}
		f.mu.Lock()
		if f.proxy == nil {
			f.proxy = &httputil.ReverseProxy{
				// The MCP endpoint maps to the scenario server's; every other
				// path (the authorization's well-known URLs and endpoints)
				// goes as it is. The Host stays the front's, so the URLs the
				// mock builds from it (Protected Resource Metadata's
				// resource, the authorization server's endpoints, the legacy
				// transport's endpoint event) name the address the client
				// uses: a resource naming another address would be refused
				// by a correct client (RFC 9728 §3.3).
				Rewrite: func(pr *httputil.ProxyRequest) {
					pr.SetURL(target)
					pr.Out.URL.Path, pr.Out.URL.RawPath = pr.In.URL.Path, pr.In.URL.RawPath
					if pr.In.URL.Path == mcpPath {
						pr.Out.URL.Path, pr.Out.URL.RawPath = target.Path, ""
					}
					pr.Out.Host = pr.In.Host
				},
				FlushInterval: -1, // SSE: every event at once
				ErrorLog:      f.errorLog,
				ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
					if r.Context().Err() != nil {
						return // the client went away: nobody reads an answer
					}
					f.errorLog.Printf("http: proxy error: %v", err)
					w.WriteHeader(http.StatusBadGateway)
				},
			}
		}
		p = f.proxy
		f.mu.Unlock()
		f.target <- u // for the other requests waiting
		return p, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// begin points the front at the scenario's server.
func (f *httpFront) begin(u string) { f.target <- u }

func (f *httpFront) close() {
	_ = f.hs.Close()
	<-f.served
}
