package config

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed schema.json
var schemaJSON []byte

// Schema returns the JSON Schema (draft 2020-12) of a config file: the
// contents of config/schema.json in the repository. Point an editor at it
// with "$schema" for completion and checks as you type.
func Schema() []byte { return bytes.Clone(schemaJSON) }

// schemaURL is the schema's $id.
const schemaURL = "https://github.com/mcpmock/mcpmock/config/schema.json"

var schemaDoc = sync.OnceValue(func() map[string]any {
	var doc map[string]any
	if err := json.Unmarshal(schemaJSON, &doc); err != nil {
		panic(fmt.Sprintf("config: schema.json is not JSON: %v", err)) // a build defect, caught by the tests
	}
	return doc
})

var compiled = sync.OnceValue(func() *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		panic(fmt.Sprintf("config: schema.json: %v", err))
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaURL, doc); err != nil {
		panic(fmt.Sprintf("config: schema.json: %v", err))
	}
	s, err := c.Compile(schemaURL)
	if err != nil {
		panic(fmt.Sprintf("config: schema.json does not compile: %v", err))
	}
	return s
})

// faultDefs returns the schema's definitions of faults, made from the
// fault table: "fault" (the name and, by name, the parameters) and one
// "fault.NAME" per fault. schema.json holds them; a test keeps the two in
// step (go test ./config -run TestSchemaFaults -update rewrites them).
func faultDefs() map[string]any {
	defs := map[string]any{}
	names := faultNames()
	var branches []any
	for _, n := range names {
		s := faultSpecs()[n]
		props := map[string]any{"fault": map[string]any{"const": n}}
		var required []any
		required = append(required, "fault")
		for _, p := range append(append([]FaultParam(nil), s.Params...), refinements...) {
			props[p.Name] = paramSchema(p)
			if p.Required {
				required = append(required, p.Name)
			}
		}
		defs["fault."+n] = map[string]any{
			"description":          s.Doc,
			"type":                 "object",
			"additionalProperties": false,
			"required":             required,
			"properties":           props,
		}
		branches = append(branches, map[string]any{
			"if":   map[string]any{"properties": map[string]any{"fault": map[string]any{"const": n}}, "required": []any{"fault"}},
			"then": map[string]any{"$ref": "#/$defs/fault." + n},
		})
	}
	enum := make([]any, len(names))
	for i, n := range names {
		enum[i] = n
	}
	defs["fault"] = map[string]any{
		"description": "a fault by its mcptest name, with its parameters and trigger refinements (nth, session, probability, optional)",
		"type":        "object",
		"required":    []any{"fault"},
		"properties":  map[string]any{"fault": map[string]any{"enum": enum}},
		"allOf":       branches,
	}
	return defs
}

// durationPattern is the schema's pattern of a duration: Go's syntax.
const durationPattern = `^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`

func paramSchema(p FaultParam) map[string]any {
	var s map[string]any
	switch p.Name {
	case "nth", "session":
		s = map[string]any{"type": "integer", "minimum": 1}
	case "probability":
		s = map[string]any{"type": "number", "exclusiveMinimum": 0, "maximum": 1}
	case "optional":
		s = map[string]any{"type": "boolean"}
	default:
		switch p.kind {
		case pString:
			s = map[string]any{"type": "string"}
		case pStrings:
			s = map[string]any{"type": "array", "items": map[string]any{"type": "string"}}
		case pInt:
			if p.Name == "code" {
				s = map[string]any{"type": "integer"}
			} else {
				s = map[string]any{"type": "integer", "minimum": 0}
			}
		case pBool:
			s = map[string]any{"type": "boolean"}
		case pDuration:
			s = map[string]any{"type": "string", "pattern": durationPattern}
		default:
			s = map[string]any{}
		}
	}
	s["description"] = p.Doc
	return s
}

// renderSchema returns schema.json as it should be: the hand-written
// definitions with the fault definitions made from the table, indented.
func renderSchema() ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(schemaJSON, &doc); err != nil {
		return nil, err
	}
	defs := doc["$defs"].(map[string]any)
	for k := range defs {
		if k == "fault" || len(k) > 6 && k[:6] == "fault." {
			delete(defs, k)
		}
	}
	for k, v := range faultDefs() {
		defs[k] = v
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
