package config

import (
	"slices"
	"testing"

	"github.com/mcpmock/mcpmock/internal/spec"
)

// TestSchemaVersionsAreTheProtocols: the protocolVersions a config file may
// name (schema.json, written for editors) are the protocol table's versions.
func TestSchemaVersionsAreTheProtocols(t *testing.T) {
	defs, _ := schemaDoc()["$defs"].(map[string]any)
	cfg, _ := defs["config"].(map[string]any)
	props, _ := cfg["properties"].(map[string]any)
	pv, _ := props["protocolVersions"].(map[string]any)
	items, _ := pv["items"].(map[string]any)
	enum, _ := items["enum"].([]any)
	var got []string
	for _, v := range enum {
		s, _ := v.(string)
		got = append(got, s)
	}
	if want := spec.Versions(); !slices.Equal(got, want) {
		t.Errorf("schema.json $defs.config.properties.protocolVersions.items.enum = %v, want the protocol's versions %v: edit schema.json", got, want)
	}
}
