package mcptest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

func recordN(j *Journal, n int, method string) {
	for i := 0; i < n; i++ {
		j.record(Message{SessionNumber: 1, Direction: FromClient, Kind: KindRequest, Method: method, ID: fmt.Sprint(i), raw: "{}"})
	}
}

// TestJournalViewsAreSnapshots: a view is never changed by what is
// recorded or amended after it was taken; All is a copy.
func TestJournalViewsAreSnapshots(t *testing.T) {
	j := newJournal()
	recordN(j, 3, "ping")
	v := j.view()
	all := j.All()
	recordN(j, 100, "tools/list") // appends past the view, and regrows the storage
	j.amend(2, func(m *Message) { m.Kind, m.Problem = KindInvalid, "cut" })
	if len(v) != 3 || cap(v) != 3 || v[1].Kind != KindRequest || v[1].Problem != "" {
		t.Fatalf("want the view of 3 messages unchanged by later records and amends, got %d (cap %d), #2 %s", len(v), cap(v), v[1])
	}
	if got := j.view(); len(got) != 103 || got[1].Kind != KindInvalid || got[1].Problem != "cut" {
		t.Fatalf("want a new view to show the amended message, got %d messages, #2 %s", len(got), got[1])
	}
	all[0].Method = "changed"
	if j.view()[0].Method != "ping" {
		t.Fatalf("want All to be a copy, changing it changed the journal")
	}
	// Without a view handed out, amend changes the storage in place.
	j2 := newJournal()
	recordN(j2, 2, "ping")
	j2.amend(1, func(m *Message) { m.Problem = "x" })
	j2.amend(9, func(m *Message) { t.Fatal("amend of a Seq that was not recorded must do nothing") })
	if j2.view()[0].Problem != "x" {
		t.Fatalf("want the amend kept")
	}
}

// TestJournalGrowsWithoutCopying: once its storage is full, the journal
// records into segments of its own and moves nothing while nobody reads
// it; a read folds the segments back into one slice, in wire order, with
// every view taken before it unchanged, and reads in between see every
// message.
func TestJournalGrowsWithoutCopying(t *testing.T) {
	j := newJournal()
	recordN(j, 16, "ping")
	first := &j.msgs[0]
	recordN(j, 1000, "tools/list")
	if &j.msgs[0] != first || len(j.msgs) != 16 {
		t.Fatalf("want the first 16 messages left where they were while nobody read the journal, got %d messages flat (moved: %v)", len(j.msgs), &j.msgs[0] != first)
	}
	if len(j.more) < 2 || j.Len() != 1016 {
		t.Fatalf("want the 1,000 later messages in segments (a doubling room), got %d segments, Len %d", len(j.more), j.Len())
	}
	var views []Messages
	for round := 0; round < 40; round++ {
		views = append(views, j.view())
		if round%3 == 0 {
			if got := j.count(selector{method: "ping"}); got != 16+round {
				t.Fatalf("round %d: count of ping is %d, want %d", round, got, 16+round)
			}
		}
		recordN(j, round*7+1, "tools/list")
		j.record(Message{SessionNumber: 1, Direction: FromClient, Kind: KindRequest, Method: "ping", raw: "{}"})
	}
	all := j.view()
	for i, m := range all {
		if m.Seq != i+1 {
			t.Fatalf("message %d has Seq %d: out of wire order", i+1, m.Seq)
		}
	}
	for _, v := range views {
		for i, m := range v {
			if m.Seq != i+1 || m.Method != all[i].Method {
				t.Fatalf("a view of %d messages changed at #%d: %s, now %s", len(v), i+1, m, all[i])
			}
		}
	}
	// amend of a message still in a segment
	recordN(j, len(all), "tools/call")
	last := j.Len()
	j.amend(last, func(m *Message) { m.Problem = "cut" })
	if got := j.view(); len(got) != last || got[last-1].Problem != "cut" || len(all) != cap(all) {
		t.Fatalf("want the amend of #%d kept and the earlier view of %d untouched, got %d messages, last %s", last, len(all), len(got), got[len(got)-1])
	}
}

// TestJournalWatchWakesOnlyForMatches: a watcher is signalled only by the
// messages its selector selects, and watch finds the first match in wire
// order, through the index, then the ones recorded later.
func TestJournalWatchWakesOnlyForMatches(t *testing.T) {
	j := newJournal()
	w := j.addWatcher(&selector{kinds: kindsRequest, method: "tools/call"})
	recordN(j, 50, "ping")
	j.record(Message{SessionNumber: 1, Direction: FromClient, Kind: KindResult, Method: "tools/call", ID: "1"})
	if len(w.signal) != 0 {
		t.Fatal("want no signal for messages the selector rejects")
	}
	recordN(j, 1, "tools/call")
	if len(w.signal) != 1 {
		t.Fatal("want a signal for a message the selector selects")
	}
	j.unwatch(w)

	var steps []int
	got := make(chan Message, 1)
	watching := make(chan struct{})
	go func() {
		m, _ := j.watch(context.Background(), &selector{method: "tools/call", kinds: kindsRequest}, func(m Message) bool {
			steps = append(steps, m.Seq)
			if m.Seq == 52 {
				close(watching) // the one already there was looked at
			}
			return m.ID == `"a"`
		})
		got <- m
	}()
	<-watching
	recordN(j, 50, "ping")
	j.record(Message{SessionNumber: 1, Direction: FromClient, Kind: KindRequest, Method: "tools/call", ID: `"a"`})
	j.record(Message{SessionNumber: 1, Direction: FromClient, Kind: KindRequest, Method: "tools/call", ID: `"b"`})
	select {
	case m := <-got:
		if m.ID != `"a"` || m.Seq != 103 {
			t.Errorf(`want the first tools/call with id "a", #103, got %s`, m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("want the waiter woken by the matching message")
	}
	if fmt.Sprint(steps) != "[52 103]" {
		t.Errorf("want step called for the selected messages only, once each, got %v", steps)
	}
	j.mu.Lock()
	n := len(j.watchers)
	j.mu.Unlock()
	if n != 0 {
		t.Errorf("want the watcher removed once it returned, %d left", n)
	}
}

// TestJournalWatchLastLook: when ctx ends, what was recorded before counts.
func TestJournalWatchLastLook(t *testing.T) {
	j := newJournal()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, ok := j.watch(ctx, nil, func(Message) bool { return true }); ok {
		t.Fatal("want no match in an empty journal")
	}
	recordN(j, 1, "ping")
	if m, ok := j.watch(ctx, nil, func(m Message) bool { return m.Method == "ping" }); !ok || m.Seq != 1 {
		t.Fatalf("want the ping recorded before ctx ended, got %v %v", m, ok)
	}
	if msgs, ok := j.waitView(ctx, nil, func(ms Messages) bool { return len(ms) == 1 }); !ok || len(msgs) != 1 {
		t.Fatalf("waitView: want the condition true over the journal, got %v", ok)
	}
}

// TestJournalConcurrentWatchers: waiters come and go while sessions record.
func TestJournalConcurrentWatchers(t *testing.T) {
	j := newJournal()
	const writers, each = 4, 300
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			recordN(j, each, fmt.Sprintf("m%d", w))
		}()
	}
	for w := 0; w < writers; w++ {
		method := fmt.Sprintf("m%d", w)
		m, ok := j.watch(context.Background(), &selector{method: method}, func(m Message) bool {
			return m.Method == method && m.ID == fmt.Sprint(each-1)
		})
		if !ok || m.Method != method {
			t.Fatalf("want the last %s, got %v", method, m)
		}
	}
	wg.Wait()
	for i, m := range j.view() {
		if m.Seq != i+1 {
			t.Fatalf("want Seq %d at %d, got %d", i+1, i, m.Seq)
		}
	}
}

func TestIDSetMemory(t *testing.T) {
	var s idSet
	for _, id := range []string{"16777215", "16777216", "1099511627776", "4095", "4096"} {
		if !s.add(id) || s.add(id) {
			t.Errorf("add(%s): want new once, then a duplicate", id)
		}
	}
	if len(s.bits) != idDenseMax/64 || len(s.sparse) != 4 || len(s.other) != 0 {
		t.Errorf("want 4095 in the dense bits (64 words), the 4 large ids in 4 sparse words, none in the map; got %d words, %d sparse, %d other", len(s.bits), len(s.sparse), len(s.other))
	}
	for _, id := range []string{"01", "1e3", "1.0", "-5", `"7"`, "1234567890123456789"} {
		if !s.add(id) || s.add(id) {
			t.Errorf("add(%s): want new once, then a duplicate", id)
		}
	}
	if len(s.other) != 6 {
		t.Errorf("want the non-canonical and string ids kept as text, got %d", len(s.other))
	}
	if n := testing.AllocsPerRun(100, func() { s.add("3999") }); n != 0 {
		t.Errorf("want add of a small integer id not to allocate, got %v allocs", n)
	}
}

// TestPipeLendsLargeFrames: a large frame of the mock is read as written,
// interleaved with copied writes, and the pipe never writes into it.
func TestPipeLendsLargeFrames(t *testing.T) {
	client, server := newPipe("c", "s")
	defer client.Close()
	defer server.Close()
	big := []byte(strings.Repeat("x", lendMin*2) + "\n")
	keep := string(big)
	if _, err := server.writeOwned(big); err != nil {
		t.Fatal(err)
	}
	head := make([]byte, 100)
	mustReadFull(t, client, head)
	mustWrite(t, server, "small\n") // the rest of the lent frame moves into the pipe's buffer first
	if _, err := server.writeOwned(big); err != nil {
		t.Fatal(err)
	}
	rest := make([]byte, len(big)-100+len("small\n")+len(big))
	mustReadFull(t, client, rest)
	if got := string(head) + string(rest); got != keep+"small\n"+keep {
		t.Fatalf("want both frames and the small write in order, got %d bytes", len(got))
	}
	if string(big) != keep {
		t.Fatal("want the lent frame never written into")
	}
	if p := server.wr; p.lent || cap(p.buf) > keepMax {
		t.Errorf("want a drained pipe to hold no lent frame nor a large buffer, lent=%v cap=%d", p.lent, cap(p.buf))
	}
}

// TestPipeKeepsItsBuffer: a write and read cycle of small messages
// allocates nothing once the buffer has grown.
func TestPipeKeepsItsBuffer(t *testing.T) {
	client, server := newPipe("c", "s")
	defer client.Close()
	defer server.Close()
	msg := []byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n")
	buf := make([]byte, 256)
	cycle := func() {
		_, _ = server.writeOwned(msg)
		_, _ = server.Write(msg)
		_, _ = client.Read(buf)
	}
	cycle()
	if n := testing.AllocsPerRun(200, cycle); n != 0 {
		t.Errorf("want no allocation per write and read, got %v", n)
	}
}

func mustReadFull(t *testing.T, c *pipeConn, b []byte) {
	t.Helper()
	for n := 0; n < len(b); {
		k, err := c.Read(b[n:])
		if err != nil {
			t.Fatalf("read: %v after %d of %d bytes", err, n, len(b))
		}
		n += k
	}
}

// TestWatcherSharesNoStorage: a watcher (Await, and serve's wait for the
// sessions to end) reads each new message by copying it, never through a
// view, so that the amend over HTTP of every message the mock sends
// changes the storage in place instead of copying the whole journal each
// time (issue 32: serve --http took 1.5 ms a call after 10,000 calls, for
// this). It still sees every message, in wire order, once.
func TestWatcherSharesNoStorage(t *testing.T) {
	j := newJournal()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stepped := make(chan string, 1000)
	done := make(chan struct{})
	go func() {
		defer close(done)
		j.watch(ctx, nil, func(m Message) bool { stepped <- m.ID; return m.ID == "599" })
	}()
	for i := range 600 {
		j.record(Message{SessionNumber: 1, Direction: FromServer, Kind: KindResult, Method: "ping", ID: fmt.Sprint(i), raw: "{}"})
		j.amend(i+1, func(m *Message) { m.HTTP = &HTTPExchange{Status: 200} })
	}
	<-done
	for i := range 600 {
		if got := <-stepped; got != fmt.Sprint(i) {
			t.Fatalf("want the watcher to step through every message once in wire order, got id %s for the message %d", got, i)
		}
	}
	j.mu.Lock()
	shared := j.shared
	j.mu.Unlock()
	if shared {
		t.Fatal("want a watcher to leave the storage unshared (so that amend changes it in place), but it took a view")
	}
}
