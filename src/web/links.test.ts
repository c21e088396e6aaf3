import { describe, expect, it } from 'vitest';
import { canonicalLink, sameSiteLinks, siteOf } from './links';

describe('siteOf', () => {
  it.each([
    ['https://www.example.co.uk/a', 'example.co.uk'],
    ['https://blog.example.com/', 'example.com'],
    ['http://127.0.0.1:8080/', '127.0.0.1'],
    ['https://user.github.io/x', 'user.github.io'],
  ])('%s belongs to %s', (url, site) => {
    expect(siteOf(new URL(url))).toBe(site);
  });
});

describe('sameSiteLinks', () => {
  const html = `<html><body>
    <a href="/about">About</a>
    <a href="https://docs.example.com/guide#install">Docs</a>
    <a href="https://other.org/">Elsewhere</a>
    <a href="/about#team">About again</a>
    <a href="/logo.png">Logo</a>
    <a href="mailto:hi@example.com">Mail</a>
    <a href="page2" rel="nofollow">Paid</a>
    <a href="sub/page">Relative</a>
  </body></html>`;

  it('keeps same-site pages, absolute and de-duplicated, in document order', () => {
    expect(sameSiteLinks(html, 'https://www.example.com/dir/index.html', 'example.com')).toEqual([
      'https://www.example.com/about',
      'https://docs.example.com/guide',
      'https://www.example.com/dir/sub/page',
    ]);
  });

  it('honours <base href>', () => {
    expect(sameSiteLinks('<base href="https://example.com/root/"><a href="x">x</a>', 'https://example.com/a/b', 'example.com')).toEqual([
      'https://example.com/root/x',
    ]);
  });

  it('drops the fragment', () => {
    expect(canonicalLink(new URL('https://a.com/p?q=1#top'))).toBe('https://a.com/p?q=1');
  });
});
