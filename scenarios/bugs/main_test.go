package bugs_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them: the
// raw clients, the plays and their servers leave nothing running.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
