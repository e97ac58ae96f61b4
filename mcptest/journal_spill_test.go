package mcptest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// recordVaried records n messages of both directions and kinds, with
// frames that JSON escapes (quotes, "<", a newline inside a string) and
// an HTTP exchange on some, as a long session has them.
func recordVaried(j *Journal, n int) {
	for i := range n {
		m := Message{SessionNumber: 1 + i%3, Direction: FromClient, Kind: KindRequest, Method: "tools/call", ID: fmt.Sprint(i), tool: "t<&>",
			Time: time.Unix(int64(i), 0).UTC(), raw: fmt.Sprintf(`{"jsonrpc":"2.0", "id":%d,"method":"tools/call","params":{"name":"t<&>","arguments":{"s":"a\"b\nc"}}}`, i)}
		if i%2 == 1 {
			m = Message{SessionNumber: 1 + i%3, Direction: FromServer, Kind: KindError, Method: "tools/call", ID: fmt.Sprint(i - 1), ErrorCode: -32602,
				Problem: "p", HTTP: &HTTPExchange{Method: "POST", Status: 200, EventID: "e"}, Time: time.Unix(int64(i), 0).UTC(), raw: "not json {\x01\t\r\n\"\\ é\u2028</>&"}
		}
		j.record(m)
	}
}

// TestJournalWindowSpills: under JournalKeep the journal holds about the
// last JournalKeep messages in memory; the older ones go to the spill file
// whole and in order, Seq numbers unchanged; All, at and the file after
// finishSpill (Close) give back every message as it was recorded.
func TestJournalWindowSpills(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	want := newJournal()
	recordVaried(want, 1000)
	j := newJournal()
	if err := j.setWindow(50, path); err != nil {
		t.Fatal(err)
	}
	recordVaried(j, 1000)
	recent := j.recent()
	if j.Len() != 1000 || len(recent) < 50 || len(recent) > 50+evictChunk(50) || recent[len(recent)-1].Seq != 1000 {
		t.Fatalf("want 1000 messages recorded, the last 50 to %d in memory ending with 1000, got Len %d and %d in memory", 50+evictChunk(50), j.Len(), len(recent))
	}
	if cap(j.msgs) > 50+evictChunk(50) || len(j.more) != 0 {
		t.Fatalf("want the storage no larger than the window, got cap %d and %d segments", cap(j.msgs), len(j.more))
	}
	all := j.All()
	if len(all) != 1000 {
		t.Fatalf("want All to read back every message, got %d", len(all))
	}
	for i, m := range want.All() {
		if fmt.Sprint(all[i]) != fmt.Sprint(m) || all[i].raw != m.raw || all[i].tool != m.tool || !all[i].Time.Equal(m.Time) || (m.HTTP != nil) != (all[i].HTTP != nil) {
			t.Fatalf("message %d read back as %+v, want %+v", i+1, all[i], m)
		}
	}
	for _, seq := range []int{1, 255, 256, 257, 513, 999, 1000} {
		m, err := j.at(seq)
		if err != nil || m.Seq != seq || m.raw != all[seq-1].raw {
			t.Fatalf("at(%d) = %d, %v; want message %d", seq, m.Seq, err, seq)
		}
	}
	if _, err := j.at(1001); err == nil || !strings.Contains(err.Error(), "1001") {
		t.Fatalf("at(1001) = %v, want an error naming it", err)
	}
	j.finishSpill()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var l spillLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil || l.Seq != n+1 || l.Raw != all[n].raw {
			t.Fatalf("line %d of the file: %v, seq %d raw %q; want message %d", n+1, err, l.Seq, l.Raw, n+1)
		}
		n++
	}
	if n != 1000 {
		t.Fatalf("want the file to hold every message after finishSpill, got %d lines", n)
	}
	j.finishSpill() // again: writes nothing twice
	if st, _ := os.Stat(path); st.Size() != j.spill.off {
		t.Fatalf("want a second finishSpill to write nothing")
	}
}

// TestJournalWindowDrops: without a spill file the oldest messages are
// dropped; looking one up fails naming the message and the window, and a
// watcher started late sees the messages in memory.
func TestJournalWindowDrops(t *testing.T) {
	j := newJournal()
	_ = j.setWindow(50, "")
	recordN(j, 200, "ping")
	if len(j.All()) > 50+evictChunk(50) || j.Len() != 200 {
		t.Fatalf("want the dropped messages gone, got %d of %d", len(j.All()), j.Len())
	}
	_, err := j.at(3)
	if err == nil || !strings.Contains(err.Error(), "message 3 was dropped") || !strings.Contains(err.Error(), "last 50") {
		t.Fatalf("at(3) = %v, want it to say message 3 was dropped under a window of 50", err)
	}
	j.amend(3, func(*Message) { t.Fatal("amend of a dropped message must do nothing") })
	j.amend(200, func(m *Message) { m.Problem = "x" })
	if m, _ := j.at(200); m.Problem != "x" {
		t.Fatalf("want the amend of a message in memory kept")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	seen := 0
	first := 0
	j.watch(ctx, nil, func(m Message) bool {
		if seen == 0 {
			first = m.Seq
		}
		seen++
		return false
	})
	if recent := j.recent(); seen != len(recent) || first != recent[0].Seq {
		t.Fatalf("want a watcher to step through the %d messages in memory from %d, got %d from %d", len(recent), recent[0].Seq, seen, first)
	}
}

// TestJournalWindowUnwritable: a spill file that cannot be written makes
// the journal keep every message, and Verify say why.
func TestJournalWindowUnwritable(t *testing.T) {
	srv := NewServer(t).WithOptions(Options{JournalKeep: 4, JournalSpill: filepath.Join(t.TempDir(), "no", "such", "dir", "j.jsonl")})
	srv.IgnoreViolations()
	c := srv.Dial()
	go func() { _, _ = io.Copy(io.Discard, c) }()
	for i := range 10 {
		fmt.Fprintf(c, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i)
	}
	srv.WaitFor(t, Matcher{Description: "10 pings", Match: func(m Message) bool { return m.Seq >= 20 }})
	if got := len(srv.journal.recent()); got != 20 {
		t.Fatalf("want every message kept in memory when the file cannot be written, got %d of 20", got)
	}
	err := srv.Verify()
	if err == nil || !strings.Contains(err.Error(), "could not write its spill file") {
		t.Fatalf("want Verify to say the spill file could not be written, got %v", err)
	}
	_ = c.Close()
	srv.Close()
	srv.journal.mu.Lock()
	srv.journal.spill = nil // the failure is this test's point: the cleanup's Verify must not fail it
	srv.journal.mu.Unlock()
}

// TestJournalWindowBoundsViolations: under JournalKeep a rule broken on
// every message is listed 100 times a session, the last one counting the
// rest; without it every violation is listed.
func TestJournalWindowBoundsViolations(t *testing.T) {
	for _, keep := range []int{0, 20} {
		srv := NewServer(t).WithOptions(Options{JournalKeep: keep}).IgnoreViolations()
		c := srv.Dial()
		go func() { _, _ = io.Copy(io.Discard, c) }()
		for i := range 150 { // requests before initialize: lifecycle/initialize-first each time
			fmt.Fprintf(c, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`+"\n", i)
		}
		srv.WaitFor(t, Matcher{Description: "150 answers", Match: func(m Message) bool { return m.Seq >= 300 }})
		vs := srv.Violations()
		total, listed := 0, 0
		for _, v := range vs {
			if v.Rule == ruleInitializeFirst {
				total += 1 + v.Repeats
				listed++
			}
		}
		want := 150
		if keep > 0 {
			want = violationsKept
		}
		if total != 150 || listed != want {
			t.Fatalf("JournalKeep %d: want %s broken 150 times, %d listed; got %d times, %d listed", keep, ruleInitializeFirst, want, total, listed)
		}
		if keep > 0 && !strings.Contains(formatViolations(vs), "and 50 more times in session 1") {
			t.Fatalf("want the failure text to count the unlisted ones:\n%s", formatViolations(vs))
		}
		_ = c.Close()
	}
}

// BenchmarkJournalRecord: what recording a message costs with every message
// in memory (all), and under a window whose oldest messages go to a file
// (spill) or nowhere (drop): the spill's share is its JSON line.
func BenchmarkJournalRecord(b *testing.B) {
	raw := `{"jsonrpc":"2.0","id":12345,"method":"tools/call","params":{"name":"suggest_gifts","arguments":{"age":8}}}`
	x := &HTTPExchange{Method: "POST", Status: 200, ContentType: "application/json", SessionID: "0b7d3f0e-6d0c-4c1e-9f1e-2d8c1f1f0a11"}
	for _, mode := range []string{"all", "drop", "spill"} {
		b.Run(mode, func(b *testing.B) {
			j := newJournal()
			switch mode {
			case "drop":
				_ = j.setWindow(10000, "")
			case "spill":
				_ = j.setWindow(10000, filepath.Join(b.TempDir(), "j.jsonl"))
			}
			now := time.Now()
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				j.record(Message{SessionNumber: 1, Direction: FromClient, Kind: KindRequest, Method: "tools/call", ID: "12345", tool: "suggest_gifts", Time: now, HTTP: x, raw: raw})
			}
		})
	}
}

// TestJournalWindowCounts: under JournalKeep the counting assertions count
// the messages that left memory too: AssertCalledTimes from the counts the
// journal keeps, any other selector by reading the file back.
func TestJournalWindowCounts(t *testing.T) {
	for _, spill := range []string{"", filepath.Join(t.TempDir(), "j.jsonl")} {
		srv := NewServer(t).WithOptions(Options{JournalKeep: 20, JournalSpill: spill}).IgnoreViolations()
		c := srv.Dial()
		go func() { _, _ = io.Copy(io.Discard, c) }()
		for i := range 100 {
			fmt.Fprintf(c, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i)
		}
		srv.AssertCalledTimes(t, "ping", 100)
		if spill != "" {
			if n := srv.journal.count(selector{dir: FromServer, kinds: kindsResponse}); n != 100 {
				t.Fatalf("want the 100 answers counted, read back from the file, got %d", n)
			}
		}
		_ = c.Close()
	}
}
