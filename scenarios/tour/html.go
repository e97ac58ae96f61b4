package tour

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpmock/mcpmock/internal/htmlreport"
	"github.com/mcpmock/mcpmock/scenarios"
)

// summaryES is each mistake in the lesson's own Spanish words (the
// handshake lesson's "Errores típicos", section 11), by lesson number:
// the tour's pages carry it beside the English Summary.
var summaryES = map[int]string{
	1: `Un problema muy frecuente al implementar a mano un servidor MCP sin SDK es perder algún campo obligatorio de JSON-RPC. Por ejemplo, olvidar jsonrpc: "2.0", confundir method (escribir "init" en vez de "initialize") o convertir capabilities en un booleano en vez de un objeto. La especificación MCP espera un formato estricto; cualquier desviación lleva a errores de parsing y a romper la conexión. La documentación y las guías prácticas recomiendan asegurarse primero de que initialize cumple estrictamente la especificación antes de mirar cualquier otra cosa.`,
	2: `A veces los desarrolladores simplemente copian un ejemplo de la documentación y ponen una cadena arbitraria sin mirar el soporte en el SDK. Como resultado, cliente y servidor hablan versiones distintas de MCP y la conexión no se establece. El error puede disfrazarse de «el cliente no se conecta». Debe tratarse protocolVersion como un contrato real: acordar esa versión entre el equipo de frontend/plataforma de agentes y el equipo que escribe el servidor MCP.`,
	3: `Situación clásica: registraste una herramienta en el servidor, pero al implementar a mano el handshake olvidaste añadir "tools": {} en las capabilities de la respuesta initialize. En el inspector ves que hay herramientas, pero ChatGPT muestra «No tools available» — porque confía en capabilities y no hace tools/list si la sección tools no está. Las guías de resolución de problemas del Apps SDK subrayan: si ChatGPT no ve las herramientas, lo primero es revisar las capabilities.`,
	4: `A veces los alumnos experimentan y, por ejemplo, envían resources/list a un servidor cuyo capabilities no tiene sección resources. Formalmente el servidor podría responder Method not found, pero lo correcto es no invocar esos métodos. MCP introduce capabilities precisamente como protección ante intentos así. El cliente debe mirar primero si existe la sección correspondiente en capabilities y solo entonces invocar los métodos.`,
	5: `Si el servidor, nada más enviar la respuesta a initialize, empieza a mandar logs o notificaciones sin esperar notifications/initialized, algunos clientes pueden ignorar esos mensajes o incluso cortar la conexión. En la arquitectura oficial de MCP se subraya que primero debe terminar el handshake y solo después de la notificación de inicialización empieza la vida “laboral”.`,
	6: `Cuando cambias el JSON Schema de una herramienta (vuelves un campo obligatorio, renombras un argumento), pero no reinicias el servidor o no envías la notificación de que la lista de herramientas ha cambiado, la caché del cliente puede contener la versión antigua del esquema. Esto produce errores de validación extraños. La especificación propone usar el flag listChanged y las notificaciones tools/list_changed y resources/list_changed para ayudar al cliente a actualizar su caché a tiempo.`,
	7: `A veces los desarrolladores empiezan a idear esquemas complejos con generación dinámica de capabilities, versionado por cliente y otra exotrería, sin haber entendido los mecanismos básicos. Al principio basta con declarar honestamente qué sabe hacer el servidor: tools, resources, prompts, logging. Amplía las capabilities a medida que haya una necesidad real, no “por si acaso”. Es más un antipatrón organizativo que un error puramente de protocolo, pero en proyectos en producción se ve muy a menudo.`,
}

// htmlPages collects, while Play runs with Tour.HTMLDir set, the cases of
// each page: one per lesson, one for the authorization walk, one for the
// rest of the catalog.
type htmlPages struct {
	pages []tourPage
}

type tourPage struct {
	file, title, titleES string
	lesson               *Lesson
	cases                []htmlreport.Case
}

// begin starts the page of the item shown next.
func (h *htmlPages) begin(it item) {
	if h == nil {
		return
	}
	p := tourPage{}
	switch {
	case it.lesson != nil:
		l := it.lesson
		p = tourPage{file: fmt.Sprintf("mistake-%d-%s.html", l.Number, l.Name), title: fmt.Sprintf("Mistake %d of %d: %s", l.Number, len(lessons), l.Title),
			titleES: fmt.Sprintf("Error n.º %d: %s", l.Number, l.TitleES), lesson: l}
	case it.auth:
		p = tourPage{file: "authorization.html", title: "The authorization walk", titleES: "El recorrido de la autorización"}
	case it.rest || len(h.pages) == 0:
		p = tourPage{file: "catalog.html", title: "The rest of the catalog", titleES: "El resto del catálogo"}
	default:
		return // a scenario after the first of the rest: the same page
	}
	h.pages = append(h.pages, p)
}

// keep adds a played scenario's case to the current page.
func (h *htmlPages) keep(o scenarios.Outcome, r scenarios.Result, client string) {
	if h == nil || len(h.pages) == 0 || htmlreport.FromServer == nil {
		return
	}
	c := htmlreport.FromServer(o.Server)
	c.Name, c.Status, c.Spec, c.Expected, c.DecisionPoint, c.Observed, c.Why, c.Elapsed =
		r.Scenario, string(r.Status), r.Spec, r.Expected, r.DecisionPoint, r.Observed, r.Why, o.Elapsed
	if r.Basis != (scenarios.Basis{}) {
		c.Basis = r.Basis.String()
	}
	c.Name += " — " + client
	p := &h.pages[len(h.pages)-1]
	p.cases = append(p.cases, c)
}

// write writes the pages and index.html into dir.
func (h *htmlPages) write(dir, client string) error {
	if h == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("tour: the HTML directory: %v", err)
	}
	index := htmlreport.Page{Title: "mcpmock tour", Subtitle: "played with " + client}
	for _, p := range h.pages {
		page := htmlreport.Page{Title: p.title, Subtitle: "mcpmock tour, played with " + client, Cases: p.cases}
		if l := p.lesson; l != nil {
			page.Lesson = &htmlreport.Lesson{Number: l.Number, Of: len(lessons), TitleEN: l.Title, TitleES: l.TitleES,
				SummaryEN: l.Summary, SummaryES: summaryES[l.Number], FixEN: l.Fix, FixES: l.FixES}
		}
		if err := htmlreport.WriteFile(filepath.Join(dir, p.file), page); err != nil {
			return fmt.Errorf("tour: %v", err)
		}
		status := "pass"
		for _, c := range p.cases {
			if c.Status != "pass" && c.Status != "not-applicable" {
				status = c.Status
			}
		}
		if p.lesson != nil && p.lesson.Side == ClientSide {
			status = "" // a naive client's fail is the lesson, not bad news
		}
		index.Links = append(index.Links, htmlreport.Link{Href: p.file, Text: p.title, TextES: p.titleES, Status: status})
	}
	if err := htmlreport.WriteFile(filepath.Join(dir, "index.html"), index); err != nil {
		return fmt.Errorf("tour: %v", err)
	}
	return nil
}
