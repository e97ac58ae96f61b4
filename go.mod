module github.com/mcpmock/mcpmock

go 1.25.5

require (
	github.com/google/uuid v1.6.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/stretchr/testify v1.12.1
	github.com/tidwall/gjson v1.20.4
	github.com/tidwall/sjson v1.2.9
	github.com/yosida95/uritemplate/v3 v3.0.2
	go.uber.org/goleak v1.3.0
	golang.org/x/text v0.14.0
)

require (
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.3.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
