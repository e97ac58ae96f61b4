package tour

import (
	"fmt"
	"strconv"
)

// Side says whose mistake a lesson is about.
type Side int

const (
	// ClientSide: the client makes the mistake. The tour shows it with a
	// deliberately naive hand-written client, and the mock catches it: the
	// violation report is the lesson.
	ClientSide Side = iota + 1
	// ServerSide: the server makes the mistake. The tour shows the client
	// it was given meeting a mock that makes it, and what a correct client
	// does.
	ServerSide
)

// String returns "client" or "server".
func (s Side) String() string {
	switch s {
	case ClientSide:
		return "client"
	case ServerSide:
		return "server"
	}
	return "Side(" + strconv.Itoa(int(s)) + ")"
}

// Lesson is one of the seven classic mistakes the handshake lesson ends
// with, in the lesson's terms, and the scenarios of the catalog that show
// it on the wire.
type Lesson struct {
	// Number is the lesson's own number, 1 to 7.
	Number int
	// Name is short and stable, for the command line:
	// go run ./examples/handshake malformed-initialize.
	Name string
	// Title and TitleES name the mistake, in English and in the lesson's
	// Spanish.
	Title, TitleES string
	// Side says whose mistake it is.
	Side Side
	// Summary is the mistake in one or two sentences.
	Summary string
	// Scenarios are the names of the catalog scenarios that show it, in the
	// order shown.
	Scenarios []string
	// Fix and FixES say how to fix it, in English and Spanish.
	Fix, FixES string

	// naive is, for a client-side lesson, the hand-written client that
	// makes the mistake.
	naive Client
}

// String is "Mistake 3 of 7: a forgotten capability (forgotten-capability)".
func (l Lesson) String() string {
	return fmt.Sprintf("Mistake %d of %d: %s (%s)", l.Number, len(lessons), l.Title, l.Name)
}

// Lessons returns the seven, in the lesson's order. Each call returns
// fresh values.
func Lessons() []Lesson {
	out := make([]Lesson, len(lessons))
	for i, l := range lessons {
		l.Scenarios = append([]string(nil), l.Scenarios...)
		out[i] = l
	}
	return out
}

var lessons = []Lesson{
	{
		Number:    1,
		Name:      "malformed-initialize",
		Title:     "a malformed initialize request",
		TitleES:   "formato incorrecto de la solicitud initialize",
		Side:      ClientSide,
		Summary:   `A hand-written client loses a mandatory field of JSON-RPC: it forgets "jsonrpc": "2.0", writes "init" instead of "initialize", or sends capabilities as a boolean instead of an object.`,
		Scenarios: []string{"giftgen-handshake"},
		Fix: `Check initialize against the spec before anything else: "jsonrpc": "2.0" on every message, the method "initialize", ` +
			`and params with protocolVersion (a string), capabilities (an object: {} when you declare nothing) and clientInfo {name, version}. ` +
			`Better: let an SDK build it.`,
		FixES: `Comprueba initialize contra la especificación antes que nada: "jsonrpc": "2.0" en cada mensaje, el método "initialize", ` +
			`y en params protocolVersion (una cadena), capabilities (un objeto: {} si no declaras nada) y clientInfo {name, version}. ` +
			`Mejor aún: deja que un SDK la construya.`,
		naive: malformedInitializeClient,
	},
	{
		Number:  2,
		Name:    "ignored-protocol-version",
		Title:   "protocolVersion ignored",
		TitleES: "ignorar protocolVersion",
		Side:    ServerSide,
		Summary: `An arbitrary version string copied from an example instead of one the SDK speaks: client and server speak different versions of MCP, ` +
			`and the failure looks like "the client does not connect".`,
		Scenarios: []string{"protocol-version-unknown"},
		Fix: `Treat protocolVersion as a contract: answer the version the client asked for when you support it, otherwise the latest one you do support, ` +
			`never a string of your own. Know which versions your SDK speaks, and log initialization failures with both versions.`,
		FixES: `Trata protocolVersion como un contrato: responde la versión que pidió el cliente si la soportas y, si no, la más reciente que soportes, ` +
			`nunca una cadena inventada. Conoce las versiones que habla tu SDK y registra los fallos de inicialización con ambas versiones.`,
	},
	{
		Number:  3,
		Name:    "forgotten-capability",
		Title:   "a forgotten capability",
		TitleES: "capabilities olvidadas",
		Side:    ServerSide,
		Summary: `The server registers a tool, but its initialize result has no tools section: a host that trusts the capabilities never lists the tools ` +
			`and shows "No tools available", although an inspector that lists anyway sees them.`,
		Scenarios: []string{"tools-capability-missing"},
		Fix: `Declare every primitive you serve: "tools": {} (with listChanged if you will announce changes) as soon as one tool is registered. ` +
			`Let the SDK build the capabilities from what you registered; when a host sees no tools, look at the capabilities first.`,
		FixES: `Declara cada primitivo que sirves: "tools": {} (con listChanged si vas a anunciar cambios) en cuanto registras una herramienta. ` +
			`Deja que el SDK construya las capabilities a partir de lo registrado; si un host no ve herramientas, revisa primero las capabilities.`,
	},
	{
		Number:    4,
		Name:      "undeclared-method-calls",
		Title:     "calling methods the capabilities did not declare",
		TitleES:   "usar métodos no declarados en capabilities",
		Side:      ClientSide,
		Summary:   `The client sends resources/list to a server whose capabilities have no resources section, instead of reading the capabilities first.`,
		Scenarios: []string{"undeclared-methods"},
		Fix: `Read the server's capabilities before calling anything: no resources section, no resources/list or resources/read; ` +
			`the same for tools, prompts, logging and completions. A -32601 from the server is its last line of defence, not the protocol.`,
		FixES: `Lee las capabilities del servidor antes de llamar a nada: sin sección resources, nada de resources/list ni resources/read; ` +
			`lo mismo con tools, prompts, logging y completions. Un -32601 del servidor es su última defensa, no el protocolo.`,
		naive: undeclaredMethodsClient,
	},
	{
		Number:  5,
		Name:    "talking-before-initialized",
		Title:   "the server talks before notifications/initialized",
		TitleES: `el servidor empieza a "hablar" antes de notifications/initialized`,
		Side:    ServerSide,
		Summary: `Right after its initialize result, the server sends logs or notifications without waiting for notifications/initialized; ` +
			`some clients ignore them, others drop the connection.`,
		Scenarios: []string{"notify-before-initialized"},
		Fix: `Send nothing but the initialize result (and, if you must, ping or logging) until notifications/initialized has arrived; ` +
			`queue what happens before it. A client, for its part, tolerates an early notification.`,
		FixES: `No envíes nada salvo el resultado de initialize (y, como mucho, ping o logging) hasta recibir notifications/initialized; ` +
			`encola lo que ocurra antes. El cliente, por su parte, tolera una notificación temprana.`,
	},
	{
		Number:  6,
		Name:    "silent-schema-change",
		Title:   "a tool's schema changed without tools/list_changed",
		TitleES: "cambiar el esquema de herramientas sin señal de cambio de lista",
		Side:    ServerSide,
		Summary: `The server makes a field required or renames an argument and says nothing: the client's cached schema is stale and its calls fail oddly. ` +
			`The second scenario is the fix: the server announces the change, and the client must list again.`,
		Scenarios: []string{"tools-schema-changed-quietly", "tools-list-changed"},
		Fix: `When a tool's schema changes, declare tools.listChanged and send notifications/tools/list_changed (or restart the server so that clients list again). ` +
			`A client lists the tools again on the notification, and after a -32602 it did not expect.`,
		FixES: `Cuando cambie el esquema de una herramienta, declara tools.listChanged y envía notifications/tools/list_changed (o reinicia el servidor para que los clientes vuelvan a listar). ` +
			`Un cliente vuelve a listar al recibir la notificación, y tras un -32602 inesperado.`,
	},
	{
		Number:  7,
		Name:    "capability-magic",
		Title:   "premature magic around capabilities",
		TitleES: `optimización prematura y "magia" en torno a capabilities`,
		Side:    ServerSide,
		Summary: `Capabilities generated per client, per session or per era, declared "just in case", or new keys an old client does not know. ` +
			`A correct client trusts the capabilities of the session it is in, ignores keys it does not know, and copes with a capability that has nothing behind it.`,
		Scenarios: []string{"capabilities-differ-by-era", "capabilities-per-session", "capabilities-unknown-keys", "capabilities-lie"},
		Fix: `Declare honestly what the server does, the same for every client, session and era (server/discover and initialize alike), ` +
			`and grow the capabilities when a real need comes, not "just in case". New features come as new keys: old clients ignore the keys they do not know.`,
		FixES: `Declara honestamente lo que hace el servidor, igual para cada cliente, sesión y era (server/discover e initialize por igual), ` +
			`y amplía las capabilities cuando haya una necesidad real, no "por si acaso". Las funciones nuevas llegan como claves nuevas: los clientes antiguos ignoran las que no conocen.`,
	},
}

// lookupLesson finds a lesson by number ("3") or name.
func lookupLesson(arg string) (Lesson, bool) {
	for _, l := range lessons {
		if arg == strconv.Itoa(l.Number) || arg == l.Name {
			return l, true
		}
	}
	return Lesson{}, false
}
