/**
 * The documentation's link checker (`npm run lint:links`, scripts/check-links.ts): every relative Markdown link of
 * the project's documents — `[x](path)`, `[x](path#anchor)`, `[x](#anchor)`, images, and reference definitions
 * `[x]: path` — must name a file or folder that exists, and an anchor must be a heading (or an `id`/`name` of an
 * HTML element) of its target. Links with a scheme (`https:`, `mailto:`...) are not followed; fenced code, inline
 * code and HTML comments are not read. An anchor is checked in Markdown targets only (`openapi.yaml#L10` needs the
 * file alone).
 *
 * Anchors follow GitHub's rule (the one the github-slugger package implements): the heading's text as rendered
 * (inline code, emphasis and link targets dropped), lower-cased, every character that is not a letter, a mark, a
 * digit, a connector (`_`), `-` or a space removed, each space turned into `-`; a heading whose slug came before
 * gets `-1`, `-2`... in document order.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The documents whose links are checked, relative to the project root; those absent are skipped. */
export const DOCUMENTS: readonly string[] = ['README.md', 'docs/*.md', 'bench/README.md', 'mocks/README.md', 'data/README.md', 'CHANGELOG.md'];

export interface BrokenLink {
  /** The document, relative to the root, with `/` separators. */
  readonly file: string;
  readonly line: number;
  /** The link as written. */
  readonly link: string;
  readonly why: string;
}

/** GitHub's anchor for a heading's rendered text (without the -1, -2 of repeated headings). */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** A heading's text as GitHub renders it, from its Markdown source: links as their text, no code or emphasis marks. */
export function headingText(source: string): string {
  const code: string[] = [];
  return source
    .replace(/(`+)\s?([\s\S]*?)\s?\1/g, (_, __, content: string) => `\u0000${code.push(content) - 1}\u0000`) // kept as written
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // [text](target), ![alt](src)
    .replace(/!?\[([^\]]*)\]\[[^\]]*\]/g, '$1') // [text][ref]
    .replace(/<[^>]+>/g, '') // inline HTML tags
    .replace(/(^|[^\p{L}\p{N}])_+([^_]+?)_+(?=$|[^\p{L}\p{N}])/gu, '$1$2') // _emphasis_, not snake_case
    .replace(/\u0000(\d+)\u0000/g, (_, i: string) => code[Number(i)]!)
    .trim();
}

/**
 * The document's lines with what GitHub does not render blanked out (HTML comments, fenced code), lines kept so that
 * line numbers hold.
 */
function renderedLines(text: string): string[] {
  const withoutComments = text.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ' '));
  let fence: { char: string; length: number } | undefined;
  return withoutComments.split('\n').map((line) => {
    if (fence) {
      const closer = /^\s*(`{3,}|~{3,})\s*$/.exec(line)?.[1];
      if (closer && closer[0] === fence.char && closer.length >= fence.length) fence = undefined;
      return '';
    }
    const opener = /^\s*(?:(?:[-*+]|\d+[.)])\s+)?(`{3,}|~{3,})/.exec(line)?.[1];
    if (opener) {
      fence = { char: opener[0]!, length: opener.length };
      return '';
    }
    return line;
  });
}

/** A line with its inline code spans blanked out (a link inside code is no link). */
function withoutCode(line: string): string {
  return line.replace(/(`+)[\s\S]*?\1/g, (code) => ' '.repeat(code.length));
}

/** The anchors a Markdown document offers: its headings' slugs (repeats numbered) and HTML `id`/`name` attributes. */
export function anchorsOf(markdown: string): Set<string> {
  const lines = renderedLines(markdown);
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const add = (text: string) => {
    const base = slug(headingText(text));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  };
  lines.forEach((line, i) => {
    for (const m of withoutCode(line).matchAll(/<[a-z][^>]*?\s(?:id|name)\s*=\s*["']([^"']+)["']/gi)) anchors.add(m[1]!);
    const atx = /^ {0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/.exec(line);
    if (atx) return add(atx[1] ?? '');
    const next = lines[i + 1];
    const paragraph = line.trim() !== '' && !/^ {0,3}([>#|]|[-*+]\s|\d+[.)]\s)/.test(line) && (i === 0 || lines[i - 1]!.trim() === '');
    if (paragraph && next !== undefined && /^ {0,3}(=+|-+)\s*$/.test(next)) add(line.trim()); // setext heading
  });
  return anchors;
}

/** The link destinations of a line: inline links and images, and reference definitions. */
function destinationsOf(line: string): string[] {
  const found: string[] = [];
  const definition = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(line);
  if (definition) found.push(definition[1]!);
  for (let at = line.indexOf('](', 0); at >= 0; at = line.indexOf('](', at + 2)) {
    let i = at + 2;
    while (line[i] === ' ') i += 1;
    if (line[i] === '<') {
      const end = line.indexOf('>', i);
      if (end > i) found.push(line.slice(i, end + 1));
      continue;
    }
    let depth = 0;
    let j = i;
    for (; j < line.length; j += 1) {
      const c = line[j]!;
      if (c === '\\') j += 1;
      else if (c === '(') depth += 1;
      else if (c === ')') {
        if (depth === 0) break;
        depth -= 1;
      } else if (c === ' ') break;
    }
    if (j > i && j < line.length) found.push(line.slice(i, j));
  }
  return found;
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * Every broken relative link of the given documents (paths relative to `root`; `dir/*.md` names every Markdown file
 * of a folder; absent documents are skipped). Sorted by document and line.
 */
export function checkLinks(root: string, documents: readonly string[] = DOCUMENTS): BrokenLink[] {
  const files = documents.flatMap((pattern) => {
    if (!pattern.endsWith('/*.md')) return fs.existsSync(path.join(root, pattern)) ? [pattern] : [];
    const dir = pattern.slice(0, -'/*.md'.length);
    if (!fs.existsSync(path.join(root, dir))) return [];
    return fs
      .readdirSync(path.join(root, dir))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `${dir}/${name}`);
  });
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOfFile = (absolute: string) => {
    let anchors = anchorCache.get(absolute);
    if (!anchors) anchorCache.set(absolute, (anchors = anchorsOf(fs.readFileSync(absolute, 'utf8'))));
    return anchors;
  };
  const broken: BrokenLink[] = [];
  for (const file of files) {
    const absolute = path.join(root, file);
    renderedLines(fs.readFileSync(absolute, 'utf8')).forEach((line, index) => {
      for (const written of destinationsOf(withoutCode(line))) {
        const link = written.startsWith('<') ? written.slice(1, -1) : written;
        if (link === '' || /^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('//')) continue; // https:, mailto:...
        const hash = link.indexOf('#');
        const target = decode((hash < 0 ? link : link.slice(0, hash)).split('?')[0]!);
        const anchor = hash < 0 ? undefined : decode(link.slice(hash + 1));
        const report = (why: string) => broken.push({ file, line: index + 1, link: written, why });
        const resolved = target === '' ? absolute : target.startsWith('/') ? path.join(root, target) : path.resolve(path.dirname(absolute), target);
        if (!fs.existsSync(resolved)) {
          report(`no file ${path.relative(root, resolved).split(path.sep).join('/') || '.'}`);
          continue;
        }
        if (anchor === undefined || !resolved.endsWith('.md') || fs.statSync(resolved).isDirectory()) continue;
        if (anchor === '') report('empty anchor');
        else if (!anchorsOfFile(resolved).has(anchor)) {
          report(`no heading or anchor "#${anchor}" in ${path.relative(root, resolved).split(path.sep).join('/')}`);
        }
      }
    });
  }
  return broken;
}

/** The checker's report: one line per broken link, `file:line: link — why`. */
export function formatBroken(broken: readonly BrokenLink[]): string {
  return broken.map((b) => `${b.file}:${b.line}: ${b.link} — ${b.why}`).join('\n');
}
