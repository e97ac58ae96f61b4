package integration_test

// The load test of issue 23: many go-sdk v1.8.0 clients at once, each
// calling a tool whose answers come with progress notifications, while the
// server sends every handshake-era session notifications of its own (on the
// standalone GET stream over HTTP); then every message is checked to have
// arrived, once, in order, per session. The same work runs over the pipe,
// so the HTTP front is measured beside it.
//
// TestLoad runs it at a size that fits CI (-race included); the full size
// of the issue (1,000 sessions per era, 100,000 requests over HTTP) is
//
//	MCPMOCK_LOAD=full go test -run '^TestLoad$' -v -timeout 30m ./integration
//
// and BenchmarkLoad reports the figures (p50/p99 of a call, heap, stacks and
// goroutines per open session) of each transport and era side by side.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// loadSize is how much work one load run does: sessions clients at once,
// calls tool calls each.
type loadSize struct{ sessions, calls int }

// loadSizeFromEnv is the CI size, or the full size when
// MCPMOCK_LOAD=full: 1,000 sessions of 50 calls in each era, 100,000
// requests over HTTP in all.
func loadSizeFromEnv(t testing.TB) loadSize {
	switch v := os.Getenv("MCPMOCK_LOAD"); v {
	case "":
		return loadSize{sessions: 40, calls: 10}
	case "full":
		return loadSize{sessions: 1000, calls: 50}
	default:
		t.Fatalf("MCPMOCK_LOAD=%q: want full, or unset for the CI size", v)
		return loadSize{}
	}
}

// loadProgress is how many progress notifications each call sends before
// its result.
const loadProgress = 2

// loadResult is what one load run measured.
type loadResult struct {
	latencies     []time.Duration // one per call, sorted
	heap, stack   float64         // bytes per open session (client end included)
	goroutines    float64         // per open session (client end included)
	notifications int             // notifications the clients received
	messages      int             // messages the journal holds
	// After Close: heap kept per journaled message (the journal, which
	// the test may still read), goroutines over the baseline.
	retained        float64
	goroutinesAfter int
}

func (r loadResult) percentile(p float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	i := int(p * float64(len(r.latencies)-1))
	return r.latencies[i]
}

// loadClient is one go-sdk client of a load run and what it received.
type loadClient struct {
	ready chan struct{} // a notification arrived (buffered 1)

	mu       sync.Mutex
	progress []string  // "token:progress" in the order received
	logs     []float64 // the seq of each notifications/message received
}

func (c *loadClient) ping() {
	select {
	case c.ready <- struct{}{}:
	default:
	}
}

// waitFor waits until the client has received want progress notifications
// and wantLogs log notifications, or ctx ends.
func (c *loadClient) waitFor(ctx context.Context, want, wantLogs int) error {
	for {
		c.mu.Lock()
		p, l := len(c.progress), len(c.logs)
		c.mu.Unlock()
		if p >= want && l >= wantLogs {
			return nil
		}
		select {
		case <-c.ready:
		case <-ctx.Done():
			return fmt.Errorf("received %d of %d progress notifications and %d of %d server notifications: %w", p, want, l, wantLogs, ctx.Err())
		}
	}
}

// loadServer is the server of a load run: a tool "tick" that sends
// loadProgress progress notifications about the call, then returns its
// argument n as text.
func loadServer(t testing.TB) *mcptest.Server {
	srv := mcptest.NewServer(t).WithTools(mcptest.NewTool("tick").HandledBy(func(ctx context.Context, req *mcptest.Request) mcptest.Reply {
		for i := 1; i <= loadProgress; i++ {
			if err := req.Progress(float64(i), loadProgress, ""); err != nil {
				return mcptest.ToolErrorResult(err.Error())
			}
		}
		return mcptest.TextResult(req.Arguments().Get("n").Raw)
	}))
	return srv
}

// runLoad runs one load: size.sessions go-sdk clients over transport
// ("pipe" or "http") in era ("handshake" or "stateless"), connected all
// at once, then each making size.calls sequential calls of tick while, in
// the handshake era, the server notifies every session. It fails t if any
// call fails or returns the wrong text, if any notification is lost,
// repeated or out of order, or if the journal misses a call.
func runLoad(t testing.TB, transport, era string, size loadSize) loadResult {
	var res loadResult
	ctx, cancel := context.WithTimeout(context.Background(), loadBudget(size))
	defer cancel()

	srv := loadServer(t)
	// The end: the clients, then the mock (it ends the SSE streams the HTTP
	// server would wait for), then the HTTP server and client.
	closeHS := func() {}
	var closeSessions func()
	defer func() { closeSessions(); srv.Close(); closeHS() }()
	url := ""
	var streams *getStreams
	if transport == "http" {
		// The mock's handler on a loopback server of the test's own, behind
		// a middleware that sees each standalone GET stream open.
		streams = &getStreams{opened: make(chan string, size.sessions*4)}
		hs := httptest.NewServer(streams.wrap(srv.HTTPHandler()))
		closeHS = sync.OnceFunc(hs.Close)
		url = hs.URL
	}
	// One HTTP client for all, as an app would have; its idle connections
	// are closed at the end, so no transport goroutine outlives the run.
	tr := &http.Transport{MaxIdleConnsPerHost: size.sessions * 2}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	clients := make([]*loadClient, size.sessions)
	sessions := make([]*mcp.ClientSession, size.sessions)
	closeSessions = sync.OnceFunc(func() {
		for _, cs := range sessions {
			if cs != nil {
				_ = cs.Close()
			}
		}
	})
	var sopts *mcp.ClientSessionOptions
	if era == "handshake" {
		sopts = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
	}

	runtime.GC()
	runtime.GC()
	var before, open runtime.MemStats
	runtime.ReadMemStats(&before)
	g0 := runtime.NumGoroutine()

	// Connect every client, and make one call each, so that every
	// handshake-era session over HTTP has its GET stream open.
	connect := func(i int) error {
		lc := &loadClient{ready: make(chan struct{}, 1)}
		clients[i] = lc
		c := mcp.NewClient(&mcp.Implementation{Name: "load-" + strconv.Itoa(i), Version: "1.0.0"}, &mcp.ClientOptions{
			ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
				lc.mu.Lock()
				lc.progress = append(lc.progress, fmt.Sprintf("%v:%v", r.Params.ProgressToken, r.Params.Progress))
				lc.mu.Unlock()
				lc.ping()
			},
			LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
				seq, _ := r.Params.Data.(map[string]any)["seq"].(float64)
				lc.mu.Lock()
				lc.logs = append(lc.logs, seq)
				lc.mu.Unlock()
				lc.ping()
			},
		})
		var tr mcp.Transport
		if transport == "http" {
			tr = &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}
		} else {
			conn := srv.Dial()
			tr = &mcp.IOTransport{Reader: conn, Writer: conn}
		}
		cs, err := c.Connect(ctx, tr, sopts)
		if err != nil {
			return fmt.Errorf("client %d: Connect: %w", i, err)
		}
		sessions[i] = cs
		return nil
	}
	call := func(i, n int) (time.Duration, error) {
		p := &mcp.CallToolParams{Name: "tick", Arguments: map[string]any{"n": n}}
		p.SetProgressToken(fmt.Sprintf("c%d-%d", i, n))
		start := time.Now()
		r, err := sessions[i].CallTool(ctx, p)
		d := time.Since(start)
		if err != nil {
			return d, fmt.Errorf("client %d: call %d: %w", i, n, err)
		}
		if r.IsError || len(r.Content) != 1 {
			return d, fmt.Errorf("client %d: call %d: result %s", i, n, jsonText(r))
		}
		if tc, ok := r.Content[0].(*mcp.TextContent); !ok || tc.Text != strconv.Itoa(n) {
			return d, fmt.Errorf("client %d: call %d answered %s, want the text %q (not another call's answer)", i, n, jsonText(r), strconv.Itoa(n))
		}
		return d, nil
	}
	if err := parallel(size.sessions, func(i int) error {
		if err := connect(i); err != nil {
			return err
		}
		_, err := call(i, 0)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if era == "handshake" && transport == "http" {
		// The standalone GET stream of every session is open before the
		// server notifies: the spec lets a client open it when it likes.
		streams.wait(ctx, t, size.sessions)
	}
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&open)
	g1 := runtime.NumGoroutine()
	n := float64(size.sessions)
	res.heap = float64(int64(open.HeapAlloc)-int64(before.HeapAlloc)) / n
	res.stack = float64(int64(open.StackInuse)-int64(before.StackInuse)) / n
	res.goroutines = float64(g1-g0) / n

	// The handshake era's server notifications, while the clients call:
	// to every session in turn, each with its own sequence number.
	// A session is known by the clientInfo name its client sent.
	sent := make([]int, size.sessions)
	notifyDone := make(chan struct{})
	notifyErr := make(chan error, 1)
	ticks := make([]chan struct{}, size.sessions) // a client starts a call
	for i := range ticks {
		ticks[i] = make(chan struct{}, size.calls)
	}
	if era == "handshake" {
		owner := map[*mcptest.Session]int{}
		sessionOf := make([]*mcptest.Session, size.sessions)
		for _, s := range srv.Sessions() {
			for _, m := range srv.Journal().All().InSession(s.Number()).Requests("initialize") {
				i, err := strconv.Atoi(strings.TrimPrefix(m.Get("params.clientInfo.name").String(), "load-"))
				if err != nil || i < 0 || i >= size.sessions {
					t.Fatalf("session %d: initialize from %s, not a client of the load", s.Number(), m.Get("params.clientInfo").Raw)
				}
				owner[s] = i
			}
		}
		if len(owner) != size.sessions {
			t.Fatalf("%d sessions initialized, want %d", len(owner), size.sessions)
		}
		for s, i := range owner {
			sessionOf[i] = s
		}
		// One goroutine per session sends it size.calls notifications
		// while its client calls, each as the client starts a call: paced
		// by the calls, so the notifications flow during the whole load
		// instead of flooding its start (an unpaced sender starved the
		// calls at GOMAXPROCS=1).
		go func() {
			defer close(notifyDone)
			notifyErr <- parallel(size.sessions, func(i int) error {
				s := sessionOf[i]
				for seq := 1; seq <= size.calls; seq++ {
					if _, ok := <-ticks[i]; !ok {
						return nil // the client stopped: its error says why
					}
					if err := s.Notify("notifications/message", map[string]any{"level": "info", "data": map[string]any{"seq": seq}}); err != nil {
						return fmt.Errorf("Notify %d to session %d: %w", seq, s.Number(), err)
					}
					sent[i] = seq
				}
				return nil
			})
		}()
	} else {
		close(notifyDone)
		notifyErr <- nil
	}

	lat := make([][]time.Duration, size.sessions)
	err := parallel(size.sessions, func(i int) error {
		defer close(ticks[i])
		ticks[i] <- struct{}{} // the one of call 0, made before
		for k := 1; k < size.calls; k++ {
			ticks[i] <- struct{}{}
			d, err := call(i, k)
			if err != nil {
				return err
			}
			lat[i] = append(lat[i], d)
		}
		return nil
	})
	<-notifyDone
	if err != nil {
		t.Fatal(err)
	}
	if err := <-notifyErr; err != nil {
		t.Fatal(err)
	}

	// Every notification arrived, once, in order.
	for i, lc := range clients {
		wantLogs := sent[i]
		if err := lc.waitFor(ctx, size.calls*loadProgress, wantLogs); err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
		lc.mu.Lock()
		var want []string
		for k := range size.calls {
			for p := 1; p <= loadProgress; p++ {
				want = append(want, fmt.Sprintf("c%d-%d:%d", i, k, p))
			}
		}
		if !slices.Equal(lc.progress, want) {
			t.Errorf("client %d: progress notifications %v, want %v (each once, in order)", i, lc.progress, want)
		}
		for j, seq := range lc.logs {
			if int(seq) != j+1 {
				t.Errorf("client %d: server notification %d has seq %v, want %d (each once, in order): %v", i, j, seq, j+1, lc.logs)
				break
			}
		}
		if len(lc.logs) != wantLogs {
			t.Errorf("client %d: %d server notifications, the server sent %d", i, len(lc.logs), wantLogs)
		}
		res.notifications += len(lc.progress) + len(lc.logs)
		lc.mu.Unlock()
	}
	if got, want := len(srv.Journal().All().ToolCalls("tick")), size.sessions*size.calls; got != want {
		t.Errorf("the journal holds %d tools/call of tick, want %d", got, want)
	}
	srv.AssertNoViolations(t)
	res.messages = srv.Journal().Len()
	for _, l := range lat {
		res.latencies = append(res.latencies, l...)
	}
	slices.Sort(res.latencies)

	// After Close, what is left is the journal the test may still read.
	closeSessions()
	srv.Close()
	closeHS()
	tr.CloseIdleConnections()
	runtime.GC()
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	res.retained = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(res.messages)
	res.goroutinesAfter = runtime.NumGoroutine() - g0
	return res
}

// loadBudget is how long a load run may take in all: generous, and scaled
// with the work, so a busy machine is not a failure but a hang is.
func loadBudget(size loadSize) time.Duration {
	return 30*time.Second + time.Duration(size.sessions*size.calls)*5*time.Millisecond
}

// getStreams sees the standalone GET streams of an HTTP handler open:
// the session id of each GET answered 200 goes to opened.
type getStreams struct{ opened chan string }

func (g *getStreams) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w = &getStreamWriter{ResponseWriter: w, id: r.Header.Get("Mcp-Session-Id"), opened: g.opened}
		}
		h.ServeHTTP(w, r)
	})
}

// wait waits until n distinct sessions have opened a GET stream.
func (g *getStreams) wait(ctx context.Context, t testing.TB, n int) {
	t.Helper()
	seen := map[string]bool{}
	for len(seen) < n {
		select {
		case id := <-g.opened:
			seen[id] = true
		case <-ctx.Done():
			t.Fatalf("%d of %d sessions opened their standalone GET stream: %v", len(seen), n, ctx.Err())
		}
	}
}

type getStreamWriter struct {
	http.ResponseWriter
	id     string
	opened chan string
	once   sync.Once
}

func (w *getStreamWriter) WriteHeader(code int) {
	if code == http.StatusOK {
		w.once.Do(func() { w.opened <- w.id })
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *getStreamWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *getStreamWriter) Flush() { http.NewResponseController(w.ResponseWriter).Flush() }

// parallel runs f(0) … f(n-1) at once and returns the first error.
func parallel(n int, f func(i int) error) error {
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- f(i)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestLoad runs the load of issue 23 over the pipe and Streamable HTTP, in
// both eras, at the CI size (MCPMOCK_LOAD=full: the size), and
// logs what it measured; BenchmarkLoad is the place for the figures.
func TestLoad(t *testing.T) {
	size := loadSizeFromEnv(t)
	for _, transport := range []string{"pipe", "http"} {
		for _, era := range []string{"handshake", "stateless"} {
			t.Run(transport+"/"+era, func(t *testing.T) {
				benchNoLeaks(t)
				r := runLoad(t, transport, era, size)
				t.Logf("%d sessions × %d calls: p50 %v, p99 %v; per open session %.0f B heap, %.0f B stacks, %.1f goroutines; %d notifications received, %d messages journaled; after Close %.0f B a journaled message, %d goroutines over the baseline",
					size.sessions, size.calls, r.percentile(0.5), r.percentile(0.99), r.heap, r.stack, r.goroutines, r.notifications, r.messages, r.retained, r.goroutinesAfter)
			})
		}
	}
}

// BenchmarkLoad runs the load of TestLoad (its size: MCPMOCK_LOAD) once per
// iteration over the pipe and Streamable HTTP, in both eras, and reports
// the p50 and p99 of a call, what each open session holds (client end
// included: the go-sdk client's own memory differs by transport), and the
// heap kept after Close per journaled message.
//
//	go test -run '^$' -bench '^BenchmarkLoad$' -benchtime 3x ./integration
func BenchmarkLoad(b *testing.B) {
	size := loadSizeFromEnv(b)
	for _, transport := range []string{"pipe", "http"} {
		for _, era := range []string{"handshake", "stateless"} {
			b.Run(transport+"/"+era, func(b *testing.B) {
				benchNoLeaks(b)
				var p50, p99, heap, stack, gor, kept float64
				n := 0
				for b.Loop() {
					r := runLoad(b, transport, era, size)
					p50 += float64(r.percentile(0.5).Microseconds())
					p99 += float64(r.percentile(0.99).Microseconds())
					heap, stack, gor, kept = heap+r.heap, stack+r.stack, gor+r.goroutines, kept+r.retained
					n++
				}
				f := float64(n)
				b.ReportMetric(p50/f, "p50-µs")
				b.ReportMetric(p99/f, "p99-µs")
				b.ReportMetric(heap/f, "heapB/session")
				b.ReportMetric(stack/f, "stackB/session")
				b.ReportMetric(gor/f, "goroutines/session")
				b.ReportMetric(kept/f, "keptB/message")
			})
		}
	}
}
