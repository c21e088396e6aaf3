import { collapseWhitespace, type DomElement, elementText } from '../structured/dom.ts';
import { isNestedItem, type NestedItem } from '../structured/types.ts';
import { type PageContext, readPage } from './context.ts';
import { isList } from './lists.ts';
import { isReview } from './schema-types.ts';
import type { ExtractRecord, Scraper } from './types.ts';
import { compact, first, number, text } from './values.ts';

/**
 * `reviews`: one record per review shown on the page (a business, product or place page).
 *
 * | field | type | |
 * |---|---|---|
 * | author | string | |
 * | rating | number | the review's rating value |
 * | best_rating | number | the top of its scale, when stated |
 * | title | string | `name` / `headline` |
 * | body | string | `reviewBody` / `description` |
 * | date | string | `datePublished` as written (ISO 8601 in markup) |
 * | item_reviewed | string | name of what is reviewed: `itemReviewed`, else the item holding the review |
 *
 * Sources: `Review` items (top level or under `review` of a product or business) from the first
 * of JSON-LD, microdata, RDFa that has any; without markup, hReview/h-review microformats.
 */

function reviewRecord(review: NestedItem, holder: string | undefined): ExtractRecord {
  const { properties } = review;
  const rating = first(properties.reviewRating);
  const scale = isNestedItem(rating) ? rating.properties : {};
  return compact({
    author: text(properties.author) ?? text(properties.creator),
    rating: number(scale.ratingValue),
    best_rating: number(scale.bestRating),
    title: text(properties.name) ?? text(properties.headline),
    body: text(properties.reviewBody) ?? text(properties.description) ?? text(properties.text),
    date: text(properties.datePublished) ?? text(properties.dateCreated),
    item_reviewed: text(properties.itemReviewed) ?? holder,
  });
}

/** Reviews with the name of the item they sit under (lists aside), depth first, each once. */
function collectReviews(items: readonly NestedItem[]): { review: NestedItem; holder?: string }[] {
  const found: { review: NestedItem; holder?: string }[] = [];
  const seen = new Set<NestedItem>();
  const visit = (value: unknown, holder: string | undefined): void => {
    if (Array.isArray(value)) {
      for (const entry of value) visit(entry, holder);
      return;
    }
    if (!isNestedItem(value) || seen.has(value)) return;
    seen.add(value);
    const isReviewItem = value.type.some(isReview);
    if (isReviewItem) found.push({ review: value, holder });
    // A list's name ("Latest reviews") says nothing about what its reviews are of.
    const name = isReviewItem || isList(value) || value.type.includes('ListItem') ? holder : text(value.properties.name) ?? holder;
    for (const property of Object.values(value.properties)) visit(property, name);
  };
  for (const item of items) visit(item, undefined);
  return found;
}

function microformatText(root: DomElement, selectors: string): string | undefined {
  const element = root.querySelector(selectors);
  if (!element) return undefined;
  return collapseWhitespace(element.getAttribute('datetime') ?? element.getAttribute('title') ?? elementText(element)) || undefined;
}

/** h-review (microformats2) and hReview (classic) blocks. */
function microformatReviews(context: PageContext): ExtractRecord[] {
  return Array.from(context.doc.querySelectorAll('.h-review, .hreview')).map((root) =>
    compact({
      author: microformatText(root, '.p-author, .reviewer'),
      rating: number(microformatText(root, '.p-rating, .rating .value, .rating')),
      best_rating: number(microformatText(root, '.p-best, .rating .best, .best')),
      title: microformatText(root, '.p-name, .summary'),
      body: microformatText(root, '.e-content, .p-content, .e-description, .description'),
      date: microformatText(root, '.dt-published, .dtreviewed'),
      item_reviewed: microformatText(root, '.p-item, .item .fn, .item'),
    }),
  );
}

export const reviews: Scraper = {
  name: 'reviews',
  category: 'local',
  input_hint: '{"url": "https://restaurant.example/reviews"} — a page showing reviews of a business, product or place',
  description:
    'One record per review on the page: author, rating (number), best_rating, title, body, date, item_reviewed. Read ' +
    'from Review markup (JSON-LD, microdata, RDFa), else hReview/h-review microformats. Fields the page does not ' +
    'state are omitted.',
  extract(page) {
    const context = readPage(page);
    for (const { items } of context.sources) {
      const found = collectReviews(items);
      if (found.length > 0) return found.map(({ review, holder }) => reviewRecord(review, holder));
    }
    return microformatReviews(context).filter((record) => record.body !== undefined || record.rating !== undefined);
  },
};
