package scenarios_test

import (
	"context"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mcpmock/mcpmock/internal/mcpclient"
	"github.com/mcpmock/mcpmock/scenarios"
)

// goldenConnect is the golden client (internal/mcpclient) as a scenario's
// client: it probes with server/discover (giving up on the probe after
// half the deadline), exercises everything the server declared, and ends
// the session. Over HTTP it starts a new session when the server answers
// 404 for its session, and falls back to the HTTP+SSE transport when the
// initialize POST gets 400, 404 or 405, as the spec's backwards
// compatibility section says.
func goldenConnect(overHTTP bool) scenarios.ConnectFunc { return goldenPinned(overHTTP, "") }

// goldenPinned is goldenConnect with Options.Version pinned ("" probes).
func goldenPinned(overHTTP bool, version string) scenarios.ConnectFunc {
	return func(ctx context.Context, ep *scenarios.Endpoint) error {
		opt := mcpclient.Options{Version: version}
		if d, ok := ctx.Deadline(); ok {
			opt.ProbeTimeout = timeUntil(d) / 2
		}
		d := mcpclient.Dialer{Open: func() (io.ReadWriteCloser, error) { return ep.Open() }}
		if overHTTP {
			d.URL = ep.URL()
		}
		return mcpclient.Run(ctx, d, opt, func(ctx context.Context, c *mcpclient.Client) error {
			_, err := c.Exercise(ctx)
			return err
		})
	}
}

// TestGoldenScenarios plays every scenario with the golden client, over
// the pipe and over Streamable HTTP, and asserts that no rule blames it
// and that it passes every scenario that applies.
func TestGoldenScenarios(t *testing.T) {
	run, wait := goldenRunner(t)
	defer wait()
	for _, overHTTP := range []bool{false, true} {
		transport := "pipe"
		if overHTTP {
			transport = "http"
		}
		for _, sc := range scenarios.All() {
			run(transport+"/"+sc.Name, func(t *testing.T) {
				o := sc.Play(t, goldenConnect(overHTTP))
				for _, v := range o.Violations {
					t.Errorf("false blame: %s", v)
				}
				r := sc.Evaluate(o)
				if r.Status != scenarios.Pass && r.Status != scenarios.NotApplicable {
					t.Errorf("the golden client: %s\n%s", r, o.Journal.Transcript())
				}
			})
		}
	}
}

func timeUntil(d time.Time) time.Duration { return time.Until(d) }

// TestGoldenScenariosPinned plays every scenario with the golden client
// pinned to each version it speaks, over the pipe and Streamable HTTP:
// the verdicts are not this test's business (a pinned client skips the
// probe some scenarios judge), but no rule may blame it. Its ~700 plays
// run goldenPlays at a time: one after another they took longer than the
// package's share of go test's timeout under -count=3 -cpu 1,2,4.
func TestGoldenScenariosPinned(t *testing.T) {
	versions := append(slices.Clone(mcpclient.HandshakeVersions), mcpclient.StatelessVersion)
	run, wait := goldenRunner(t)
	defer wait()
	for _, sc := range scenarios.All() { // the HTTP+SSE transport of 2024-11-05
		run("legacy-sse/2024-11-05/"+sc.Name, func(t *testing.T) {
			o := sc.Play(t, func(ctx context.Context, ep *scenarios.Endpoint) error {
				c := mcpclient.LegacySSE(ep.URL(), mcpclient.Options{})
				defer c.Close()
				if err := c.Connect(ctx); err != nil {
					return err
				}
				_, err := c.Exercise(ctx)
				return err
			})
			for _, viol := range o.Violations {
				t.Errorf("false blame: %s\n%s", viol, o.Journal.Transcript())
			}
		})
	}
	for _, overHTTP := range []bool{false, true} {
		transport := "pipe"
		if overHTTP {
			transport = "http"
		}
		for _, v := range versions {
			for _, sc := range scenarios.All() {
				run(transport+"/"+v+"/"+sc.Name, func(t *testing.T) {
					o := sc.Play(t, goldenPinned(overHTTP, v))
					for _, viol := range o.Violations {
						t.Errorf("false blame: %s\n%s", viol, o.Journal.Transcript())
					}
				})
			}
		}
	}
}

// goldenPlays is how many plays of the golden tests run at once: most of
// their time is waiting (for a deadline the scenario lets pass), not work.
const goldenPlays = 8

// goldenRunner returns run, a t.Run that runs its subtest in a goroutine,
// goldenPlays at a time, and wait, which the test defers: every run
// returns before the test does, as t.Run asks. Not t.Parallel: -parallel
// (GOMAXPROCS by default) would cap plays that mostly wait at 2 on a
// 2-CPU machine.
func goldenRunner(t *testing.T) (run func(name string, f func(t *testing.T)), wait func()) {
	var wg sync.WaitGroup
	slots := make(chan struct{}, goldenPlays)
	run = func(name string, f func(t *testing.T)) {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			t.Run(name, f)
		}()
	}
	return run, wg.Wait
}
