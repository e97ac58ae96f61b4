package htmlreport

// css is the page's whole style, inline. Status colours come with a shape
// and a word (statusMark), so that they read in grey and for colour-blind
// readers; the palette is Okabe–Ito's.
const css = `
:root{--fail:#b00020;--pass:#0b6e4f;--warn:#8a5a00;--dev:#5b3a8c;--na:#555;--ink:#1a1a1a;--line:#888;--fault:#a34700}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--ink);background:#fff}
main{max-width:1400px;margin:0 auto;padding:16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:0;display:inline}h3{font-size:15px}
.sub{color:#444;margin:0 0 12px;font-family:ui-monospace,monospace;font-size:12px;word-break:break-all}
.badge{display:inline-block;padding:0 6px;border:2px solid;border-radius:3px;font-weight:600;font-size:12px;white-space:nowrap}
.st-pass{color:var(--pass);border-color:var(--pass)}
.st-fail{color:#fff;background:var(--fail);border-color:var(--fail)}
.st-nr{color:var(--fail);border-color:var(--fail);border-style:dashed}
.st-warn{color:var(--warn);border-color:var(--warn)}
.st-dev{color:var(--dev);border-color:var(--dev);border-style:double;border-width:3px}
.st-na{color:var(--na);border-color:#aaa}
table.verdicts{border-collapse:collapse;width:100%;margin:8px 0 20px}
.verdicts th,.verdicts td{border-bottom:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}
.verdicts td.num{text-align:right;white-space:nowrap}
.row-fail td:first-child,.row-nr td:first-child{border-left:4px solid var(--fail)}
details.case{border:1px solid #ccc;border-radius:4px;margin:10px 0;padding:6px 10px}
details.case>summary{cursor:pointer}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:8px 0}
dl.facts dt{font-weight:600;color:#333}dl.facts dd{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
ul.violations{padding-left:18px}
.wire{display:grid;grid-template-columns:minmax(0,auto) minmax(0,1fr);gap:14px;align-items:start}
figure.diagram{margin:0}
svg.seq{display:block;max-width:100%;height:auto;margin-bottom:4px;break-inside:avoid;page-break-inside:avoid}
svg.seq text{font:12px system-ui,"DejaVu Sans",sans-serif;fill:var(--ink)}
svg.seq .lane rect{fill:#eef2f7;stroke:#345}svg.seq .lane line{stroke:var(--line);stroke-dasharray:2 3}
svg.seq .lane-label{font-weight:600}
svg.seq .arrow line{stroke:var(--ink);stroke-width:1.4}svg.seq .arrow polygon{fill:var(--ink)}
svg.seq .arrow polyline.open{fill:none;stroke:var(--ink);stroke-width:1.4}
svg.seq .k-error line{stroke:var(--fail)}svg.seq .k-error polygon{fill:var(--fail)}svg.seq .cross{fill:var(--fail);font-weight:700}
svg.seq .k-auth line{stroke:#345}
svg.seq .note{fill:#fde8e8;stroke:var(--fail)}
svg.seq text.mark{fill:var(--fault);font-weight:600;font-size:11px}
svg.seq .folded rect{fill:#f3f3f3;stroke:#bbb;stroke-dasharray:4 3}svg.seq .folded text{fill:#444;font-style:italic}
svg.seq a:target g line,svg.seq g:target line{stroke-width:3}
ol.transcript{list-style:none;margin:0;padding:0;font:12px/1.5 ui-monospace,"DejaVu Sans Mono",monospace}
ol.transcript li{padding:1px 4px;border-bottom:1px dotted #e3e3e3;overflow-wrap:anywhere}
ol.transcript li:target{background:#fff3c4}
ol.transcript .seq{display:inline-block;min-width:3em;text-align:right}
ol.transcript .at{color:#666}ol.transcript .http{color:#345}
ol.transcript .fault{color:var(--fault);font-weight:600}ol.transcript .problem{color:var(--fail);font-weight:600}
ol.transcript ol{list-style:none;padding-left:12px}
a.spec::after{content:" ↗"}
.lesson{border:2px solid #345;border-radius:6px;padding:8px 14px;margin:10px 0 16px;background:#f7f9fc}
.switch label{display:inline-block;border:1px solid #345;border-radius:3px;padding:2px 10px;cursor:pointer;margin-right:4px}
input.lang{position:absolute;opacity:0}
#lang-es:checked~main .en,#lang-en:checked~main .es{display:none}
#lang-es:checked~main label[for=lang-es],#lang-en:checked~main label[for=lang-en]{background:#345;color:#fff}
nav.index li{margin:4px 0}.alt{color:#555}
footer{margin-top:24px;color:#555;font-size:12px}
@media (max-width:900px){.wire{grid-template-columns:1fr}}
@media print{
 @page{size:A4;margin:12mm}
 main{max-width:none;padding:0}
 .wire{grid-template-columns:1fr}
 details.case{break-inside:auto}
 .st-fail{color:var(--fail);background:none}
 a{color:inherit}
}
`
