package mcptest

import (
	"context"
	"fmt"
	"strconv"
)

type ctxT = context.Context

// Prompt is a prompt the mock serves: its definition, as prompts/list shows
// it, and its scripted answers to prompts/get. Build one with NewPrompt and
// register it with Server.WithPrompts or SetPrompts.
type Prompt struct {
	name     string
	def      definition
	args     []promptArg
	required []string
	script   script
}

type promptArg struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// NewPrompt starts the definition of a prompt named name.
func NewPrompt(name string) *Prompt {
	p := &Prompt{name: name}
	p.def.setValue("name", name, "NewPrompt")
	return p
}

func (p *Prompt) set(key string, v any, call string) *Prompt {
	p.def.setValue(key, v, p.label()+"."+call)
	return p
}

// Name returns the prompt's name.
func (p *Prompt) Name() string { return p.name }

// WithTitle sets the human-readable title.
func (p *Prompt) WithTitle(title string) *Prompt { return p.set("title", title, "WithTitle") }

// WithDescription sets the description.
func (p *Prompt) WithDescription(d string) *Prompt {
	return p.set("description", d, "WithDescription")
}

// WithArgument declares an argument. A prompts/get without a required
// argument is answered with -32602 (invalid params).
func (p *Prompt) WithArgument(name, description string, required bool) *Prompt {
	p.args = append(p.args, promptArg{Name: name, Description: description, Required: required})
	if required {
		p.required = append(p.required, name)
	}
	return p.set("arguments", p.args, "WithArgument")
}

// WithField sets any other field of the definition to a Go value (a
// json.RawMessage for JSON text).
func (p *Prompt) WithField(key string, value any) *Prompt {
	return p.set(key, value, "WithField("+strconv.Quote(key)+")")
}

// Returns scripts the replies to prompts/get, in sequence, the last repeating.
func (p *Prompt) Returns(replies ...Reply) *Prompt {
	p.script.add(fmt.Sprintf("NewPrompt(%q).Returns", p.name), replies)
	return p
}

// ReturnsText is Returns(PromptResult("", UserText(text))).
func (p *Prompt) ReturnsText(text string) *Prompt {
	return p.Returns(PromptResult("", UserText(text)))
}

// WhenArgs scripts replies for gets whose arguments contain subset; cases
// are tried before Returns.
func (p *Prompt) WhenArgs(subset any, replies ...Reply) *Prompt {
	p.script.when(fmt.Sprintf("NewPrompt(%q).WhenArgs", p.name), subset, replies)
	return p
}

// RequiresInput makes every get ask the client for inputs first, as
// Tool.RequiresInput does.
func (p *Prompt) RequiresInput(inputs ...InputRequest) *Prompt {
	p.script.requireInput(p.label()+".RequiresInput", inputs)
	return p
}

// HandledBy sets a Handler for gets no WhenArgs case or Returns reply answers.
func (p *Prompt) HandledBy(h Handler) *Prompt {
	p.script.handle(fmt.Sprintf("NewPrompt(%q).HandledBy", p.name), h)
	return p
}

// String names the prompt, for failure messages.
func (p *Prompt) label() string { return fmt.Sprintf("NewPrompt(%q)", p.name) }

func (p *Prompt) entry() entry {
	e := newEntry(p.name, &p.def, &p.script)
	e.required = append([]string(nil), p.required...)
	return e
}
