import { parseHTML } from 'linkedom';

/**
 * The slice of the DOM the readers and scrapers use. The project compiles without the DOM lib
 * (Workers types only), so these are declared structurally: a linkedom document satisfies them,
 * and so would a browser `Document`.
 */
export interface DomNode {
  readonly nodeType: number;
  readonly textContent: string | null;
  readonly childNodes: ArrayLike<DomNode>;
}

export interface DomElement extends DomNode {
  /** Lower-case tag name (`div`, `meta`). */
  readonly localName: string;
  readonly children: ArrayLike<DomElement>;
  readonly parentElement: DomElement | null;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): ArrayLike<DomElement>;
  closest(selectors: string): DomElement | null;
}

export interface DomDocument {
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): ArrayLike<DomElement>;
  getElementById(id: string): DomElement | null;
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

export function isElement(node: DomNode): node is DomElement {
  return node.nodeType === ELEMENT_NODE;
}

/** Parses HTML with linkedom (which runs in Workers) into the typed document above. */
export function parseDocument(html: string): DomDocument {
  // linkedom builds no implied <html>/<body> for fragments; wrapping keeps `documentElement` sane.
  const source = /<html[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`;
  const { document } = parseHTML(source) as { document: DomDocument };
  return document;
}

/** Collapses runs of whitespace (including no-break spaces) and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `textContent` with whitespace collapsed. */
export function elementText(element: DomNode): string {
  return collapseWhitespace(element.textContent ?? '');
}

const INVISIBLE = new Set(['script', 'style', 'template', 'noscript', 'svg', 'head', 'title']);

/**
 * Text a reader would see: skips scripts, styles, templates, `<noscript>` fallbacks and
 * comments, and puts a space between block-ish neighbours so words do not run together.
 */
export function visibleText(root: DomNode): string {
  const parts: string[] = [];
  const walk = (node: DomNode): void => {
    if (node.nodeType === TEXT_NODE) {
      parts.push(node.textContent ?? '');
      return;
    }
    if (!isElement(node)) {
      // Documents and fragments: walk their children; comments and the rest carry no text.
      if (node.nodeType === 9 || node.nodeType === 11) for (const child of Array.from(node.childNodes)) walk(child);
      return;
    }
    if (INVISIBLE.has(node.localName)) return;
    if (node.localName === 'br') parts.push('\n');
    for (const child of Array.from(node.childNodes)) walk(child);
    parts.push(' ');
  };
  walk(root);
  return collapseWhitespace(parts.join(''));
}

/** Resolves `href` against `base`; undefined for empty, `javascript:` or unparsable values. */
export function absoluteUrl(href: string | null | undefined, base: string): string | undefined {
  const trimmed = href?.trim();
  if (!trimmed || /^(javascript|data|about):/i.test(trimmed)) return undefined;
  try {
    return new URL(trimmed, base).href;
  } catch {
    return undefined;
  }
}

/** The document's base URL: `<base href>` resolved against the page URL, else the page URL. */
export function documentBase(doc: DomDocument, pageUrl: string): string {
  return absoluteUrl(doc.querySelector('base[href]')?.getAttribute('href'), pageUrl) ?? pageUrl;
}
