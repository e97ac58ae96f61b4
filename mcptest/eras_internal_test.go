package mcptest

import (
	"fmt"
	"github.com/mcpmock/mcpmock/internal/spec"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tidwall/gjson"
)

// erasForward is how erasOf read the journal before it read it from the
// end: every request and every result parsed, in wire order. It is the
// oracle of TestErasOfAgrees.
func erasForward(msgs Messages) map[int]eraInfo {
	out := map[int]eraInfo{}
	type sessionID struct {
		session int
		id      string
	}
	asked := map[sessionID]string{}
	key := func(m Message) sessionID { return sessionID{m.SessionNumber, m.ID} }
	for _, m := range msgs {
		switch {
		case m.Direction == FromClient && m.IsRequest():
			if v := m.Get("params." + pathProtocolVersion); v.Type == gjson.String {
				asked[key(m)] = v.Str
			}
		case m.Direction == FromServer && m.Kind == KindResult && m.Method == "initialize":
			out[m.SessionNumber] = eraInfo{EraHandshake, m.Get("result.protocolVersion").String()}
		case m.Direction == FromServer && m.Kind == KindResult && m.Get("result.resultType").Exists():
			if v, ok := asked[key(m)]; ok && out[m.SessionNumber].era != EraHandshake {
				out[m.SessionNumber] = eraInfo{EraStateless, v}
			}
		}
	}
	return out
}

// TestErasOfAgrees: on random journals of a few sessions mixing both eras,
// reused ids, requests with and without a protocolVersion (or with one
// that is not a string), results with and without resultType, errors and
// initialize results, erasOf says what the forward reading says.
func TestErasOfAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ids := []string{"1", "2", "3", `"a"`}
	for round := 0; round < 50000; round++ {
		var msgs Messages
		for range r.IntN(24) {
			m := Message{SessionNumber: 1 + r.IntN(2), ID: ids[r.IntN(len(ids))]}
			switch r.IntN(6) {
			case 0, 1:
				m.Direction, m.Kind, m.Method = FromClient, KindRequest, "tools/call"
				switch r.IntN(3) {
				case 0:
					m.raw = fmt.Sprintf(`{"id":%s,"params":{"_meta":{%q:"v%d"}}}`, m.ID, spec.MetaProtocolVersion, r.IntN(9))
				case 1:
					m.raw = fmt.Sprintf(`{"id":%s,"params":{"_meta":{%q:7}}}`, m.ID, spec.MetaProtocolVersion)
				default:
					m.raw = fmt.Sprintf(`{"id":%s,"params":{}}`, m.ID)
				}
			case 2:
				m.Direction, m.Kind, m.Method = FromServer, KindResult, "initialize"
				m.raw = fmt.Sprintf(`{"id":%s,"result":{"protocolVersion":"h%d"}}`, m.ID, r.IntN(3))
			case 3, 4:
				m.Direction, m.Kind, m.Method = FromServer, KindResult, "tools/call"
				if r.IntN(3) > 0 {
					m.raw = fmt.Sprintf(`{"id":%s,"result":{"resultType":"complete"}}`, m.ID)
				} else {
					m.raw = fmt.Sprintf(`{"id":%s,"result":{}}`, m.ID)
				}
			default:
				m.Direction, m.Kind, m.Method = FromServer, KindError, "tools/call"
				m.raw = fmt.Sprintf(`{"id":%s,"error":{"code":1}}`, m.ID)
			}
			m.Seq = len(msgs) + 1
			msgs = append(msgs, m)
		}
		if got, want := erasOf(msgs), erasForward(msgs); !reflect.DeepEqual(got, want) {
			for _, m := range msgs {
				t.Logf("%d %s %s %s", m.SessionNumber, m.Direction, m.Kind, m.raw)
			}
			t.Fatalf("round %d: erasOf = %v, want %v", round, got, want)
		}
	}
}
