import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** A link of a Markdown file that leads nowhere: the file it names is missing, or no heading there has its anchor. */
export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  reason: string;
}

/** GitHub's heading anchor: lowercase, punctuation dropped (letters, digits, `_`, `-` and spaces kept), spaces to `-`. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Markdown outside fenced blocks and inline code, line by line (what GitHub renders as links and headings). */
function proseLines(markdown: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((text, index) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(text)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    if (fence === undefined) lines.push({ text: text.replace(/`[^`]*`/g, '``'), line: index + 1 });
  });
  return lines;
}

/** The anchors a file's headings make, with GitHub's `-1`, `-2` suffixes for repeats. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  let fence: string | undefined;
  for (const text of markdown.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(text)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) fence = fence === undefined ? marker : undefined;
    // An explicit anchor, `<a id="d33"></a>`, is one too (GitHub keeps the id).
    if (fence === undefined) for (const [, id] of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) result.add(id!);
    const heading = fence === undefined ? /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)?.[1] : undefined;
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Every inline link `[text](target)` of a file's prose, with its line. */
export function links(markdown: string): { target: string; line: number }[] {
  return proseLines(markdown).flatMap(({ text, line }) =>
    Array.from(text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g), (match) => ({ target: match[1]!, line })),
  );
}

/** The links of `file` (a path under `root`) that do not resolve inside the repository. */
export function brokenLinks(root: string, file: string): BrokenLink[] {
  const source = join(root, file);
  const broken: BrokenLink[] = [];
  for (const { target, line } of links(readFileSync(source, 'utf8'))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: leave the repository
    const [path = '', anchor] = target.split('#', 2);
    const destination = path === '' ? source : join(dirname(source), decodeURIComponent(path));
    const report = (reason: string) => broken.push({ file, line, target, reason });
    if (!existsSync(destination)) {
      report(`no file ${relative(root, destination)}`);
      continue;
    }
    if (anchor === undefined || statSync(destination).isDirectory() || !destination.endsWith('.md')) continue;
    if (!anchors(readFileSync(destination, 'utf8')).has(anchor.toLowerCase())) report(`no heading #${anchor} in ${relative(root, destination)}`);
  }
  return broken;
}

/** The line of a fence that is never closed (it would hide the rest of the page as code), or undefined. */
export function unclosedFence(markdown: string): number | undefined {
  let open: { marker: string; line: number } | undefined;
  markdown.split('\n').forEach((text, index) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(text)?.[1];
    if (!marker) return;
    if (open === undefined) open = { marker, line: index + 1 };
    else if (marker.startsWith(open.marker)) open = undefined;
  });
  return open?.line;
}
