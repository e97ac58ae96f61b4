package config_test

import (
	"fmt"

	"github.com/mcpmock/mcpmock/config"
)

// A file with mistakes is refused with each at its line and field.
func ExampleParse() {
	_, err := config.Parse("weather.json", []byte(`{
  "server": {"name": "weather"},
  "tools": [{"name": "get_forecast", "replies": [{"txt": "sunny"}]}],
  "faults": [{"fault": "Delay", "method": "tools/call", "duration": "2 seconds"}]
}`))
	fmt.Println(err)
	// Output:
	// weather.json:2:3: server: missing required field "version"
	// weather.json:3:50: tools[0].replies[0]: unknown field "txt" (did you mean "text"?); allowed here: content, error, result, rpcError, structured, text
	// weather.json:4:57: faults[0].duration: "2 seconds" is not a duration: write it as Go does, e.g. "250ms", "2s", "1m30s"
}

// The faults a file can name, with their parameters.
func ExampleFaults() {
	for _, f := range config.Faults() {
		if f.Name == "Delay" || f.Name == "SetField" {
			fmt.Println(f)
		}
	}
	// Output:
	// {fault: "Delay", method: string, duration: duration}: answers method after a delay
	// {fault: "SetField", method: string, path: string, value: any JSON}: sets a field of the replies to method
}
