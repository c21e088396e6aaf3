import { getDomain } from 'tldts';
import { parseHTML } from 'linkedom';

/** Files a crawl does not follow: they are not pages. */
const SKIP_EXTENSIONS = /\.(jpe?g|png|gif|webp|svg|ico|bmp|tiff?|pdf|zip|gz|tgz|rar|7z|exe|dmg|msi|mp[34]|m4a|wav|ogg|webm|mov|avi|css|js|mjs|json|xml|rss|woff2?|ttf|eot)$/i;

/** The registrable domain (eTLD+1) of a host; an IP address or a bare host is its own domain. */
export function siteOf(url: URL): string {
  return getDomain(url.hostname, { allowPrivateDomains: true }) ?? url.hostname;
}

/** `url` without its fragment: `#section` links are the same page. */
export function canonicalLink(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

/** The page's links on the same registrable domain as `site`, absolute, de-duplicated, in document order. */
export function sameSiteLinks(html: string, pageUrl: string, site: string): string[] {
  const { document } = parseHTML(html);
  const base = document.querySelector('base[href]')?.getAttribute('href');
  const baseUrl = base ? new URL(base, pageUrl).href : pageUrl;
  const out = new Set<string>();
  for (const anchor of document.querySelectorAll('a[href]')) {
    const href = anchor.getAttribute('href')?.trim();
    if (!href || href.startsWith('#') || /^(mailto|tel|javascript|data):/i.test(href)) continue;
    if ((anchor.getAttribute('rel') ?? '').split(/\s+/).includes('nofollow')) continue;
    let url: URL;
    try {
      url = new URL(href, baseUrl);
    } catch {
      continue;
    }
    if (!/^https?:$/.test(url.protocol) || SKIP_EXTENSIONS.test(url.pathname) || siteOf(url) !== site) continue;
    out.add(canonicalLink(url));
  }
  return [...out];
}
