import type { PageMetadata } from '../../web/convert';

/** Page metadata in the API's snake_case. */
export function metadataBody(metadata: PageMetadata) {
  return {
    title: metadata.title,
    description: metadata.description,
    language: metadata.language,
    canonical_url: metadata.canonicalUrl,
    open_graph: metadata.openGraph,
    json_ld: metadata.jsonLd,
  };
}
