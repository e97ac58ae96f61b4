package mcptest

import (
	"fmt"
	"strconv"

	"github.com/mcpmock/mcpmock/internal/uritemplate"
)

// Resource is a resource the mock serves: its definition, as resources/list
// shows it, and its scripted answers to resources/read. Build one with
// NewResource and register it with Server.WithResources or SetResources.
type Resource struct {
	uri, mimeType string
	def           definition
	script        script
}

// NewResource starts the definition of the resource at uri with the given name.
func NewResource(uri, name string) *Resource {
	r := &Resource{uri: uri}
	r.def.setValue("uri", uri, "NewResource")
	r.def.setValue("name", name, "NewResource")
	return r
}

func (r *Resource) set(key string, v any, call string) *Resource {
	r.def.setValue(key, v, r.label()+"."+call)
	return r
}

// URI returns the resource's URI.
func (r *Resource) URI() string { return r.uri }

// WithTitle sets the human-readable title.
func (r *Resource) WithTitle(title string) *Resource { return r.set("title", title, "WithTitle") }

// WithDescription sets the description.
func (r *Resource) WithDescription(d string) *Resource {
	return r.set("description", d, "WithDescription")
}

// WithMIMEType sets the MIME type, used also by ReturnsText and ReturnsBlob.
func (r *Resource) WithMIMEType(mimeType string) *Resource {
	r.mimeType = mimeType
	return r.set("mimeType", mimeType, "WithMIMEType")
}

// WithSize sets the size in bytes.
func (r *Resource) WithSize(n int64) *Resource { return r.set("size", n, "WithSize") }

// WithField sets any other field of the definition (annotations, icons,
// _meta, …) to a Go value (a json.RawMessage for JSON text).
func (r *Resource) WithField(key string, value any) *Resource {
	return r.set(key, value, "WithField("+strconv.Quote(key)+")")
}

// Returns scripts the replies to resources/read: the first read gets the
// first reply, the last repeats.
func (r *Resource) Returns(replies ...Reply) *Resource {
	r.script.add(fmt.Sprintf("NewResource(%q).Returns", r.uri), replies)
	return r
}

// ReturnsText answers reads with text contents at this URI and MIME type.
func (r *Resource) ReturnsText(text string) *Resource {
	return r.Returns(ReadResult(TextResourceContents(r.uri, r.mimeType, text)))
}

// ReturnsBlob answers reads with binary contents at this URI and MIME type.
func (r *Resource) ReturnsBlob(data []byte) *Resource {
	return r.Returns(ReadResult(BlobResourceContents(r.uri, r.mimeType, data)))
}

// RequiresInput makes every read ask the client for inputs first, as
// Tool.RequiresInput does.
func (r *Resource) RequiresInput(inputs ...InputRequest) *Resource {
	r.script.requireInput(r.label()+".RequiresInput", inputs)
	return r
}

// HandledBy sets a Handler for reads no Returns reply answers.
func (r *Resource) HandledBy(h Handler) *Resource {
	r.script.handle(fmt.Sprintf("NewResource(%q).HandledBy", r.uri), h)
	return r
}

// String names the resource, for failure messages.
func (r *Resource) label() string { return fmt.Sprintf("NewResource(%q)", r.uri) }

func (r *Resource) entry() entry {
	return newEntry(r.uri, &r.def, &r.script)
}

// ResourceTemplate is a parameterised resource (RFC 6570 URI template) the
// mock lists in resources/templates/list and whose URIs it answers in
// resources/read. The template's variables are handed to a Handler in
// Request.Vars.
type ResourceTemplate struct {
	template, mimeType string
	def                definition
	script             script
}

// NewResourceTemplate starts the definition of a resource template: an
// RFC 6570 URI template of any level ({name}, {+path}, {/segments*},
// {?query,page}, …). A read's URI matches it when it is an expansion of
// it; its variables, decoded, are Request.Vars (a variable that took
// several values, as {/path*} does, is them joined with the separator
// the URI put between them: "a/b/c").
func NewResourceTemplate(uriTemplate, name string) *ResourceTemplate {
	r := &ResourceTemplate{template: uriTemplate}
	r.def.setValue("uriTemplate", uriTemplate, "NewResourceTemplate")
	r.def.setValue("name", name, "NewResourceTemplate")
	return r
}

func (r *ResourceTemplate) set(key string, v any, call string) *ResourceTemplate {
	r.def.setValue(key, v, r.label()+"."+call)
	return r
}

// WithTitle sets the human-readable title.
func (r *ResourceTemplate) WithTitle(title string) *ResourceTemplate {
	return r.set("title", title, "WithTitle")
}

// WithDescription sets the description.
func (r *ResourceTemplate) WithDescription(d string) *ResourceTemplate {
	return r.set("description", d, "WithDescription")
}

// WithMIMEType sets the MIME type, used also by ReturnsText.
func (r *ResourceTemplate) WithMIMEType(mimeType string) *ResourceTemplate {
	r.mimeType = mimeType
	return r.set("mimeType", mimeType, "WithMIMEType")
}

// WithField sets any other field of the definition to a Go value (a
// json.RawMessage for JSON text).
func (r *ResourceTemplate) WithField(key string, value any) *ResourceTemplate {
	return r.set(key, value, "WithField("+strconv.Quote(key)+")")
}

// Returns scripts the replies to reads of any URI the template matches.
func (r *ResourceTemplate) Returns(replies ...Reply) *ResourceTemplate {
	r.script.add(fmt.Sprintf("NewResourceTemplate(%q).Returns", r.template), replies)
	return r
}

// WhenVars scripts replies for URIs whose template variables contain subset
// (e.g. map[string]string{"id": "42"}); cases are tried before Returns.
func (r *ResourceTemplate) WhenVars(subset map[string]string, replies ...Reply) *ResourceTemplate {
	r.script.when(fmt.Sprintf("NewResourceTemplate(%q).WhenVars", r.template), subset, replies)
	return r
}

// ReturnsText answers every matched URI with text contents at that URI.
func (r *ResourceTemplate) ReturnsText(text string) *ResourceTemplate {
	mime := r.mimeType
	return r.HandledBy(func(_ ctxT, req *Request) Reply {
		return ReadResult(TextResourceContents(req.Message.Get("params.uri").String(), mime, text))
	})
}

// HandledBy sets a Handler for reads no WhenVars case or Returns reply answers.
func (r *ResourceTemplate) HandledBy(h Handler) *ResourceTemplate {
	r.script.handle(fmt.Sprintf("NewResourceTemplate(%q).HandledBy", r.template), h)
	return r
}

// String names the template, for failure messages.
func (r *ResourceTemplate) label() string { return fmt.Sprintf("NewResourceTemplate(%q)", r.template) }

func (r *ResourceTemplate) entry() entry {
	e := newEntry(r.template, &r.def, &r.script)
	t, err := uritemplate.Parse(r.template)
	if err != nil {
		e.problems = append(e.problems, r.label()+": "+err.Error())
	}
	e.tmpl = t
	return e
}
