/** Where a schema item was read from. */
export type SchemaSource = 'json-ld' | 'microdata' | 'rdfa';

/**
 * A nested item: the value of a property that is itself an item (an `Offer` inside a `Product`,
 * a `PostalAddress` inside a `LocalBusiness`).
 */
export interface NestedItem {
  /** schema.org type names without the URL prefix (`Product`, not `http://schema.org/Product`). */
  type: string[];
  /**
   * Property name (schema.org prefix stripped) to value. A property seen once holds its value;
   * a property seen several times holds an array. Values are strings, numbers, booleans,
   * nested items or arrays of those. `@id` holds the item's identifier when it has one.
   */
  properties: Record<string, unknown>;
}

/** One top-level item of structured data, the same shape whichever syntax carried it. */
export interface SchemaItem extends NestedItem {
  source: SchemaSource;
}

/**
 * Open Graph, product, Twitter Card and similar `<meta>` tags: lower-cased property name
 * (`og:title`, `product:price:amount`, `twitter:data1`) to its values in document order.
 */
export type MetaProperties = Record<string, string[]>;

export function isNestedItem(value: unknown): value is NestedItem {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as NestedItem).type) &&
    typeof (value as NestedItem).properties === 'object'
  );
}

const SCHEMA_PREFIX = /^(?:https?:\/\/schema\.org\/|schema:)/i;

/** `http://schema.org/Product` → `Product`; names from other vocabularies pass unchanged. */
export function stripSchemaPrefix(name: string): string {
  return name.trim().replace(SCHEMA_PREFIX, '');
}

/** Adds `value` under `name`, turning a repeated property into an array. */
export function addProperty(properties: Record<string, unknown>, name: string, value: unknown): void {
  if (!(name in properties)) {
    properties[name] = value;
    return;
  }
  const existing = properties[name];
  properties[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
}
