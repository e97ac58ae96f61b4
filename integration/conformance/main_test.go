package conformance_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a test leaves a goroutine behind: the
// mock's Close and each SDK client's Close must end everything they started.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
