"""``index.html``: one self-contained page per report, readable offline.

The page shows the question, the highlights, where the numbers come from
(provenance), the charts as ``<img>`` links to the PNGs beside it, and the tables
(the first rows, with links to the full CSV/Parquet). It uses no script, no web font
and no network: open it from a file share or a zip. It is rendered from
``summary.json`` and the tables as read back from the CSV files, so
``lanchester report DIR`` rebuilds the same page from the folder alone.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

import pandas as pd

from reports.tables import COLUMN_HELP
from simulator.run.output import SE_LEGEND

MAX_ROWS = 25    # rows of a table shown on the page; a longer one is a chart (its CSV has every row)

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 1200px;
       padding: 0 1rem; color: #222; line-height: 1.4; }
h1 { font-size: 1.6rem; margin: 0.2rem 0 1rem; } h2 { margin-top: 2rem; border-bottom: 1px solid #ddd; }
.kind { color: #777; margin: 0; text-transform: uppercase; font-size: 0.8rem; letter-spacing: 0.05em; }
dl.grid { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; }
dl.grid dt { font-weight: 600; } dl.grid dd { margin: 0; }
.highlights { background: #f3f7fb; padding: 0.6rem 1rem; border-radius: 6px; }
figure { margin: 1.5rem 0; } figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { color: #555; font-size: 0.9rem; }
table { border-collapse: collapse; font-size: 0.85rem; margin: 0.5rem 0; }
th, td { border: 1px solid #ddd; padding: 0.2rem 0.5rem; text-align: right; }
th { background: #f4f4f4; } td.text { text-align: left; }
code { background: #f4f4f4; padding: 0.1rem 0.3rem; word-break: break-all; }
.note { color: #555; font-size: 0.9rem; }
.card { border: 1px solid #ddd; border-radius: 6px; padding: 0.8rem 1rem; margin: 1rem 0; }
.card img { max-width: 420px; height: auto; float: right; margin-left: 1rem; border: 1px solid #eee; }
.card::after { content: ""; display: block; clear: both; }
"""


def page(title: str, body: list[str]) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")


def add_refresh(html: str, seconds: int) -> str:
    """The page with a ``<meta http-equiv="refresh">``: it reloads itself every
    ``seconds`` (``lanchester assault scenario --watch`` rewrites the report)."""
    tag = f"<meta http-equiv=\"refresh\" content=\"{int(seconds)}\">\n"
    return html.replace("<meta charset=\"utf-8\">\n", "<meta charset=\"utf-8\">\n" + tag, 1)


def dl(pairs: list[tuple[str, str]], cls: str = "grid") -> str:
    """A definition list; values are already HTML."""
    return (f"<dl class=\"{cls}\">" + "".join(f"<dt>{escape(k)}</dt><dd>{v}</dd>" for k, v in pairs)
            + "</dl>")


def provenance_html(p: dict[str, Any]) -> str:
    method = escape(p["method"])
    if p.get("trials") is not None:
        method += escape(f", {p['trials']:,} {p.get('unit') or 'trials'}, seed {p['seed']}")
    files = ", ".join(f"<code>{escape(f)}</code>" for f in p["data_files"]) or "none"
    data = "<br>".join(escape(f"{s['kind']}: {s['name']}, {s['status']}") for s in p["sources"]) or "none"
    return dl([("data", data), ("data files", f"{files} (hash <code>{escape(p['data_digest'])}</code>)"),
               ("method", method), ("version", escape(f"lanchester {p['version']}")),
               ("reproduce", f"<code>{escape(p['command'])}</code>")])


def cell(column: str, value: Any) -> tuple[str, str]:
    """(text, css class) of one table cell: probabilities as percent."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "", ""
    if isinstance(value, bool):
        return ("yes" if value else "no"), "text"
    if isinstance(value, float):
        if column in ("p", "share", "lo", "hi") or column.startswith("p_"):
            return f"{100 * value:.2f}%", ""
        return f"{value:.4g}", ""
    if isinstance(value, int):
        return str(value), ""
    return escape(str(value)), "text"


def table_html(frame: pd.DataFrame, max_rows: int = MAX_ROWS) -> str:
    head = "".join(f"<th>{escape(str(c))}</th>" for c in frame.columns)
    rows = []
    for record in frame.head(max_rows).itertuples(index=False):
        cells = [cell(str(c), v.item() if hasattr(v, "item") else v) for c, v in zip(frame.columns, record, strict=True)]
        rows.append("<tr>" + "".join(f"<td class=\"{k}\">{t}</td>" if k else f"<td>{t}</td>"
                                     for t, k in cells) + "</tr>")
    more = (f"<p class=\"note\">Showing the first {max_rows:,} of {len(frame):,} rows; the CSV has them all.</p>"
            if len(frame) > max_rows else "")
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody></table>" + more


def anchor(file: str) -> str:
    return "chart-" + file.rsplit(".", 1)[0]


def table_or_chart(entry: dict[str, Any], frame: pd.DataFrame, titles: dict[str, str]) -> str:
    """A table of at most :data:`MAX_ROWS` rows as a table; a longer one by the chart that
    draws it (linked), else its first rows; the CSV linked above has every row."""
    if len(frame) <= MAX_ROWS:
        return table_html(frame)
    chart = entry.get("chart")
    if chart and chart in titles:
        return (f"<p class=\"note chart-instead\">{len(frame):,} rows, too many for the page: see the chart "
                f"<a href=\"#{escape(anchor(chart))}\">{escape(titles[chart])}</a>; every row is in "
                f"<a href=\"{escape(entry['file'])}\">{escape(entry['file'])}</a>.</p>")
    return table_html(frame)


def columns_help(columns: list[str]) -> str:
    known = [(c, escape(COLUMN_HELP[c])) for c in columns if c in COLUMN_HELP]
    if not known:
        return ""
    return "<details><summary>What the columns mean</summary>" + dl(known) + "</details>"


def render_page(summary: dict[str, Any], frames: dict[str, pd.DataFrame]) -> str:
    """The page of one report from its summary (as in summary.json) and its tables."""
    body = [f"<header><p class=\"kind\">lanchester report &middot; {escape(summary['kind'])}</p>",
            f"<h1>{escape(summary['question'])}</h1></header>"]
    if summary["highlights"]:
        legend = (f"<p class=\"note\">{escape(SE_LEGEND)}</p>"
                  if any("±" in v for _, v in summary["highlights"]) else "")
        body.append("<section class=\"highlights\">" + dl([(k, escape(v)) for k, v in summary["highlights"]])
                    + legend + "</section>")
    body += ["<section><h2>Where these numbers come from</h2>", provenance_html(summary["provenance"])]
    body += [f"<p class=\"note\">{escape(n)}</p>" for n in summary.get("notes", [])]
    body.append("</section>")
    titles = {c["file"]: c["title"] for c in summary["charts"]}
    if summary["charts"]:
        body.append("<section><h2>Charts</h2>")
        for c in summary["charts"]:
            body.append(f"<figure id=\"{escape(anchor(c['file']))}\"><img src=\"{escape(c['file'])}\" "
                        f"alt=\"{escape(c['alt'])}\" width=\"{c['width']}\" height=\"{c['height']}\">"
                        f"<figcaption>{escape(c['title'])}</figcaption></figure>")
        body.append("</section>")
    body.append("<section><h2>Tables</h2>")
    for t in summary["tables"]:
        links = f"<a href=\"{escape(t['file'])}\">{escape(t['file'])}</a>"
        if t.get("parquet"):
            links += f", <a href=\"{escape(t['parquet'])}\">{escape(t['parquet'])}</a>"
        body += [f"<h3>{escape(t['title'])}</h3>",
                 f"<p class=\"note\">{escape(t['description'])} Files: {links} ({t['rows']:,} rows).</p>",
                 columns_help(t["columns"]), table_or_chart(t, frames[t["name"]], titles)]
    body.append("</section>")
    body.append("<footer><p class=\"note\">Everything on this page is also in "
                "<a href=\"summary.json\">summary.json</a>. Column definitions: docs/report-columns.md "
                "in the lanchester project. Rebuild this page with "
                "<code>lanchester report DIR</code>.</p></footer>")
    return page(summary["question"], body)


def render_collection(summary: dict[str, Any]) -> str:
    """The top page of a folder of reports (``lanchester demo``): one card per question."""
    body = [f"<header><p class=\"kind\">lanchester reports</p><h1>{escape(summary['title'])}</h1></header>",
            f"<p>{escape(summary['intro'])}</p>"]
    for e in summary["reports"]:
        img = ""
        if e["charts"]:
            c = e["charts"][0]
            img = (f"<img src=\"{escape(e['dir'])}/{escape(c['file'])}\" alt=\"{escape(c['alt'])}\" "
                   f"width=\"{c['width']}\" height=\"{c['height']}\">")
        high = dl([(k, escape(v)) for k, v in e["highlights"]]) if e["highlights"] else ""
        body.append(f"<div class=\"card\">{img}<p class=\"kind\">{escape(e['kind'])} &middot; "
                    f"{escape(e['method'])}</p><h2><a href=\"{escape(e['dir'])}/index.html\">"
                    f"{escape(e['question'])}</a></h2>{high}</div>")
    p = summary.get("provenance") or {}
    if p:
        body.append(f"<footer><p class=\"note\">lanchester {escape(p['version'])}; reproduce with "
                    f"<code>{escape(p['command'])}</code>. Each report names its data and their status."
                    "</p></footer>")
    return page(summary["title"], body)
