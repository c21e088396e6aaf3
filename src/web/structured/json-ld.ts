import type { DomDocument } from './dom.ts';
import { type NestedItem, type SchemaItem, stripSchemaPrefix } from './types.ts';

type JsonObject = Record<string, unknown>;

const MAX_DEPTH = 24;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses one block the way browsers' authors write them, not the way JSON is specified: HTML
 * comment and CDATA wrappers are dropped, and raw control characters (line breaks inside string
 * values are common) are retried as spaces. Undefined when the block is still not JSON.
 */
function parseBlock(text: string): unknown {
  const cleaned = text
    .trim()
    .replace(/^(?:<!--|\/\/\s*<!\[CDATA\[|<!\[CDATA\[)\s*/, '')
    .replace(/\s*(?:-->|\/\/\s*\]\]>|\]\]>)$/, '')
    .trim();
  if (!cleaned) return undefined;
  for (const candidate of [cleaned, cleaned.replace(/[\u0000-\u001f]+/g, ' ')]) {
    try {
      return JSON.parse(candidate) as unknown;
    } catch {
      // try the next repair
    }
  }
  return undefined;
}

/** Flattens arrays and `@graph` containers into the list of top-level nodes. */
function collectNodes(data: unknown, into: JsonObject[]): void {
  if (Array.isArray(data)) {
    for (const entry of data) collectNodes(entry, into);
    return;
  }
  if (!isObject(data)) return;
  if ('@graph' in data) {
    collectNodes(data['@graph'], into);
    if ('@type' in data) {
      const { '@graph': _graph, ...rest } = data;
      into.push(rest);
    }
    return;
  }
  into.push(data);
}

function isReference(node: JsonObject): node is { '@id': string } {
  return typeof node['@id'] === 'string' && Object.keys(node).every((key) => key === '@id');
}

function typesOf(node: JsonObject): string[] {
  const raw = node['@type'];
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return list.filter((entry): entry is string => typeof entry === 'string').map(stripSchemaPrefix);
}

/**
 * Turns JSON-LD nodes into schema items. Each node becomes one item object, however many nodes
 * point at it, so walking the items (`allItems`) meets a node once: an `@graph` lists a product
 * at the top and again by reference from its `WebPage`, which must not make two products.
 */
class Converter {
  readonly #byId = new Map<string, JsonObject>();
  readonly #items = new Map<JsonObject, NestedItem>();
  readonly #topLevel: ReadonlySet<JsonObject>;

  constructor(nodes: JsonObject[]) {
    this.#topLevel = new Set(nodes);
    // Index every described node, nested ones too (Yoast nests the logo and points at it by @id).
    const index = (value: unknown, depth: number): void => {
      if (depth > MAX_DEPTH) return;
      if (Array.isArray(value)) {
        for (const entry of value) index(entry, depth + 1);
        return;
      }
      if (!isObject(value)) return;
      const id = value['@id'];
      if (typeof id === 'string' && !isReference(value) && !this.#byId.has(id)) this.#byId.set(id, value);
      for (const entry of Object.values(value)) index(entry, depth + 1);
    };
    index(nodes, 0);
  }

  /** A top-level node's item is a `SchemaItem`, wherever it is met. */
  item(node: JsonObject, seen: ReadonlySet<JsonObject>, depth: number): NestedItem {
    const known = this.#items.get(node);
    if (known) return known;
    const nextSeen = new Set(seen).add(node);
    const properties: Record<string, unknown> = {};
    for (const [key, raw] of Object.entries(node)) {
      if (key === '@context' || key === '@type' || key === '@graph') continue;
      const value = this.value(raw, nextSeen, depth + 1);
      if (value !== undefined) properties[key === '@id' ? key : stripSchemaPrefix(key)] = value;
    }
    const nested: NestedItem = { type: typesOf(node), properties };
    const item = this.#topLevel.has(node) ? { ...nested, source: 'json-ld' as const } : nested;
    // Stored once complete: an item never holds itself, a cycle ends in a bare `{"@id"}` item.
    this.#items.set(node, item);
    return item;
  }

  value(raw: unknown, seen: ReadonlySet<JsonObject>, depth: number): unknown {
    if (raw === null || raw === undefined || depth > MAX_DEPTH) return undefined;
    if (typeof raw === 'string') return raw.trim();
    if (typeof raw === 'number' || typeof raw === 'boolean') return raw;
    if (Array.isArray(raw)) {
      const values = raw.map((entry) => this.value(entry, seen, depth)).filter((entry) => entry !== undefined);
      return values.length > 0 ? values : undefined;
    }
    if (!isObject(raw)) return undefined;
    if ('@value' in raw) return this.value(raw['@value'], seen, depth);
    // `@list` and `@set` only say whether the order of the values matters.
    if ('@list' in raw) return this.value(raw['@list'], seen, depth);
    if ('@set' in raw) return this.value(raw['@set'], seen, depth);
    if (isReference(raw)) {
      // Resolve `{"@id": …}` to the node it names, unless that node is on the path here (a cycle).
      const target = this.#byId.get(raw['@id']);
      if (target && !seen.has(target)) return this.item(target, seen, depth);
    }
    return this.item(raw, seen, depth);
  }
}

/**
 * Every `application/ld+json` block of the document as schema items: arrays and `@graph`
 * containers are flattened into their nodes, blocks that are not JSON are skipped, and
 * `{"@id": …}` references to other nodes of the page are resolved in place, to the very item
 * that stands for that node at the top level.
 */
export function jsonLd(doc: DomDocument): SchemaItem[] {
  const nodes: JsonObject[] = [];
  for (const script of Array.from(doc.querySelectorAll('script[type]'))) {
    const type = (script.getAttribute('type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/ld+json') continue;
    const data = parseBlock(script.textContent ?? '');
    if (data !== undefined) collectNodes(data, nodes);
  }
  const converter = new Converter(nodes);
  return nodes
    .filter((node) => !isReference(node))
    .map((node) => converter.item(node, new Set(), 0))
    .filter((item): item is SchemaItem => 'source' in item);
}
