package mcptest

import (
	"fmt"
	"math/rand"
	"time"
)

// Options are the server's settings besides what it serves (WithTools,
// WithResources, WithPrompts…), the versions it speaks
// (WithProtocolVersions), its faults and its HTTP front (WithHTTP): who it
// says it is, how it pages and caches lists, and how long a test waits on
// it. Give them with WithOptions. A zero field leaves its setting as it is,
// so calls add up: WithOptions(Options{PageSize: 2}) changes the page
// size alone.
type Options struct {
	// Name, Version and Title are the serverInfo of the initialize result
	// and of the stateless era's _meta (Title from 2025-06-18 on). The
	// defaults are "mcptest", "0.0.0" and no title.
	Name, Version, Title string
	// Instructions are the initialize result's instructions (none by default).
	Instructions string
	// Logging declares the logging capability: logging/setLevel is then
	// answered, and the level kept per session (Session.LogLevel).
	Logging bool
	// PageSize makes tools/list, resources/list, resources/templates/list
	// and prompts/list return at most this many items a page, with an
	// opaque nextCursor (0: every item on one page).
	PageSize int
	// EmptyStringCursor makes the cursor of every list's second page the
	// empty string in stateless sessions, as the 2026-07-28 spec allows
	// ("an empty string is a valid cursor and MUST NOT be treated as the
	// end of results"): a client that stops at nextCursor "" misses every
	// page after the first. It needs PageSize.
	EmptyStringCursor bool
	// CacheTTL and CacheScope are the ttlMs and cacheScope ("public" or
	// "private") of stateless-era list, read and discover results. The
	// defaults are 0 ms and "public": results are stale at once, so a
	// caching client asks again.
	CacheTTL   time.Duration
	CacheScope string
	// WaitTimeout is how long WaitFor and the waiting assertions wait
	// (default 10 s).
	WaitTimeout time.Duration
	// CloseGrace is how long Close waits for handlers to return once it
	// has cancelled their contexts (default 5 s). A handler still running
	// after that fails the test, named with its method, and Close returns
	// without it.
	CloseGrace time.Duration
	// JournalLimit makes the journal keep at most the first JournalLimit
	// bytes of each message's raw text, for long sessions with large
	// payloads (0 keeps everything). A message's metadata (Seq,
	// SessionNumber, Direction, Time, Kind, Method, ID, ErrorCode,
	// Problem, and the tool a tools/call names) is always kept whole, and
	// Message.Truncated says how much of Raw was left out; so are
	// initialize and server/discover and their replies. What reads the
	// raw text (Get, Where, ToolCall's argument subsets, the transcript)
	// sees only what was kept; the mock itself serves every message whole.
	// Keep it above the size of the messages your assertions read (a few
	// KiB). Besides what it keeps of the raw text, the journal costs 184
	// bytes a message (the Message and its index entry), and up to as much
	// again of room it has grown into and not yet filled.
	JournalLimit int
	// JournalKeep makes the journal keep at most about JournalKeep
	// messages in memory (0, the default: every message, as a test wants):
	// once it holds JournalKeep and a quarter more, the oldest quarter
	// leaves memory, for a process that serves one long session
	// (`mcpmock serve` keeps 10,000). Sequence numbers do not change. The
	// messages that leave go to the file JournalSpill, one JSON object a
	// line, or nowhere when JournalSpill is "" (dropped). Close writes the
	// messages still in memory to the file too, so that it then holds the
	// whole journal. All returns every message (read back from the file),
	// Await steps through the messages in memory, a message looked up by its number is read
	// back, and the client checks keep their own state as messages come,
	// so no verdict depends on what left memory; AssertCalledTimes and
	// AssertNotCalled count every message, the other assertions and
	// WaitFor read what is in memory. Under it a rule broken more than
	// 100 times in a session is listed 100 times (Violation.Repeats counts
	// the rest). Set it before the first session.
	JournalKeep int
	// JournalSpill is the file the messages that leave memory under
	// JournalKeep go to; it is created (or emptied) when the first message
	// leaves memory (a session shorter than JournalKeep makes none), and an
	// error writing it makes the journal keep every message from then on
	// and Verify report it. Each line holds a message's fields (seq, session, direction
	// "client" or "server", kind, time, method, id, …) and its raw frame
	// ("raw", the text Message.Raw returns).
	JournalSpill string
	// FaultSeed seeds the source Fault.WithProbability draws from, so that
	// a run with probabilistic faults can be repeated (0: the default
	// seed, 1).
	FaultSeed int64
}

// WithOptions sets the server's Options: each field that is not zero
// replaces its setting. Like every With… method it must come before the
// first Dial (or URL, HTTPHandler, Serve); a negative number, or a
// CacheScope other than "public" and "private", fails the test naming the
// field.
func (s *Server) WithOptions(o Options) *Server {
	s.t.Helper()
	return s.configure("WithOptions", func() error {
		switch {
		case o.PageSize < 0:
			return fmt.Errorf("PageSize %d is negative", o.PageSize)
		case o.CacheTTL < 0:
			return fmt.Errorf("CacheTTL %v is negative", o.CacheTTL)
		case o.CacheScope != "" && o.CacheScope != "public" && o.CacheScope != "private":
			return fmt.Errorf("CacheScope %q: want \"public\" or \"private\"", o.CacheScope)
		case o.WaitTimeout < 0:
			return fmt.Errorf("WaitTimeout %v is negative", o.WaitTimeout)
		case o.CloseGrace < 0:
			return fmt.Errorf("CloseGrace %v is negative", o.CloseGrace)
		case o.JournalLimit < 0:
			return fmt.Errorf("JournalLimit %d is negative; 0 keeps every byte", o.JournalLimit)
		case o.JournalKeep < 0:
			return fmt.Errorf("JournalKeep %d is negative; 0 keeps every message in memory", o.JournalKeep)
		case o.JournalSpill != "" && o.JournalKeep == 0:
			return fmt.Errorf("JournalSpill %q without JournalKeep: every message stays in memory, so nothing would go to the file; set JournalKeep too", o.JournalSpill)
		}
		for key, v := range map[string]string{"name": o.Name, "version": o.Version, "title": o.Title} {
			if v != "" {
				s.info[key] = v
			}
		}
		if o.Instructions != "" {
			s.instructions = o.Instructions
		}
		s.logging = s.logging || o.Logging
		s.emptyCursor = s.emptyCursor || o.EmptyStringCursor
		if o.PageSize > 0 {
			s.pageSize = o.PageSize
		}
		if o.CacheTTL > 0 {
			s.ttlMs = o.CacheTTL.Milliseconds()
		}
		if o.CacheScope != "" {
			s.cacheScope = o.CacheScope
		}
		if o.WaitTimeout > 0 {
			s.waitTimeout = o.WaitTimeout
		}
		if o.CloseGrace > 0 {
			s.closeGrace = o.CloseGrace
		}
		if o.JournalLimit > 0 {
			s.journal.mu.Lock()
			s.journal.limit = o.JournalLimit
			s.journal.mu.Unlock()
		}
		if o.JournalKeep > 0 {
			if err := s.journal.setWindow(o.JournalKeep, o.JournalSpill); err != nil {
				return err
			}
		}
		if o.FaultSeed != 0 {
			s.faults.mu.Lock()
			s.faults.seed = o.FaultSeed
			s.faults.rng = rand.New(rand.NewSource(o.FaultSeed))
			s.faults.mu.Unlock()
		}
		return nil
	})
}
