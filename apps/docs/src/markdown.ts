/**
 * A small Markdown to HTML renderer for the guide and the changelog: headings, paragraphs, lists,
 * pipe tables, fenced code, inline code, emphasis and links. Everything else is text, escaped.
 */

export function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

/** A heading's anchor id: `Rate limits` → `rate-limits`. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** A relative address, or an http, https or mailto one: never `javascript:` and the like. */
function isSafeHref(href: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
  return scheme === undefined || scheme === "http" || scheme === "https" || scheme === "mailto";
}

/** Inline Markdown: `code`, **strong**, *emphasis*, [text](url); the rest escaped. */
export function renderInline(text: string): string {
  const parts = text.split(/(`[^`]+`)/);
  return parts
    .map((part) => {
      if (part.startsWith("`") && part.endsWith("`") && part.length > 1) return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      return escapeHtml(part)
        .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
        .replace(/(^|[^*\w])\*([^*\s][^*]*)\*(?!\w)/g, "$1<em>$2</em>")
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_match, label: string, href: string) => (isSafeHref(href) ? `<a href="${href}">${label}</a>` : label));
    })
    .join("");
}

function tableCells(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  const inner = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  for (let index = 0; index < inner.length; index++) {
    const char = inner[index]!;
    if (char === "\\" && inner[index + 1] === "|") {
      cell += "|";
      index++;
    } else if (char === "|") {
      cells.push(cell.trim());
      cell = "";
    } else cell += char;
  }
  cells.push(cell.trim());
  return cells;
}

const LIST_ITEM = /^(\s*)(?:[-*]|\d+\.)\s+(.*)$/;

/** The HTML of a Markdown document. Headings get ids from their text, so pages can link to them. */
export function renderMarkdown(markdown: string): string {
  const lines = markdown.replace(/\r\n/g, "\n").split("\n");
  const html: string[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    if (line.trim() === "") {
      index++;
      continue;
    }
    const fence = /^```(\w*)\s*$/.exec(line);
    if (fence) {
      const code: string[] = [];
      index++;
      while (index < lines.length && !/^```\s*$/.test(lines[index]!)) code.push(lines[index++]!);
      index++;
      const language = fence[1] ? ` class="language-${fence[1]}"` : "";
      html.push(`<pre><code${language}>${escapeHtml(code.join("\n"))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      html.push(`<h${level} id="${slug(heading[2]!)}">${renderInline(heading[2]!)}</h${level}>`);
      index++;
      continue;
    }
    if (line.trimStart().startsWith("|") && /^\s*\|?\s*:?-{3,}/.test(lines[index + 1] ?? "")) {
      const header = tableCells(line);
      index += 2;
      const rows: string[][] = [];
      while (index < lines.length && lines[index]!.trimStart().startsWith("|")) rows.push(tableCells(lines[index++]!));
      html.push(
        "<table>",
        `<thead><tr>${header.map((cell) => `<th>${renderInline(cell)}</th>`).join("")}</tr></thead>`,
        `<tbody>${rows.map((row) => `<tr>${row.map((cell) => `<td>${renderInline(cell)}</td>`).join("")}</tr>`).join("")}</tbody>`,
        "</table>",
      );
      continue;
    }
    if (LIST_ITEM.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items: string[] = [];
      while (index < lines.length) {
        const item = LIST_ITEM.exec(lines[index]!);
        if (item) items.push(item[2]!);
        else if (/^\s+\S/.test(lines[index]!) && items.length > 0) items[items.length - 1] += ` ${lines[index]!.trim()}`;
        else break;
        index++;
      }
      const tag = ordered ? "ol" : "ul";
      html.push(`<${tag}>${items.map((item) => `<li>${renderInline(item)}</li>`).join("")}</${tag}>`);
      continue;
    }
    const paragraph: string[] = [];
    while (index < lines.length && lines[index]!.trim() !== "" && !/^(#{1,6}\s|```|\s*\|)/.test(lines[index]!) && !LIST_ITEM.test(lines[index]!))
      paragraph.push(lines[index++]!.trim());
    html.push(`<p>${renderInline(paragraph.join(" "))}</p>`);
  }
  return html.join("\n");
}
