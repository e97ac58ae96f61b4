package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Answered counts the client's requests the server answered, a result or
// a JSON-RPC error, over every session; nothing else counts.
func TestRecorderAnswered(t *testing.T) {
	r := NewRecorder()
	assert.Equal(t, 0, r.Answered(), "a new recorder")
	r.Message(1, true, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
	r.Message(1, true, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	r.NonJSON(1, []byte("starting..."))
	r.Message(1, false, []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`))
	r.Message(1, false, []byte(`{"jsonrpc":"2.0","id":99,"result":{}}`))
	r.Ended(1, []byte(`{"jsonrpc":"2.0","id":1,"res`))
	assert.Equal(t, 0, r.Answered(), "a banner, a notification, a reply to no request and a truncated reply answer nothing")

	r.Message(2, true, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
	r.Message(2, false, []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"no"}}`))
	r.Message(3, true, []byte(`[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","id":"b","method":"tools/list"}]`))
	r.Message(3, false, []byte(`[{"jsonrpc":"2.0","id":"a","result":{}},{"jsonrpc":"2.0","id":"b","result":{"tools":[]}}]`))
	assert.Equal(t, 3, r.Answered(), "an error reply and the two replies of a batch")
}
