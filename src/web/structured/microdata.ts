import { absoluteUrl, collapseWhitespace, type DomDocument, type DomElement, elementText } from './dom.ts';
import { addProperty, type NestedItem, type SchemaItem, stripSchemaPrefix } from './types.ts';

const SRC_ELEMENTS = new Set(['audio', 'embed', 'iframe', 'img', 'source', 'track', 'video']);
const HREF_ELEMENTS = new Set(['a', 'area', 'link']);

function tokens(value: string | null): string[] {
  return (value ?? '').split(/\s+/).filter(Boolean);
}

class Reader {
  readonly #doc: DomDocument;
  readonly #base: string;

  constructor(doc: DomDocument, base: string) {
    this.#doc = doc;
    this.#base = base;
  }

  /** Absolute when the base allows it, else the attribute as written. */
  #url(raw: string | null): string {
    const trimmed = raw?.trim() ?? '';
    return absoluteUrl(trimmed, this.#base) ?? trimmed;
  }

  /** The property value of an element, per the HTML spec's microdata value rules. */
  #value(element: DomElement, path: ReadonlySet<DomElement>): unknown {
    if (element.hasAttribute('itemscope')) {
      return path.has(element) ? undefined : this.item(element, path);
    }
    const tag = element.localName;
    if (tag === 'meta') return collapseWhitespace(element.getAttribute('content') ?? '');
    if (SRC_ELEMENTS.has(tag)) return this.#url(element.getAttribute('src'));
    if (HREF_ELEMENTS.has(tag)) return this.#url(element.getAttribute('href'));
    if (tag === 'object') return this.#url(element.getAttribute('data'));
    if (tag === 'data' || tag === 'meter') return collapseWhitespace(element.getAttribute('value') ?? '');
    if (tag === 'time' && element.hasAttribute('datetime')) {
      return collapseWhitespace(element.getAttribute('datetime') ?? '');
    }
    // The spec says textContent; whitespace is collapsed because markup indentation is noise.
    return elementText(element);
  }

  /**
   * The elements carrying the item's properties: its descendants and those of the elements its
   * `itemref` names, not descending into nested items (their properties are theirs).
   */
  #propertyElements(root: DomElement): DomElement[] {
    const pending: DomElement[] = [...Array.from(root.children)];
    for (const id of tokens(root.getAttribute('itemref'))) {
      const referenced = this.#doc.getElementById(id);
      if (referenced && referenced !== root) pending.push(referenced);
    }
    const visited = new Set<DomElement>();
    const found: DomElement[] = [];
    while (pending.length > 0) {
      const current = pending.shift() as DomElement;
      if (visited.has(current)) continue;
      visited.add(current);
      if (current.hasAttribute('itemprop')) found.push(current);
      if (!current.hasAttribute('itemscope')) pending.unshift(...Array.from(current.children));
    }
    return found;
  }

  item(root: DomElement, path: ReadonlySet<DomElement> = new Set()): NestedItem {
    const nextPath = new Set(path).add(root);
    const properties: Record<string, unknown> = {};
    const id = root.getAttribute('itemid');
    if (id) properties['@id'] = this.#url(id);
    for (const element of this.#propertyElements(root)) {
      const value = this.#value(element, nextPath);
      if (value === undefined) continue;
      for (const name of tokens(element.getAttribute('itemprop'))) {
        addProperty(properties, stripSchemaPrefix(name), value);
      }
    }
    return { type: tokens(root.getAttribute('itemtype')).map(stripSchemaPrefix), properties };
  }
}

/**
 * The document's top-level microdata items (`itemscope` elements that are not themselves a
 * property), with nested items, `itemref`, and values taken per the HTML spec: `content` of
 * `<meta>`, absolute `href`/`src`/`data` URLs, `value` of `<data>`/`<meter>`, `datetime` of
 * `<time>`, else the text. `baseUrl` resolves relative URLs.
 */
export function microdata(doc: DomDocument, baseUrl = 'about:blank'): SchemaItem[] {
  const reader = new Reader(doc, baseUrl);
  return Array.from(doc.querySelectorAll('[itemscope]'))
    .filter((element) => !element.hasAttribute('itemprop'))
    .map((element) => ({ ...reader.item(element), source: 'microdata' as const }));
}
