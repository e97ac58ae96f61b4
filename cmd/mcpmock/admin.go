package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpmock/mcpmock/config"
	"github.com/mcpmock/mcpmock/internal/suggest"
	"github.com/mcpmock/mcpmock/mcptest"
	"github.com/mcpmock/mcpmock/scenarios"
)

// The admin API of serve --http --admin (docs/admin.md; its OpenAPI file
// is docs/admin-openapi.json): a test in any language opens a test of its
// own, scripts its server in the config file's language, adds and removes
// faults, reads the journal and verifies, over plain HTTP and JSON.
//
// Each test is an mcptest.Server of its own, served at /t/TAG/mcp: its
// sessions, journal, faults and violations are that test's alone, so
// parallel tests sharing one process never see each other's traffic. The
// admin requests are journaled apart (GET /__mcpmock/log), never in a
// test's journal.

// adminPrefix is where the admin API lives: a path no MCP endpoint uses.
const adminPrefix = "/__mcpmock/"

// testPrefix is where a test's MCP endpoint lives: /t/TAG/mcp.
const testPrefix = "/t/"

// adminWait is how long verify's assertions wait for what they look for
// (mcptest.Options.WaitTimeout): a test that ran its client has its
// traffic in the journal already.
const adminWait = 2 * time.Second

// adminMaxBody bounds an admin request's body.
const adminMaxBody = 4 << 20

// admin is the admin API's state: the tests and the admin journal.
type admin struct {
	base   serverSpec // the serve's own server: what a test gets unless it sends a script
	origin string     // http://ADDR, for the URLs handed out
	logw   io.Writer

	mu    sync.Mutex
	tests map[string]*adminTest
	next  int
	log   []adminEntry
}

// adminEntry is one admin request, as the admin journal keeps it.
type adminEntry struct {
	Seq    int    `json:"seq"`
	Method string `json:"method"`
	Path   string `json:"path"`
	Status int    `json:"status"`
	Test   string `json:"test,omitempty"`
}

// adminTest is one test's server and what the admin API gave it.
type adminTest struct {
	tag        string
	script     json.RawMessage // the test's own script (a config file), nil: the serve's
	scenario   string
	scen       *scenarios.Scenario    // the scenario, nil for none
	scenFaults []*mcptest.FaultHandle // the faults the scenario installed
	start      time.Time
	srv        *mcptest.Server
	handler    http.Handler
	faults     []*adminFault
	nextID     int
}

// adminFault is a fault added at run time, by its handle id.
type adminFault struct {
	id   string
	spec json.RawMessage
	h    *mcptest.FaultHandle
}

func newAdmin(base serverSpec, origin string, logw io.Writer) *admin {
	return &admin{base: base, origin: origin, logw: logw, tests: map[string]*adminTest{}}
}

// close ends every test's server.
func (a *admin) close() {
	a.mu.Lock()
	tests := a.tests
	a.tests = map[string]*adminTest{}
	a.mu.Unlock()
	for _, t := range tests {
		t.srv.Close()
	}
}

// adminError is a 4xx or 5xx answer: the status, the message, and the
// field it is about.
type adminError struct {
	status int
	msg    string
	field  string
	errors []adminFieldError
}

// adminFieldError is one problem of a script, at its line, column and field.
type adminFieldError struct {
	Field   string `json:"field"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message"`
}

func (e *adminError) Error() string { return e.msg }

func badRequest(field, format string, args ...any) *adminError {
	return &adminError{status: http.StatusBadRequest, field: field, msg: fmt.Sprintf(format, args...)}
}

// route is one operation of the admin API: its method and path pattern,
// as the OpenAPI file writes them.
type route struct {
	method, pattern string
	serve           func(a *admin, r *adminReq) (int, any, *adminError)
}

// adminRoutes are the admin API's operations (docs/admin-openapi.json
// specifies each; TestAdminOpenAPI holds the two to each other).
var adminRoutes = []route{
	{"GET", "/__mcpmock/tests", (*admin).listTests},
	{"POST", "/__mcpmock/tests", (*admin).createTest},
	{"GET", "/__mcpmock/tests/{tag}", (*admin).getTest},
	{"DELETE", "/__mcpmock/tests/{tag}", (*admin).deleteTest},
	{"PUT", "/__mcpmock/tests/{tag}/script", (*admin).replaceScript},
	{"PATCH", "/__mcpmock/tests/{tag}/script", (*admin).extendScript},
	{"PUT", "/__mcpmock/tests/{tag}/scenario", (*admin).setScenario},
	{"DELETE", "/__mcpmock/tests/{tag}/scenario", (*admin).setScenario},
	{"GET", "/__mcpmock/tests/{tag}/faults", (*admin).listFaults},
	{"POST", "/__mcpmock/tests/{tag}/faults", (*admin).addFault},
	{"GET", "/__mcpmock/tests/{tag}/faults/{id}", (*admin).getFault},
	{"DELETE", "/__mcpmock/tests/{tag}/faults/{id}", (*admin).removeFault},
	{"GET", "/__mcpmock/tests/{tag}/journal", (*admin).journal},
	{"GET", "/__mcpmock/tests/{tag}/violations", (*admin).violations},
	{"POST", "/__mcpmock/tests/{tag}/verify", (*admin).verify},
	{"POST", "/__mcpmock/tests/{tag}/reset", (*admin).reset},
	{"GET", "/__mcpmock/log", (*admin).adminLog},
}

// adminReq is a request matched to its route.
type adminReq struct {
	r    *http.Request
	body []byte
	vars map[string]string
	test *adminTest // the {tag}'s test, when the path has one
}

// match returns the route of method and path, its path variables, and
// whether the path is known under another method.
func matchRoute(method, path string) (*route, map[string]string, bool) {
	parts := strings.Split(strings.TrimSuffix(path, "/"), "/")
	pathKnown := false
	for i := range adminRoutes {
		rt := &adminRoutes[i]
		pp := strings.Split(rt.pattern, "/")
		if len(pp) != len(parts) {
			continue
		}
		vars := map[string]string{}
		ok := true
		for j, p := range pp {
			if strings.HasPrefix(p, "{") {
				if parts[j] == "" {
					ok = false
					break
				}
				vars[strings.Trim(p, "{}")] = parts[j]
			} else if p != parts[j] {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		pathKnown = true
		if rt.method == method {
			return rt, vars, true
		}
	}
	return nil, nil, pathKnown
}

// ServeHTTP serves the admin API. Nothing it receives reaches the MCP
// side: a panic is answered 500 and the process goes on serving.
func (a *admin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	status, out, tag := a.serve(r)
	a.mu.Lock()
	a.log = append(a.log, adminEntry{Seq: len(a.log) + 1, Method: r.Method, Path: r.URL.Path, Status: status, Test: tag})
	a.mu.Unlock()
	b, _ := json.MarshalIndent(out, "", "  ")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

func (a *admin) serve(r *http.Request) (status int, out any, tag string) {
	defer func() {
		if p := recover(); p != nil {
			buf := make([]byte, 4<<10)
			buf = buf[:runtime.Stack(buf, false)]
			fmt.Fprintf(a.logw, "mcpmock: admin: panic serving %s %s: %v\n%s", r.Method, r.URL.Path, p, buf)
			status, out = http.StatusInternalServerError, errorBody(&adminError{msg: fmt.Sprintf("the admin API failed on this request (%v); the MCP side goes on serving; please report it", p)})
		}
	}()
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil && !isLoopback(host) {
		return http.StatusForbidden, errorBody(&adminError{msg: "the admin API answers loopback clients only (127.0.0.1, ::1)"}), ""
	}
	rt, vars, known := matchRoute(r.Method, r.URL.Path)
	if rt == nil {
		if known {
			return http.StatusMethodNotAllowed, errorBody(&adminError{msg: fmt.Sprintf("%s %s: method not allowed here (docs/admin-openapi.json lists the operations)", r.Method, r.URL.Path)}), ""
		}
		return http.StatusNotFound, errorBody(&adminError{msg: fmt.Sprintf("%s %s: no such admin operation%s (docs/admin-openapi.json lists them)", r.Method, r.URL.Path, suggestPath(r.URL.Path))}), ""
	}
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, adminMaxBody))
	if err != nil {
		return http.StatusRequestEntityTooLarge, errorBody(&adminError{msg: fmt.Sprintf("the request body could not be read (%v); it may be at most %d bytes", err, adminMaxBody)}), ""
	}
	q := &adminReq{r: r, body: body, vars: vars}
	if t, ok := vars["tag"]; ok {
		tag = t
		a.mu.Lock()
		q.test = a.tests[t]
		names := a.tagsLocked()
		a.mu.Unlock()
		if q.test == nil {
			return http.StatusNotFound, errorBody(&adminError{field: "tag", msg: fmt.Sprintf("no test %q%s: POST /__mcpmock/tests opens one (a reset or delete may have ended it)", t, suggest.DidYouMean(t, names))}), tag
		}
	}
	st, res, aerr := rt.serve(a, q)
	if aerr != nil {
		if aerr.status == 0 {
			aerr.status = http.StatusBadRequest
		}
		return aerr.status, errorBody(aerr), tag
	}
	return st, res, tag
}

func (a *admin) tagsLocked() []string {
	names := make([]string, 0, len(a.tests))
	for k := range a.tests {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// suggestPath names the nearest operation's path to p, as a did-you-mean.
func suggestPath(p string) string {
	var pats []string
	for _, rt := range adminRoutes {
		pats = append(pats, rt.pattern)
	}
	return suggest.DidYouMean(p, pats)
}

func errorBody(e *adminError) map[string]any {
	out := map[string]any{"error": e.msg}
	if e.field != "" {
		out["field"] = e.field
	}
	if len(e.errors) > 0 {
		out["errors"] = e.errors
	}
	return out
}

// decodeBody reads body into v, refusing a member v has no field for,
// naming it with the nearest known one. An empty body leaves v as is.
func decodeBody(body []byte, v any, known ...string) *adminError {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		return badRequest("", "the body is not a JSON object: %v", err)
	}
	for k := range members {
		if !slices.Contains(known, k) {
			return badRequest(k, "unknown field %q%s (known: %s)", k, suggest.DidYouMean(k, known), strings.Join(known, ", "))
		}
	}
	if err := json.Unmarshal(body, v); err != nil {
		field := ""
		if te, ok := err.(*json.UnmarshalTypeError); ok {
			field = te.Field
		}
		return badRequest(field, "%v", err)
	}
	return nil
}

// testBody is the body of POST /__mcpmock/tests and of reset.
type testBody struct {
	Script           json.RawMessage `json:"script"`
	Scenario         string          `json:"scenario"`
	ExpectViolations []string        `json:"expectViolations"`
	Keep             *bool           `json:"keepScript"`
}

// parseScript checks a script as config.Parse does a file.
func parseScript(field string, raw json.RawMessage) (*config.Config, *adminError) {
	c, err := config.Parse(field, raw)
	if err == nil {
		return c, nil
	}
	ae := &adminError{status: http.StatusBadRequest, field: field}
	for _, e := range config.Errors(err) {
		f := field
		if e.Field != "" {
			f = field + "." + e.Field
		}
		ae.errors = append(ae.errors, adminFieldError{Field: f, Line: e.Line, Column: e.Column, Message: e.Msg})
	}
	if len(ae.errors) > 0 {
		ae.field = ae.errors[0].Field
	}
	ae.msg = "the script is not a valid config file (config/schema.json): " + err.Error()
	return nil, ae
}

// checkRules refuses a rule ID the mock does not know, naming the nearest.
func checkRules(field string, rules []string) *adminError {
	var ids []string
	for _, r := range mcptest.Rules() {
		ids = append(ids, string(r.ID))
	}
	for i, r := range rules {
		if !slices.Contains(ids, r) {
			return badRequest(fmt.Sprintf("%s[%d]", field, i), "no rule %q%s (mcpmock list --rules shows them)", r, suggest.DidYouMean(r, ids))
		}
	}
	return nil
}

// build makes a test's server from its script (or the serve's) and scenario.
func (a *admin) build(tag string, script json.RawMessage, scenario string, expect []string) (*adminTest, *adminError) {
	spec := a.base
	if len(script) > 0 {
		c, aerr := parseScript("script", script)
		if aerr != nil {
			return nil, aerr
		}
		spec.config, spec.label = c, "the test's script"
	}
	if scenario != "" {
		s, ok := scenarios.Lookup(scenario)
		if !ok {
			var names []string
			for _, s := range scenarios.All() {
				names = append(names, s.Name)
			}
			return nil, badRequest("scenario", "no scenario %q%s (mcpmock list shows the catalog)", scenario, suggest.DidYouMean(scenario, names))
		}
		spec.scenario = &s
	} else {
		spec.scenario = nil
	}
	if aerr := checkRules("expectViolations", expect); aerr != nil {
		return nil, aerr
	}
	tb := mcptest.NewProgramTB("mcpmock test "+tag, a.logw)
	// The scenario's mistake on the script's server, as spec.build does,
	// keeping the fault handles the scenario installed (its hits).
	scen := spec.scenario
	spec.scenario = nil
	srv := spec.build(tb)
	if tb.Failed() || srv == nil {
		return nil, &adminError{status: http.StatusBadRequest, field: "script", msg: "the server could not be built: see the serve log"}
	}
	var scenFaults []*mcptest.FaultHandle
	if scen != nil {
		before := len(srv.Faults())
		srv = scen.Server(srv)
		if all := srv.Faults(); len(all) > before {
			scenFaults = all[before:]
		}
	}
	srv.WithOptions(mcptest.Options{WaitTimeout: adminWait})
	if tb.Failed() {
		return nil, &adminError{status: http.StatusBadRequest, field: "script", msg: "the server could not be built: see the serve log"}
	}
	for _, r := range expect {
		srv.ExpectViolation(mcptest.RuleID(r))
	}
	return &adminTest{tag: tag, script: script, scenario: scenario, scen: scen, scenFaults: scenFaults, srv: srv, handler: srv.HTTPHandler(), start: time.Now()}, nil
}

// testInfo is what the admin API says of a test.
func (a *admin) testInfo(t *adminTest) map[string]any {
	script := "serve"
	if len(t.script) > 0 {
		script = "own"
	}
	a.mu.Lock()
	faults := faultsInfo(t)
	a.mu.Unlock()
	return map[string]any{
		"tag":          t.tag,
		"url":          a.origin + testPrefix + t.tag + mcpPath,
		"script":       script,
		"scenario":     t.scenario,
		"sessions":     len(t.srv.Sessions()),
		"messages":     t.srv.Journal().Len(),
		"faults":       faults,
		"scenarioHits": scenarioHits(t),
	}
}

func (a *admin) listTests(r *adminReq) (int, any, *adminError) {
	a.mu.Lock()
	tests := make([]*adminTest, 0, len(a.tests))
	for _, k := range a.tagsLocked() {
		tests = append(tests, a.tests[k])
	}
	a.mu.Unlock()
	out := []any{}
	for _, t := range tests {
		out = append(out, a.testInfo(t))
	}
	return http.StatusOK, map[string]any{"tests": out}, nil
}

func (a *admin) createTest(r *adminReq) (int, any, *adminError) {
	var b testBody
	if aerr := decodeBody(r.body, &b, "script", "scenario", "expectViolations"); aerr != nil {
		return 0, nil, aerr
	}
	a.mu.Lock()
	a.next++
	tag := "t" + strconv.Itoa(a.next)
	a.mu.Unlock()
	t, aerr := a.build(tag, b.Script, b.Scenario, b.ExpectViolations)
	if aerr != nil {
		return 0, nil, aerr
	}
	a.mu.Lock()
	a.tests[tag] = t
	a.mu.Unlock()
	return http.StatusCreated, a.testInfo(t), nil
}

func (a *admin) getTest(r *adminReq) (int, any, *adminError) {
	return http.StatusOK, a.testInfo(r.test), nil
}

func (a *admin) deleteTest(r *adminReq) (int, any, *adminError) {
	a.mu.Lock()
	delete(a.tests, r.test.tag)
	a.mu.Unlock()
	r.test.srv.Close()
	return http.StatusOK, map[string]any{"deleted": r.test.tag}, nil
}

// swap replaces a test's server with t (same tag), closing the old one.
func (a *admin) swap(old, t *adminTest) {
	a.mu.Lock()
	a.tests[t.tag] = t
	a.mu.Unlock()
	old.srv.Close()
}

func (a *admin) replaceScript(r *adminReq) (int, any, *adminError) {
	if len(bytes.TrimSpace(r.body)) == 0 {
		return 0, nil, badRequest("", "the body is the script, a config file's JSON (config/schema.json); it is empty")
	}
	return a.changeScript(r, r.body)
}

// currentScript is the test's script as JSON: its own, or the serve's
// config file's; nil for GiftGen, which has none.
func (a *admin) currentScript(t *adminTest) (json.RawMessage, *adminError) {
	if len(t.script) > 0 || a.base.config == nil {
		return t.script, nil
	}
	b, err := json.Marshal(a.base.config)
	if err != nil {
		return nil, &adminError{status: http.StatusInternalServerError, msg: err.Error()}
	}
	return b, nil
}

// extendScript merges the body into the test's script: tools, resources,
// resource templates and prompts by name (or URI), replacing one of the
// same name; any other member replaces the script's.
func (a *admin) extendScript(r *adminReq) (int, any, *adminError) {
	base, aerr := a.currentScript(r.test)
	if aerr != nil {
		return 0, nil, aerr
	}
	if len(base) == 0 {
		return 0, nil, &adminError{status: http.StatusConflict, msg: "the test runs the serve's GiftGen server, which has no script to extend: PUT a script first (or start serve with --config)"}
	}
	var add map[string]json.RawMessage
	if err := json.Unmarshal(r.body, &add); err != nil {
		return 0, nil, badRequest("", "the body is not a JSON object (a part of a config file): %v", err)
	}
	var cur map[string]json.RawMessage
	if err := json.Unmarshal(base, &cur); err != nil {
		return 0, nil, &adminError{status: http.StatusInternalServerError, msg: err.Error()}
	}
	for k, v := range add {
		key := map[string]string{"tools": "name", "prompts": "name", "resources": "uri", "resourceTemplates": "uriTemplate"}[k]
		if key == "" {
			cur[k] = v
			continue
		}
		merged, aerr := mergeByKey(k, cur[k], v, key)
		if aerr != nil {
			return 0, nil, aerr
		}
		cur[k] = merged
	}
	script, _ := json.Marshal(cur)
	return a.changeScript(r, script)
}

// liveLists are the members of a script a running server can change
// with its clients connected (config.Relist).
var liveLists = []string{"tools", "resources", "prompts"}

// changeScript gives the test the script: live, its server kept, when
// only its tools, resources or prompts change (each announced with its
// list_changed unless ?announce=quietly); otherwise the test starts afresh.
func (a *admin) changeScript(r *adminReq, script json.RawMessage) (int, any, *adminError) {
	q := r.r.URL.Query()
	for k := range q {
		if k != "announce" {
			return 0, nil, badRequest(k, "unknown query parameter %q%s (known: announce)", k, suggest.DidYouMean(k, []string{"announce"}))
		}
	}
	announce := mcptest.ListChanged
	switch v := q.Get("announce"); v {
	case "", "listChanged":
	case "quietly":
		announce = mcptest.Quietly
	default:
		return 0, nil, badRequest("announce", "announce=%q: want listChanged (the default) or quietly%s", v, suggest.DidYouMean(v, []string{"listChanged", "quietly"}))
	}
	c, aerr := parseScript("script", script)
	if aerr != nil {
		return 0, nil, aerr
	}
	cur, aerr := a.currentScript(r.test)
	if aerr != nil {
		return 0, nil, aerr
	}
	if changed, live := liveChange(cur, script); live {
		if len(changed) > 0 {
			c.Relist(r.test.srv, announce, changed...)
		}
		a.mu.Lock()
		r.test.script = script
		a.mu.Unlock()
		info := a.testInfo(r.test)
		info["live"] = true
		return http.StatusOK, info, nil
	}
	t, aerr := a.build(r.test.tag, script, r.test.scenario, nil)
	if aerr != nil {
		return 0, nil, aerr
	}
	a.swap(r.test, t)
	info := a.testInfo(t)
	info["live"] = false
	return http.StatusOK, info, nil
}

// liveChange compares two scripts: the live lists that differ, and
// whether nothing else does.
func liveChange(cur, next json.RawMessage) (changed []string, live bool) {
	if len(cur) == 0 {
		return nil, false
	}
	var a, b map[string]any
	if json.Unmarshal(cur, &a) != nil || json.Unmarshal(next, &b) != nil {
		return nil, false
	}
	for k := range a {
		if _, ok := b[k]; !ok && !slices.Contains(liveLists, k) {
			return nil, false
		}
	}
	for k, v := range b {
		if slices.Contains(liveLists, k) {
			if !reflect.DeepEqual(a[k], v) {
				changed = append(changed, k)
			}
			continue
		}
		if !reflect.DeepEqual(a[k], v) {
			return nil, false
		}
	}
	for _, k := range liveLists {
		if _, ok := b[k]; !ok && a[k] != nil && !slices.Contains(changed, k) {
			changed = append(changed, k)
		}
	}
	if len(changed) == 0 {
		return []string{}, true
	}
	return changed, true
}

func mergeByKey(field string, cur, add json.RawMessage, key string) (json.RawMessage, *adminError) {
	var have, more []map[string]json.RawMessage
	if len(cur) > 0 {
		_ = json.Unmarshal(cur, &have)
	}
	if err := json.Unmarshal(add, &more); err != nil {
		return nil, badRequest(field, "%s: want an array of objects: %v", field, err)
	}
	for _, m := range more {
		i := slices.IndexFunc(have, func(h map[string]json.RawMessage) bool { return string(h[key]) == string(m[key]) })
		if i >= 0 {
			have[i] = m
		} else {
			have = append(have, m)
		}
	}
	b, _ := json.Marshal(have)
	return b, nil
}

func faultInfo(f *adminFault) map[string]any {
	return map[string]any{"id": f.id, "fault": f.h.String(), "spec": f.spec, "hits": f.h.Hits()}
}

func faultsInfo(t *adminTest) []any {
	out := []any{}
	for _, f := range t.faults {
		out = append(out, faultInfo(f))
	}
	return out
}

func (a *admin) listFaults(r *adminReq) (int, any, *adminError) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return http.StatusOK, map[string]any{"faults": faultsInfo(r.test)}, nil
}

// addFault adds a fault, written as a config file's "faults" entry.
func (a *admin) addFault(r *adminReq) (int, any, *adminError) {
	body := bytes.TrimSpace(r.body)
	if len(body) == 0 || body[0] != '{' {
		return 0, nil, badRequest("", `the body is one fault as a config file writes it, e.g. {"fault": "Delay", "method": "tools/call", "duration": "2s"} (mcpmock list --faults shows them)`)
	}
	if aerr := checkFaultFields(body); aerr != nil {
		return 0, nil, aerr
	}
	doc := append(append([]byte(`{"server":{"name":"admin","version":"0"},"faults":[`), body...), ']', '}')
	c, err := config.Parse("fault", doc)
	if err != nil {
		ae := &adminError{status: http.StatusBadRequest}
		var msgs []string
		for _, e := range config.Errors(err) {
			f := strings.Replace(e.Field, "faults[0]", "fault", 1)
			ae.errors = append(ae.errors, adminFieldError{Field: f, Message: e.Msg})
			msgs = append(msgs, f+": "+e.Msg)
		}
		if len(ae.errors) > 0 {
			ae.field = ae.errors[0].Field
		} else {
			msgs = append(msgs, err.Error())
		}
		ae.msg = "the fault is not valid: " + strings.Join(msgs, "; ")
		return 0, nil, ae
	}
	fl, berr := c.Faults[0].Build()
	if berr != nil {
		return 0, nil, badRequest("fault", "the fault cannot be built: %v", berr)
	}
	h := r.test.srv.AddFault(fl)
	a.mu.Lock()
	r.test.nextID++
	f := &adminFault{id: "f" + strconv.Itoa(r.test.nextID), spec: json.RawMessage(body), h: h}
	r.test.faults = append(r.test.faults, f)
	a.mu.Unlock()
	return http.StatusCreated, faultInfo(f), nil
}

// checkFaultFields names an unknown fault or parameter with the nearest
// known one, before config.Parse says the rest.
func checkFaultFields(body []byte) *adminError {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		return badRequest("", "the body is not a JSON object: %v", err)
	}
	var name string
	if err := json.Unmarshal(members["fault"], &name); err != nil || name == "" {
		return badRequest("fault", `"fault" is missing: name the fault, e.g. "Delay" (mcpmock list --faults shows them)`)
	}
	var names []string
	var spec *config.FaultSpec
	for _, f := range config.Faults() {
		names = append(names, f.Name)
		if f.Name == name {
			spec = &f
		}
	}
	if spec == nil {
		return badRequest("fault", "no fault %q%s (mcpmock list --faults shows them)", name, suggest.DidYouMean(name, names))
	}
	known := []string{"fault"}
	for _, p := range append(slices.Clone(spec.Params), config.Refinements()...) {
		known = append(known, p.Name)
	}
	for k := range members {
		if !slices.Contains(known, k) {
			return badRequest(k, "fault %s has no parameter %q%s (its parameters: %s)", name, k, suggest.DidYouMean(k, known), strings.Join(known[1:], ", "))
		}
	}
	return nil
}

func (a *admin) findFault(r *adminReq) (*adminFault, *adminError) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var ids []string
	for _, f := range r.test.faults {
		if f.id == r.vars["id"] {
			return f, nil
		}
		ids = append(ids, f.id)
	}
	return nil, &adminError{status: http.StatusNotFound, field: "id", msg: fmt.Sprintf("test %s has no fault %q%s", r.test.tag, r.vars["id"], suggest.DidYouMean(r.vars["id"], ids))}
}

func (a *admin) getFault(r *adminReq) (int, any, *adminError) {
	f, aerr := a.findFault(r)
	if aerr != nil {
		return 0, nil, aerr
	}
	return http.StatusOK, faultInfo(f), nil
}

func (a *admin) removeFault(r *adminReq) (int, any, *adminError) {
	f, aerr := a.findFault(r)
	if aerr != nil {
		return 0, nil, aerr
	}
	f.h.Remove()
	a.mu.Lock()
	r.test.faults = slices.DeleteFunc(r.test.faults, func(g *adminFault) bool { return g == f })
	a.mu.Unlock()
	return http.StatusOK, faultInfo(f), nil
}

// journalQuery is the journal's selection: the query parameters.
var journalParams = []string{"session", "method", "direction", "kind", "since"}

// journal answers the test's journal, selected as Messages' queries do.
func (a *admin) journal(r *adminReq) (int, any, *adminError) {
	q := r.r.URL.Query()
	for k := range q {
		if !slices.Contains(journalParams, k) {
			return 0, nil, badRequest(k, "unknown query parameter %q%s (known: %s)", k, suggest.DidYouMean(k, journalParams), strings.Join(journalParams, ", "))
		}
	}
	msgs := r.test.srv.Journal().All()
	if v := q.Get("since"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, nil, badRequest("since", "since=%q: want a sequence number (the seq of a message; 0 for all)", v)
		}
		msgs = msgs.After(n)
	}
	if v := q.Get("session"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return 0, nil, badRequest("session", "session=%q: want a session number from 1", v)
		}
		msgs = msgs.InSession(n)
	}
	if v := q.Get("direction"); v != "" {
		dirs := []string{"client", "server"}
		switch v {
		case "client":
			msgs = msgs.From(mcptest.FromClient)
		case "server":
			msgs = msgs.From(mcptest.FromServer)
		default:
			return 0, nil, badRequest("direction", "direction=%q: want client or server%s", v, suggest.DidYouMean(v, dirs))
		}
	}
	if v := q.Get("kind"); v != "" {
		kinds := []string{"request", "response", "notification", "invalid"}
		var keep func(mcptest.Message) bool
		switch v {
		case "request":
			keep = mcptest.Message.IsRequest
		case "response":
			keep = mcptest.Message.IsResponse
		case "notification":
			keep = mcptest.Message.IsNotification
		case "invalid":
			keep = func(m mcptest.Message) bool { return m.Kind == mcptest.KindInvalid }
		default:
			return 0, nil, badRequest("kind", "kind=%q: want one of %s%s", v, strings.Join(kinds, ", "), suggest.DidYouMean(v, kinds))
		}
		msgs = msgs.Filter(keep)
	}
	if v := q.Get("method"); v != "" {
		msgs = msgs.Filter(func(m mcptest.Message) bool { return m.Method == v })
	}
	out := []any{}
	for _, m := range msgs {
		out = append(out, messageJSON(m))
	}
	return http.StatusOK, map[string]any{"messages": out, "last": r.test.srv.Journal().Len()}, nil
}

func messageJSON(m mcptest.Message) map[string]any {
	dir := "client"
	if m.Direction == mcptest.FromServer {
		dir = "server"
	}
	out := map[string]any{"seq": m.Seq, "session": m.SessionNumber, "direction": dir, "kind": m.Kind.String(), "method": m.Method, "raw": m.Raw()}
	if m.ID != "" {
		out["id"] = json.RawMessage(m.ID)
	}
	if m.ErrorCode != 0 {
		out["errorCode"] = m.ErrorCode
	}
	if m.Problem != "" {
		out["problem"] = m.Problem
	}
	return out
}

func (a *admin) violations(r *adminReq) (int, any, *adminError) {
	return http.StatusOK, map[string]any{"violations": reportViolations(r.test.srv.Violations())}, nil
}

// verifyBody is an assertion, as mcptest's Assert methods take it.
type verifyBody struct {
	Assert    string          `json:"assert"`
	Method    string          `json:"method"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Times     *int            `json:"times"`
	Rules     []string        `json:"rules"`
	// ClientError is, for assert "scenario", the error the client under
	// test got from its work (absent: it got none); a server process cannot
	// see it.
	ClientError *string `json:"clientError"`
}

// assertions are verify's assertions by name, with the fields each needs.
var assertions = map[string][]string{
	"called":             {"method"},
	"notCalled":          {"method"},
	"calledTimes":        {"method", "times"},
	"toolCalled":         {"tool"},
	"noViolations":       nil,
	"expectedViolations": {"rules"},
	"verify":             nil,
	"scenario":           nil,
}

// verify runs one of mcptest's assertions on the test's server and answers
// its verdict: a pass, or the failure text as the Go test would print it.
func (a *admin) verify(r *adminReq) (int, any, *adminError) {
	var b verifyBody
	if aerr := decodeBody(r.body, &b, "assert", "method", "tool", "arguments", "times", "rules", "clientError"); aerr != nil {
		return 0, nil, aerr
	}
	names := make([]string, 0, len(assertions))
	for k := range assertions {
		names = append(names, k)
	}
	sort.Strings(names)
	need, ok := assertions[b.Assert]
	if !ok {
		if b.Assert == "" {
			return 0, nil, badRequest("assert", "assert is missing: want one of %s", strings.Join(names, ", "))
		}
		return 0, nil, badRequest("assert", "no assertion %q%s (one of %s)", b.Assert, suggest.DidYouMean(b.Assert, names), strings.Join(names, ", "))
	}
	for _, f := range need {
		missing := map[string]bool{"method": b.Method == "", "tool": b.Tool == "", "times": b.Times == nil, "rules": len(b.Rules) == 0}[f]
		if missing {
			return 0, nil, badRequest(f, "assert %q needs %q", b.Assert, f)
		}
	}
	if b.Times != nil && *b.Times < 0 {
		return 0, nil, badRequest("times", "times is %d: want a count ≥ 0", *b.Times)
	}
	if len(b.Arguments) > 0 && !strings.HasPrefix(strings.TrimSpace(string(b.Arguments)), "{") {
		return 0, nil, badRequest("arguments", "arguments: want a JSON object (the subset the call's arguments must contain)")
	}
	if aerr := checkRules("rules", b.Rules); aerr != nil {
		return 0, nil, aerr
	}
	if b.Assert == "scenario" {
		var clientErr error
		if b.ClientError != nil {
			clientErr = errors.New(*b.ClientError)
		}
		failure, aerr := scenarioVerdict(r.test, clientErr)
		if aerr != nil {
			return 0, nil, aerr
		}
		if failure == "" {
			return http.StatusOK, map[string]any{"pass": true}, nil
		}
		return http.StatusOK, map[string]any{"pass": false, "failure": failure}, nil
	}
	srv := r.test.srv
	rec := &recordTB{}
	rec.run(func() {
		switch b.Assert {
		case "called":
			srv.AssertCalled(rec, b.Method)
		case "notCalled":
			srv.AssertNotCalled(rec, b.Method)
		case "calledTimes":
			srv.AssertCalledTimes(rec, b.Method, *b.Times)
		case "toolCalled":
			var args any
			if len(b.Arguments) > 0 {
				args = b.Arguments
			}
			srv.AssertToolCalled(rec, b.Tool, args)
		case "noViolations":
			srv.AssertNoViolations(rec)
		case "expectedViolations":
			rules := make([]mcptest.RuleID, len(b.Rules))
			for i, r := range b.Rules {
				rules[i] = mcptest.RuleID(r)
			}
			srv.ExpectViolation(rules...)
			if err := srv.Verify(); err != nil {
				rec.Errorf("%v", err)
			}
		case "verify":
			if err := srv.Verify(); err != nil {
				rec.Errorf("%v", err)
			}
		}
	})
	if len(rec.failures) == 0 {
		return http.StatusOK, map[string]any{"pass": true}, nil
	}
	return http.StatusOK, map[string]any{"pass": false, "failure": strings.Join(rec.failures, "\n")}, nil
}

// recordTB is the TB verify gives an assertion: it keeps the failures.
type recordTB struct {
	mu       sync.Mutex
	failures []string
}

func (t *recordTB) Helper()        {}
func (t *recordTB) Cleanup(func()) {}
func (t *recordTB) Logf(string, ...any) {
}

func (t *recordTB) Errorf(format string, args ...any) {
	t.mu.Lock()
	t.failures = append(t.failures, fmt.Sprintf(format, args...))
	t.mu.Unlock()
}

func (t *recordTB) Fatalf(format string, args ...any) {
	t.Errorf(format, args...)
	runtime.Goexit()
}

func (t *recordTB) Failed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.failures) > 0
}

// run calls f in a goroutine of its own, so that Fatalf ends f alone.
func (t *recordTB) run(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

// reset forgets the test's sessions, journal and faults: a new server
// under the same tag, from the test's script (keepScript, the default) or
// the serve's.
func (a *admin) reset(r *adminReq) (int, any, *adminError) {
	var b testBody
	if aerr := decodeBody(r.body, &b, "keepScript", "scenario", "expectViolations"); aerr != nil {
		return 0, nil, aerr
	}
	script := r.test.script
	if b.Keep != nil && !*b.Keep {
		script = nil
	}
	scenario := r.test.scenario
	if b.Scenario != "" {
		scenario = b.Scenario
	}
	t, aerr := a.build(r.test.tag, script, scenario, b.ExpectViolations)
	if aerr != nil {
		return 0, nil, aerr
	}
	a.swap(r.test, t)
	return http.StatusOK, a.testInfo(t), nil
}

func (a *admin) adminLog(r *adminReq) (int, any, *adminError) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return http.StatusOK, map[string]any{"entries": slices.Clone(a.log)}, nil
}

// mcp serves a test's MCP endpoint, /t/TAG/mcp.
func (a *admin) mcp(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, testPrefix)
	tag, path, _ := strings.Cut(rest, "/")
	if "/"+path != mcpPath {
		http.Error(w, fmt.Sprintf("mcpmock: a test's MCP endpoint is %s%s%s", testPrefix, tag, mcpPath), http.StatusNotFound)
		return
	}
	a.mu.Lock()
	t := a.tests[tag]
	a.mu.Unlock()
	if t == nil {
		http.Error(w, fmt.Sprintf("mcpmock: no test %q (POST %stests opens one, and answers its URL)", tag, adminPrefix), http.StatusNotFound)
		return
	}
	t.handler.ServeHTTP(w, r)
}

// wrap serves the admin API and the tests' endpoints before next (the
// serve's mux), whose path cleaning would answer a redirect, not JSON.
func (a *admin) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch p := r.URL.Path; {
		case strings.HasPrefix(p, adminPrefix) || p == strings.TrimSuffix(adminPrefix, "/"):
			a.ServeHTTP(w, r)
		case strings.HasPrefix(p, testPrefix):
			a.mcp(w, r)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// noteAdmin words the report of serve --admin whose own endpoint, /mcp,
// heard nothing: the tests' servers are judged by their verify calls.
func noteAdmin(rep *Report) {
	for i, p := range rep.Problems {
		if strings.HasPrefix(p, "no client sent anything") {
			rep.Problems[i] = "no client sent anything to " + mcpPath + ", the serve's own server, so it has no verdict; with --admin the tests' servers (" + testPrefix + "TAG" + mcpPath + ") are judged by their verify calls, not by this report"
		}
	}
}

// scenarioHits is how many times the scenario's faults acted, together.
func scenarioHits(t *adminTest) int {
	n := 0
	for _, h := range t.scenFaults {
		n += h.Hits()
	}
	return n
}

// setScenario plays a scenario of the catalog on the test's script (PUT),
// or none (DELETE): the test starts afresh, its script kept.
func (a *admin) setScenario(r *adminReq) (int, any, *adminError) {
	var b struct {
		Scenario string `json:"scenario"`
	}
	if r.r.Method == http.MethodPut {
		if aerr := decodeBody(r.body, &b, "scenario"); aerr != nil {
			return 0, nil, aerr
		}
		if b.Scenario == "" {
			return 0, nil, badRequest("scenario", "scenario is missing: name a scenario of the catalog (mcpmock list)")
		}
	}
	t, aerr := a.build(r.test.tag, r.test.script, b.Scenario, nil)
	if aerr != nil {
		return 0, nil, aerr
	}
	a.swap(r.test, t)
	return http.StatusOK, a.testInfo(t), nil
}

// scenarioVerdict is the scenario's check on what the test's client did
// so far, as serve's report gives it: "" when it passed.
func scenarioVerdict(t *adminTest, clientErr error) (string, *adminError) {
	if t.scen == nil {
		return "", badRequest("assert", "the test plays no scenario: PUT /__mcpmock/tests/%s/scenario, or open the test with one", t.tag)
	}
	s := *t.scen
	msgs := t.srv.Journal().All()
	r := s.Evaluate(scenarios.Outcome{
		Err:        clientErr,
		Elapsed:    time.Since(t.start),
		Deadline:   scenarioDeadline(s),
		Sessions:   len(t.srv.Sessions()),
		Server:     t.srv,
		Journal:    msgs,
		Violations: t.srv.Violations(),
		Faults:     t.scenFaults,
	})
	if r.Status == scenarios.Pass {
		return "", nil
	}
	observed := r.Observed
	if clientErr == nil {
		observed = strings.ReplaceAll(observed, connectReturnedNil, "the client got no error (send clientError with the error it got, if it got one)")
	}
	out := fmt.Sprintf("scenario %s: %s: %s", r.Scenario, r.Status, observed)
	if r.Why != "" {
		out += "\nnote: " + r.Why
	}
	out += "\nexpected: " + r.Expected + "\nspec: " + r.Spec
	if r.Transcript != "" {
		out += "\n" + r.Transcript
	}
	return out, nil
}
