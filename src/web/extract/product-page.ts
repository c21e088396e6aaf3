import { absoluteUrl, type DomElement, elementText, visibleText } from '../structured/dom.ts';
import type { NestedItem } from '../structured/types.ts';
import { imageSource } from './cards.ts';
import { canonicalUrl, firstHeading, itemsFromFirstSource, metaDescription, metaValue, type PageContext, readPage } from './context.ts';
import { gtinOf, offerFields, ratingFields } from './offers.ts';
import { isProduct } from './schema-types.ts';
import type { ExtractRecord, Scraper } from './types.ts';
import {
  availability,
  compact,
  condition,
  currencyCode,
  fillGaps,
  parseAmount,
  parsePrice,
  text,
  unique,
  urlOf,
  urlsOf,
} from './values.ts';

/**
 * `product-page`: one record for the page's main product.
 *
 * | field | type | |
 * |---|---|---|
 * | name | string | |
 * | description | string | |
 * | brand | string | |
 * | sku | string | `sku`, else `productID` |
 * | mpn | string | |
 * | gtin | string | GTIN-8/12/13/14 or ISBN as written |
 * | price | number | first priced offer (`lowPrice` of an aggregate offer) |
 * | currency | string | ISO 4217 |
 * | availability | string | `in_stock`, `out_of_stock`, `sold_out`, `preorder`, `presale`, `backorder`, `limited`, `in_store_only`, `online_only`, `discontinued`, `reserved` |
 * | condition | string | `new`, `used`, `refurbished`, `damaged` |
 * | rating | number | aggregate rating value |
 * | review_count | integer | |
 * | images | string[] | absolute URLs |
 * | url | string | the product's URL, else the canonical page URL |
 *
 * Sources in order: JSON-LD, microdata, RDFa `Product` items (the one whose URL is the page's,
 * else the first with an offer, else the first); then Open Graph `product:*` / Twitter product
 * cards; then the page itself (the `<h1>`, elements classed `price`, `availability`/`stock`,
 * `SKU:`/`GTIN:` labels). Later sources only fill fields the earlier ones lack.
 */

function mainProduct(context: PageContext): NestedItem | undefined {
  const products = itemsFromFirstSource(context, isProduct);
  const pageUrls = new Set([context.url, canonicalUrl(context)]);
  return (
    products.find((item) => {
      const url = urlOf(item.properties.url, context.base);
      return url !== undefined && pageUrls.has(url);
    }) ??
    products.find((item) => item.properties.offers !== undefined) ??
    products[0]
  );
}

function structuredRecord(item: NestedItem, context: PageContext): ExtractRecord {
  const { properties } = item;
  return compact({
    name: text(properties.name),
    description: text(properties.description),
    brand: text(properties.brand) ?? text(properties.manufacturer),
    sku: text(properties.sku) ?? text(properties.productID),
    mpn: text(properties.mpn),
    gtin: gtinOf(item),
    ...offerFields(item),
    ...ratingFields(item),
    images: urlsOf(properties.image, context.base),
    url: urlOf(properties.url, context.base) ?? canonicalUrl(context),
  });
}

/** Twitter product cards put the price in a `twitter:dataN` whose `twitter:labelN` says so. */
function twitterPrice(context: PageContext): ReturnType<typeof parsePrice> {
  for (let index = 1; index <= 4; index += 1) {
    const label = metaValue(context, `twitter:label${index}`);
    const data = metaValue(context, `twitter:data${index}`);
    if (label && data && /price/i.test(label)) return parsePrice(data) ?? parsePrice(`${data} USD`);
  }
  return undefined;
}

/** The product described by Open Graph / Twitter Card tags, and whether they say it is one. */
function metaRecord(context: PageContext): { record: ExtractRecord; isProduct: boolean } {
  const amount = metaValue(context, 'product:price:amount', 'og:price:amount', 'product:sale_price:amount');
  const metaCurrency = currencyCode(metaValue(context, 'product:price:currency', 'og:price:currency', 'product:sale_price:currency'));
  const tagged = amount ? parsePrice(amount) : undefined;
  const parsedAmount = amount ? tagged?.amount ?? parseAmount(amount) : undefined;
  const twitter = twitterPrice(context);
  const price = parsedAmount ?? twitter?.amount;
  const currency = metaCurrency ?? tagged?.currency ?? twitter?.currency;
  const ogImages = context.meta['og:image'] ?? [];
  const twitterImage = metaValue(context, 'twitter:image', 'twitter:image:src');
  const record = compact({
    name: metaValue(context, 'og:title', 'twitter:title'),
    description: metaValue(context, 'og:description', 'twitter:description'),
    brand: metaValue(context, 'product:brand', 'og:brand'),
    sku: metaValue(context, 'product:retailer_item_id', 'product:retailer_part_no'),
    gtin: metaValue(context, 'product:gtin', 'product:ean', 'product:upc', 'product:isbn'),
    price,
    currency,
    availability: availability(metaValue(context, 'product:availability', 'og:availability')),
    condition: condition(metaValue(context, 'product:condition')),
    images: unique((ogImages.length > 0 ? ogImages : [twitterImage]).map((image) => absoluteUrl(image, context.base))),
    url: canonicalUrl(context),
  });
  const type = metaValue(context, 'og:type') ?? '';
  return { record, isProduct: /product/i.test(type) || price !== undefined };
}

const CROSSED_OUT = /(?:old|was|regular|compare|strike|crossed|before|original|list)[-_ ]?price|\b(?:old|was|strike)\b/i;
const PRICE_SELECTOR = '[class*="price" i], [id*="price" i], [itemprop="price"]';

/** Inside `<del>`/`<s>`, or in a block classed as the old, crossed-out price. */
function isCrossedOut(element: DomElement): boolean {
  if (element.closest('del, s, strike')) return true;
  for (let current: DomElement | null = element, depth = 0; current && depth < 4; current = current.parentElement, depth += 1) {
    if (CROSSED_OUT.test(`${current.getAttribute('class') ?? ''} ${current.getAttribute('id') ?? ''}`)) return true;
  }
  return false;
}

/** The innermost price element outside headers, navigation and footers that is not crossed out. */
function priceElement(doc: PageContext['doc']): DomElement | undefined {
  const candidates = Array.from(doc.querySelectorAll(PRICE_SELECTOR)).filter(
    (element) => !element.closest('header, nav, footer, aside') && element.querySelector(PRICE_SELECTOR) === null,
  );
  return candidates.find((element) => !isCrossedOut(element) && parsePrice(elementText(element)) !== undefined);
}

function stockText(raw: string): string | undefined {
  if (/\b(?:out of stock|sold out|unavailable)\b/i.test(raw)) return 'out_of_stock';
  if (/\bpre-?order\b/i.test(raw)) return 'preorder';
  if (/\bin stock\b|\bavailable\b/i.test(raw)) return 'in_stock';
  return undefined;
}

const GALLERY_IMAGES = ['[class*="gallery" i]', '[id*="gallery" i]', '[class*="product-image" i]', '[class*="product_image" i]', '.carousel']
  .map((container) => `${container} img`)
  .join(', ');

/** What the page itself shows, for shops without markup. */
function pageRecord(context: PageContext): ExtractRecord {
  const { doc } = context;
  const priceNode = priceElement(doc);
  const price = priceNode ? parsePrice(elementText(priceNode)) : undefined;
  const stock = doc.querySelector('[class*="availability" i], [class*="stock" i], [id*="availability" i]');
  const body = doc.querySelector('body');
  const bodyText = body ? visibleText(body) : '';
  const gallery = Array.from(doc.querySelectorAll(GALLERY_IMAGES));
  return compact({
    name: firstHeading(context),
    description: metaDescription(context),
    sku: /\bSKU\s*[:#]?\s*([A-Za-z0-9][\w-]{2,})/i.exec(bodyText)?.[1],
    gtin: /\b(?:GTIN|EAN|UPC|ISBN(?:-1[03])?)\s*[:#]?\s*(\d{8,14})\b/i.exec(bodyText)?.[1],
    price: price?.amount,
    currency: price?.currency,
    availability: stock ? stockText(elementText(stock)) : undefined,
    images: unique(gallery.map((img) => imageSource(img, context.base))),
  });
}

export const productPage: Scraper = {
  name: 'product-page',
  category: 'ecommerce',
  input_hint: '{"url": "https://shop.example/product/123"} — a product detail page',
  description:
    'One record per product detail page: name, description, brand, sku, mpn, gtin, price (number), currency (ISO 4217), ' +
    'availability (in_stock, out_of_stock, preorder, ...), condition, rating (number), review_count (integer), images ' +
    '(absolute URLs), url. Read from JSON-LD, microdata, RDFa, then Open Graph/Twitter product tags, then the page ' +
    'itself (h1, price elements). Fields the page does not state are omitted.',
  extract(page) {
    const context = readPage(page);
    const meta = metaRecord(context);
    const fromPage = pageRecord(context);
    const product = mainProduct(context);
    if (product) return [fillGaps(structuredRecord(product, context), meta.record, fromPage)];
    if (meta.isProduct) return [fillGaps(meta.record, fromPage)];
    if (fromPage.name && fromPage.price !== undefined) return [{ ...fromPage, url: canonicalUrl(context) }];
    return [];
  },
};
