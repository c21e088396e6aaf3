import { describe, expect, it } from 'vitest';
import { parseDocument } from './dom';
import { pageMetadata } from './metadata';

const URL = 'https://news.example.com/world/story-1';

function metadataOf(head: string, htmlAttributes = ''): ReturnType<typeof pageMetadata> {
  return pageMetadata(parseDocument(`<!DOCTYPE html><html ${htmlAttributes}><head>${head}</head><body><p>Body.</p></body></html>`), URL);
}

describe('pageMetadata', () => {
  it('reads title, description, language, canonical, Open Graph and JSON-LD', () => {
    const metadata = metadataOf(
      `<title>Story One – Example News</title>
       <meta name="description" content="What happened, briefly.">
       <link rel="canonical" href="/world/story-1?ref=canonical">
       <meta property="og:title" content="Story One">
       <meta property="og:image" content="https://cdn.example.com/one.jpg">
       <meta property="og:image" content="https://cdn.example.com/two.jpg">
       <meta property="og:image:width" content="1200">
       <script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Story One"}</script>
       <script type="application/ld+json">[{"@type":"BreadcrumbList"},{"@type":"Organization","name":"Example"}]</script>`,
      'lang="en-GB"',
    );
    expect(metadata).toEqual({
      title: 'Story One',
      description: 'What happened, briefly.',
      language: 'en-GB',
      canonicalUrl: 'https://news.example.com/world/story-1?ref=canonical',
      openGraph: { title: 'Story One', image: 'https://cdn.example.com/one.jpg', 'image:width': '1200' },
      jsonLd: [
        { '@context': 'https://schema.org', '@type': 'NewsArticle', headline: 'Story One' },
        [{ '@type': 'BreadcrumbList' }, { '@type': 'Organization', name: 'Example' }],
      ],
    });
  });

  it.each([
    ['falls back to <title> without og:title', '<title>  Plain   title </title>', { title: 'Plain title' }],
    ['falls back to og:description', '<meta property="og:description" content="From OG.">', { description: 'From OG.' }],
    ['accepts og: properties written as name=', '<meta name="og:site_name" content="Example">', { openGraph: { site_name: 'Example' } }],
    ['splits space-separated properties', '<meta property="og:title twitter:title" content="Both">', { title: 'Both', openGraph: { title: 'Both' } }],
    ['takes content-language when <html> has no lang', '<meta http-equiv="content-language" content="fr">', { language: 'fr' }],
  ])('%s', (_name, head, expected) => {
    expect(metadataOf(head)).toMatchObject(expected);
  });

  it('skips JSON-LD blocks that do not parse and unwraps CDATA', () => {
    const metadata = metadataOf(
      `<script type="application/ld+json">{ "@type": "Article", }</script>
       <script type="application/ld+json">//<![CDATA[
       {"@type":"WebPage"}
       //]]></script>
       <script type="application/ld+json"></script>`,
    );
    expect(metadata.jsonLd).toEqual([{ '@type': 'WebPage' }]);
  });

  it('leaves out what the page does not say', () => {
    expect(metadataOf('')).toEqual({ openGraph: {}, jsonLd: [] });
  });
});
