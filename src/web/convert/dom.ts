import { parseHTML } from 'linkedom';

/*
 * The slice of the DOM this module uses, typed here because the Workers build has no `lib.dom`
 * and linkedom's own declarations are mostly `any`. linkedom's objects satisfy these shapes.
 */

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

export interface DomNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly parentNode: DomElement | null;
  readonly childNodes: ArrayLike<DomNode> & Iterable<DomNode>;
  readonly firstChild: DomNode | null;
  readonly nextSibling: DomNode | null;
  readonly previousSibling: DomNode | null;
  /** null for the document itself. */
  readonly ownerDocument: HtmlDocument | null;
  textContent: string | null;
  cloneNode(deep?: boolean): DomNode;
  appendChild(node: DomNode): DomNode;
  insertBefore(node: DomNode, reference: DomNode | null): DomNode;
  replaceChild(node: DomNode, old: DomNode): DomNode;
  removeChild(node: DomNode): DomNode;
}

export interface DomAttribute {
  readonly name: string;
  readonly value: string;
}

export interface DomElement extends DomNode {
  readonly tagName: string;
  readonly localName: string;
  readonly children: ArrayLike<DomElement> & Iterable<DomElement>;
  readonly attributes: ArrayLike<DomAttribute> & Iterable<DomAttribute>;
  innerHTML: string;
  readonly outerHTML: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  hasAttribute(name: string): boolean;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): ArrayLike<DomElement> & Iterable<DomElement>;
  closest(selectors: string): DomElement | null;
  remove(): void;
}

export interface HtmlDocument extends DomNode {
  readonly documentElement: DomElement | null;
  readonly head: DomElement | null;
  readonly body: DomElement | null;
  createElement(name: string): DomElement;
  createTextNode(text: string): DomNode;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): ArrayLike<DomElement> & Iterable<DomElement>;
}

export function isElement(node: DomNode | null | undefined): node is DomElement {
  return node?.nodeType === ELEMENT_NODE;
}

/** The lower-case tag name, whatever case the element was created with. */
export function tagOf(node: DomNode): string {
  return node.nodeName.toLowerCase();
}

const HAS_BODY = /<body[\s>]/i;

/**
 * Parses a whole page or a fragment. linkedom keeps a fragment's first element as the document
 * element and leaves `body` empty, and does not synthesise a missing `<body>`, so such input is
 * wrapped in a full document first.
 */
export function parseDocument(html: string): HtmlDocument {
  let source = html;
  if (!HAS_BODY.test(source)) {
    const head = /<\/head\s*>/i.exec(source);
    source = head
      ? `${source.slice(0, head.index)}</head><body>${source.slice(head.index + head[0].length).replace(/<\/?html[^>]*>/gi, '')}</body></html>`
      : `<!DOCTYPE html><html><head></head><body>${source}</body></html>`;
  }
  const document = (parseHTML(source) as unknown as { document: HtmlDocument }).document;
  useLowerCaseTags(document);
  if (document.documentElement) flattenDeepNesting(document.documentElement);
  return document;
}

/**
 * Nesting deeper than any real page (Lighthouse flags 32 levels): below it a page is flattened.
 * Readability's cost grows with depth far faster than with size (a chain of 300 `<div>`s took
 * a second per format; 1,000 would take minutes of a Worker's CPU), and the walkers below recurse.
 */
export const MAX_DEPTH = 128;

/**
 * Unwraps, below MAX_DEPTH, every element that holds other elements, moving its children up in
 * place: the text, its order and the innermost elements (a link, an image, a code span) stay;
 * only wrappers go. Iterative, and linear in the page's size.
 */
function flattenDeepNesting(root: DomElement): void {
  const stack: { element: DomElement; depth: number }[] = [{ element: root, depth: 0 }];
  while (stack.length > 0) {
    const { element, depth } = stack.pop()!;
    if (depth < MAX_DEPTH) {
      for (const child of Array.from(element.children)) stack.push({ element: child, depth: depth + 1 });
      continue;
    }
    let node = element.firstChild;
    while (node) {
      if (isElement(node) && node.children.length > 0) {
        const first = node.firstChild!;
        while (node.firstChild) element.insertBefore(node.firstChild, node);
        element.removeChild(node);
        node = first;
      } else {
        node = node.nextSibling;
      }
    }
  }
}

/**
 * linkedom keeps the case of `createElement('DIV')` (as Readability calls it), so such elements
 * serialise as `<DIV>` and escape `getElementsByTagName('div')`. HTML documents lower-case the
 * name, and this makes this document do the same.
 */
export function useLowerCaseTags(document: HtmlDocument): void {
  const create = document.createElement.bind(document);
  Object.defineProperty(document, 'createElement', {
    value: (name: string, ...rest: unknown[]) => (create as (n: string, ...r: unknown[]) => DomElement)(name.toLowerCase(), ...rest),
    configurable: true,
    writable: true,
  });
}

/** Text with runs of white space (including non-breaking spaces) collapsed to one space. */
export function collapseWhitespace(text: string): string {
  return text.replace(/[\s\u00a0]+/g, ' ').trim();
}
