import { absoluteUrl, collapseWhitespace, type DomDocument, type DomElement, elementText } from './dom.ts';
import { addProperty, type NestedItem, type SchemaItem, stripSchemaPrefix } from './types.ts';

/** A few prefixes of the RDFa initial context, so `schema:name` works without a `prefix` attribute. */
const INITIAL_PREFIXES: Readonly<Record<string, string>> = {
  schema: 'http://schema.org/',
  og: 'http://ogp.me/ns#',
  dc: 'http://purl.org/dc/terms/',
  foaf: 'http://xmlns.com/foaf/0.1/',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
};

const SRC_ELEMENTS = new Set(['audio', 'embed', 'iframe', 'img', 'source', 'track', 'video']);
const HREF_ELEMENTS = new Set(['a', 'area', 'link']);

interface Context {
  vocab: string | undefined;
  prefixes: Readonly<Record<string, string>>;
}

function tokens(value: string | null): string[] {
  return (value ?? '').split(/\s+/).filter(Boolean);
}

function withLocalContext(element: DomElement, context: Context): Context {
  const vocab = element.getAttribute('vocab');
  const prefix = element.getAttribute('prefix');
  if (vocab === null && prefix === null) return context;
  const prefixes = { ...context.prefixes };
  // `prefix="og: http://ogp.me/ns# product: http://ogp.me/ns/product#"`
  for (const match of (prefix ?? '').matchAll(/([\w-]+):\s+(\S+)/g)) {
    if (match[1] && match[2]) prefixes[match[1]] = match[2];
  }
  return { vocab: vocab === null ? context.vocab : vocab.trim() || undefined, prefixes };
}

/** Expands a term or CURIE; schema.org names lose their prefix, others keep the form written. */
function resolveName(token: string, context: Context): string | undefined {
  if (/^https?:\/\//i.test(token)) return stripSchemaPrefix(token);
  const colon = token.indexOf(':');
  if (colon > 0) {
    const namespace = context.prefixes[token.slice(0, colon)];
    if (namespace === undefined) return token;
    const expanded = namespace + token.slice(colon + 1);
    return /^https?:\/\/schema\.org\//i.test(expanded) ? stripSchemaPrefix(expanded) : token;
  }
  if (context.vocab === undefined) return undefined;
  return stripSchemaPrefix(context.vocab + token);
}

class Reader {
  readonly #base: string;
  readonly items: NestedItem[] = [];

  constructor(base: string) {
    this.#base = base;
  }

  #url(raw: string | null): string {
    const trimmed = raw?.trim() ?? '';
    return absoluteUrl(trimmed, this.#base) ?? trimmed;
  }

  /** RDFa Lite value of a property element that does not start a new item. */
  #literal(element: DomElement): unknown {
    if (element.hasAttribute('content')) return collapseWhitespace(element.getAttribute('content') ?? '');
    if (element.hasAttribute('resource')) return this.#url(element.getAttribute('resource'));
    const tag = element.localName;
    if (HREF_ELEMENTS.has(tag) && element.hasAttribute('href')) return this.#url(element.getAttribute('href'));
    if (SRC_ELEMENTS.has(tag) && element.hasAttribute('src')) return this.#url(element.getAttribute('src'));
    if (tag === 'time' && element.hasAttribute('datetime')) {
      return collapseWhitespace(element.getAttribute('datetime') ?? '');
    }
    return elementText(element);
  }

  walk(element: DomElement, inherited: Context, subject: NestedItem | undefined): void {
    const context = withLocalContext(element, inherited);
    const names = tokens(element.getAttribute('property'))
      .map((token) => resolveName(token, context))
      .filter((name): name is string => name !== undefined);
    let childSubject = subject;
    if (element.hasAttribute('typeof')) {
      const types = tokens(element.getAttribute('typeof'))
        .map((token) => resolveName(token, context))
        .filter((name): name is string => name !== undefined);
      const item: NestedItem = { type: types, properties: {} };
      const id = element.getAttribute('resource') ?? element.getAttribute('about');
      if (id !== null) item.properties['@id'] = this.#url(id);
      if (subject && names.length > 0) {
        for (const name of names) addProperty(subject.properties, name, item);
      } else {
        this.items.push(item);
      }
      childSubject = item;
    } else if (subject && names.length > 0) {
      const value = this.#literal(element);
      for (const name of names) addProperty(subject.properties, name, value);
    }
    for (const child of Array.from(element.children)) this.walk(child, context, childSubject);
  }
}

/**
 * RDFa Lite items: `typeof` starts an item, `property` adds to the nearest enclosing item, with
 * `vocab`, `prefix` and `resource`. Types and properties in the schema.org vocabulary lose their
 * prefix; properties outside any `typeof` (Open Graph `<meta property>` tags) are not items and
 * are left to `openGraph`. `baseUrl` resolves relative URLs.
 */
export function rdfa(doc: DomDocument, baseUrl = 'about:blank'): SchemaItem[] {
  const reader = new Reader(baseUrl);
  const roots = Array.from(doc.querySelectorAll('*')).filter((element) => element.parentElement === null);
  for (const root of roots) reader.walk(root, { vocab: undefined, prefixes: INITIAL_PREFIXES }, undefined);
  return reader.items.map((item) => ({ ...item, source: 'rdfa' as const }));
}
