package mcptest_test

import "github.com/mcpmock/mcpmock/mcptest"

// sessionEnded reports whether the session has ended: its Done channel is
// closed.
func sessionEnded(s *mcptest.Session) bool {
	select {
	case <-s.Done():
		return true
	default:
		return false
	}
}
