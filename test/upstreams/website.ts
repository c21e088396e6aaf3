import { sleep, startUpstream, type Upstream } from './server';

/** Header the stealth-rail simulator sends: it plays a real browser that passes the challenge. */
export const BROWSER_PASS_HEADER = 'x-simulated-browser';

const page = (title: string, body: string, head = '') =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>${body}<footer>Copyright Example Site</footer></body></html>`;

const paragraph = (topic: string) =>
  `<p>${topic} is explained here in enough words for a reader to find the main content of this page without any trouble at all, which is what extraction needs.</p>`;

const productJsonLd = (id: number) => ({
  '@context': 'https://schema.org',
  '@type': 'Product',
  name: `Trail Shoe ${id}`,
  brand: { '@type': 'Brand', name: 'Northwind' },
  sku: `NW-${id}`,
  gtin13: `400638133393${id}`,
  image: [`/images/shoe-${id}.jpg`],
  aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.5', reviewCount: String(10 + id) },
  offers: { '@type': 'Offer', price: `${id * 10}.00`, priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
});

const LONG_SENTENCE = 'This sentence is part of a long section, written so that a reader finds the main content without trouble. ';
/** Sections of the 10 MB page: a few large paragraphs convert in seconds, where 70,000 small ones take half a minute. */
export const LARGE_PAGE_SECTIONS = 105;
let largePage: string | undefined;

/** A page of about 10 MB (under the standard rail's 10 MiB), whose markdown is above a Durable Object row's 2 MB. */
function large(): string {
  largePage ??= page(
    'Large Page',
    `<article><h1>Large Page</h1>${Array.from({ length: LARGE_PAGE_SECTIONS }, (_, i) => `<h2>Section ${i}</h2><p>${LONG_SENTENCE.repeat(900)}</p>`).join('')}</article>`,
  );
  return largePage;
}

/** A small local web site with every case the web features must handle. */
const PAGES: Record<string, () => { status?: number; html: string; headers?: Record<string, string> } | Promise<{ status?: number; html: string }>> = {
  '/robots.txt': () => ({ html: 'User-agent: *\nDisallow: /private/\n', headers: { 'Content-Type': 'text/plain' } }),
  '/': () => ({
    html: page(
      'Example Home',
      `<main><h1>Example Home</h1>${paragraph('The home page')}<ul><li><a href="/article">Article</a></li><li><a href="/products/1">Shoe 1</a></li><li><a href="/products/2">Shoe 2</a></li><li><a href="/private/secret">Secret</a></li><li><a href="https://example.org/elsewhere">Elsewhere</a></li></ul></main>`,
    ),
  }),
  '/about': () => ({ html: page('About Example', `<main><h1>About Example</h1>${paragraph('Who we are')}${paragraph('Our history')}</main>`) }),
  '/article': () => ({
    html: page(
      'Understanding Tables',
      `<article><h1>Understanding Tables</h1>${paragraph('A table')}<h2>Prices</h2><table><thead><tr><th>Plan</th><th>Price</th></tr></thead><tbody><tr><td>Basic</td><td>$5</td></tr><tr><td>Pro</td><td>$20</td></tr></tbody></table><h2>Steps</h2><ol><li>First step</li><li>Second step</li></ol><pre><code class="language-js">console.log("hi");</code></pre>${paragraph('The conclusion')}<p>See <a href="/about">the about page</a>.</p></article>`,
      '<meta name="description" content="How tables survive conversion."><link rel="canonical" href="/article"><meta property="og:title" content="Tables!">',
    ),
  }),
  '/private/secret': () => ({ html: page('Secret', `<main><h1>Secret</h1>${paragraph('A secret')}</main>`) }),
  '/large': () => ({ html: large() }),
  // A product whose description alone (3 MB) is above a Durable Object row's 2 MB: an extract record that must live in R2.
  '/large-product': () => ({
    html: page('Trail Shoe 9', `<main><h1>Trail Shoe 9</h1>${paragraph('This shoe')}</main>`, `<script type="application/ld+json">${JSON.stringify({ ...productJsonLd(9), description: LONG_SENTENCE.repeat(28_000) })}</script>`),
  }),
  '/empty': () => ({ html: '<!DOCTYPE html><html><head><title></title></head><body><script>var x = 1;</script></body></html>' }),
  '/broken': () => ({ status: 500, html: page('Error', '<h1>Internal Server Error</h1>') }),
  '/slow': async () => {
    await sleep(5_000);
    return { html: page('Slow', `<main><h1>Slow</h1>${paragraph('Patience')}</main>`) };
  },
  '/redirect': () => ({ status: 302, html: '', headers: { Location: '/article' } }),
  '/redirect-private': () => ({ status: 302, html: '', headers: { Location: 'http://169.254.169.254/latest/meta-data/' } }),
  '/listing': () => ({
    html: page('Shoes', `<main><h1>Shoes</h1>${[1, 2, 3].map((id) => `<div class="product"><a href="/products/${id}">Trail Shoe ${id}</a> <span class="price">€${id * 10}.00</span></div>`).join('')}</main>`),
  }),
  // A listing whose only structured data is one JSON-LD script holding a top-level array of products.
  '/listing-json-ld': () => ({
    html: page('All shoes', `<main><h1>All shoes</h1>${paragraph('Our range')}</main>`, `<script type="application/ld+json">${JSON.stringify([1, 2, 3, 4].map(productJsonLd))}</script>`),
  }),
};

function route(path: string, headers: Record<string, string | string[] | undefined>) {
  const product = /^\/products\/(\d+)$/.exec(path);
  if (product) {
    const id = Number(product[1]);
    return {
      html: page(
        `Trail Shoe ${id}`,
        `<main><h1>Trail Shoe ${id}</h1>${paragraph('This shoe')}<p class="price">€${id * 10}.00</p></main>`,
        `<script type="application/ld+json">${JSON.stringify(productJsonLd(id))}</script>`,
      ),
    };
  }
  const endless = /^\/endless\/(\d+)$/.exec(path);
  if (endless) {
    const n = Number(endless[1]);
    return { html: page(`Endless ${n}`, `<main><h1>Endless page ${n}</h1>${paragraph(`Page ${n}`)}<a href="/endless/${n + 1}">next</a> <a href="/endless/${n + 2}">skip</a></main>`) };
  }
  if (path === '/challenge') {
    if (headers[BROWSER_PASS_HEADER]) return { html: page('Protected Article', `<article><h1>Protected Article</h1>${paragraph('The protected content')}</article>`) };
    return {
      status: 403,
      html: '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script>window._cf_chl_opt={cvId: "3"};</script><noscript>Enable JavaScript and cookies to continue</noscript></body></html>',
    };
  }
  if (path === '/soft-challenge') {
    // A 200 whose body is an interstitial: only the markup tells.
    if (headers[BROWSER_PASS_HEADER]) return { html: page('Soft Protected', `<article><h1>Soft Protected</h1>${paragraph('The content behind it')}</article>`) };
    return { html: '<html><head><title>Just a moment...</title></head><body><div id="challenge-running"></div><script src="https://challenges.cloudflare.com/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>' };
  }
  return PAGES[path]?.();
}


export async function startWebsite(): Promise<Upstream> {
  return startUpstream(async (request, res) => {
    const path = request.path.split('?')[0]!;
    const answer = await route(path, request.headers);
    if (!answer) {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      return void res.end(page('Not found', '<h1>Not found</h1>'));
    }
    const extra = 'headers' in answer ? (answer.headers ?? {}) : {};
    res.writeHead(answer.status ?? 200, { 'Content-Type': 'text/html; charset=utf-8', ...extra });
    res.end(answer.html);
  });
}

/**
 * The stealth rail (Cloudflare Browser Rendering REST `/content`): bearer key, `{"url"}` in,
 * `{"success": true, "result": "<html>"}` out. It "renders" by fetching with the pass header.
 */
export async function startStealthRail(apiKey: string): Promise<Upstream> {
  return startUpstream(async (request, res) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (request.headers.authorization !== `Bearer ${apiKey}`) {
      return json(401, { success: false, errors: [{ code: 10000, message: 'Authentication error' }], messages: [], result: null });
    }
    const url = (request.body as { url?: string } | undefined)?.url;
    if (request.method !== 'POST' || !request.path.endsWith('/content') || !url) {
      return json(400, { success: false, errors: [{ code: 1001, message: 'Invalid request: url is required' }], messages: [], result: null });
    }
    const page = await fetch(url, { headers: { [BROWSER_PASS_HEADER]: '1' } });
    json(200, { success: true, errors: [], messages: [], result: await page.text() });
  });
}
