import { collapseWhitespace, parseDocument, type DomElement } from './dom';
import { extractMainContent } from './extract';
import { toMarkdown } from './markdown';
import { pageMetadata, type PageMetadata } from './metadata';
import { toText } from './text';
import { documentBase } from './urls';

export { parseDocument, type HtmlDocument } from './dom';
export { pageMetadata, type PageMetadata } from './metadata';

export type PageFormat = 'markdown' | 'html' | 'text';

export interface ConvertedPage {
  /** The main content in the asked format; markdown and text start with the title. */
  content: string;
  metadata: PageMetadata;
  /** Readability's article title, else the metadata title, else ''. */
  title: string;
}

/**
 * The main content of a page as markdown, cleaned HTML or plain text, with the page's metadata.
 * Relative links and image sources are resolved against `url` (or the page's `<base>`).
 * null when the page has no extractable main content (the route answers 422 no_content).
 */
export function convertPage(html: string, url: string, format: PageFormat): ConvertedPage | null {
  const document = parseDocument(html);
  const metadata = pageMetadata(document, url);
  const main = extractMainContent(document, documentBase(document, url));
  if (!main) return null;

  const title = main.title ?? metadata.title ?? '';
  return { content: render(main.root, format, title), metadata, title };
}

function render(root: DomElement, format: PageFormat, title: string): string {
  switch (format) {
    case 'html':
      return root.innerHTML.trim();
    case 'markdown':
      return withTitle(toMarkdown(root), title, (text) => `# ${text.replace(/([\\`*_[\]])/g, '\\$1')}`, /^#{1,6} +(.*?)#*$/);
    case 'text':
      return withTitle(toText(root), title, (text) => text, /^(.*)$/);
  }
}

/**
 * Puts the title first unless the content already opens with it. `heading` is how a first line
 * that could be the title looks in this format.
 */
function withTitle(content: string, title: string, titleLine: (title: string) => string, heading: RegExp): string {
  if (!title) return content;
  const firstLine = content.slice(0, content.indexOf('\n') === -1 ? undefined : content.indexOf('\n'));
  const opening = heading.exec(firstLine)?.[1];
  if (opening !== undefined && comparable(opening) === comparable(title)) return content;
  return content ? `${titleLine(title)}\n\n${content}` : titleLine(title);
}

/** Heading text without link syntax, escapes, case or spacing differences. */
function comparable(text: string): string {
  return collapseWhitespace(text.replace(/\[((?:\\.|[^\]])*)\]\([^)]*\)/g, '$1').replace(/\\(.)/g, '$1')).toLowerCase();
}
