import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchors, brokenLinks, slug, unclosedFence } from './markdown-links';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** README.md and every page under docs/, as paths from the repository's root. */
function documentation(): string[] {
  const pages = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  return ['README.md', ...pages.sort()];
}

describe('links of README.md and docs/', () => {
  it('covers the README, the index, the decisions and a page per audience', () => {
    const files = documentation();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/README.md', 'docs/decisions.md']));
    for (const audience of ['agents', 'operators', 'contributors']) {
      expect(files.filter((file) => file.startsWith(`docs/${audience}/`)).length).toBeGreaterThan(3);
    }
  });

  it.each(documentation())('every relative link and #anchor of %s resolves', (file) => {
    expect(brokenLinks(ROOT, file)).toEqual([]);
  });

  it.each(documentation())('every code fence of %s is closed', (file) => {
    expect(unclosedFence(readFileSync(join(ROOT, file), 'utf8'))).toBeUndefined();
  });

  it('names every docs page from the index, and the decisions from the README', () => {
    const index = readFileSync(join(ROOT, 'docs/README.md'), 'utf8');
    const pages = documentation().filter((file) => file.startsWith('docs/') && file !== 'docs/README.md');
    expect(pages.filter((page) => !index.includes(`](${page.slice('docs/'.length)})`))).toEqual([]);
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('](docs/decisions.md)');
  });
});

describe('the link check', () => {
  it.each([
    ['## D1. Scrape billing on failure', 'd1-scrape-billing-on-failure'],
    ['## Queue and cron', 'queue-and-cron'],
    ['### A chat completion (`src/products/chat/handlers.ts`)', 'a-chat-completion-srcproductschathandlersts'],
    ["## One busy account stays within its object's reach", 'one-busy-account-stays-within-its-objects-reach'],
    ['## x402: pay per request', 'x402-pay-per-request'],
    ['## `R2_BUCKET_NAME` and [x402](x402.md)', 'r2_bucket_name-and-x402'],
  ])('slugs %s as GitHub does: #%s', (heading, expected) => {
    expect(slug(heading.replace(/^#+\s+/, ''))).toBe(expected);
  });

  it('counts an explicit <a id> as an anchor, as GitHub does', () => {
    expect(anchors('<a id="d33"></a>\n\n## D33. A hold bounds its charge\n')).toEqual(new Set(['d33', 'd33-a-hold-bounds-its-charge']));
  });

  it('finds a fence left open, and none in closed ones', () => {
    expect(unclosedFence('# Deploy\n\n```sh\nnpm run deploy\n\nText\n')).toBe(3);
    expect(unclosedFence('````md\n```sh\n```\n````\n~~~\nx\n~~~\n')).toBeUndefined();
  });

  it('numbers repeated headings as GitHub does', () => {
    expect([...anchors('# Limits\n## Limits\n```\n# not a heading\n```\n## Limits\n')]).toEqual(['limits', 'limits-1', 'limits-2']);
  });

  it('reports a missing file, a missing heading and a missing anchor of its own page, not links in code', () => {
    const root = mkdtempSync(join(tmpdir(), 'docs-links-'));
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'page.md'), '# Page\n\n## Money in, money out\n');
    writeFileSync(
      join(root, 'README.md'),
      [
        '# Title',
        '[ok](docs/page.md#money-in-money-out) [ok](#title) [ok](docs/) [out](https://example.com/x#y)',
        '[gone](docs/missing.md)',
        '[wrong anchor](docs/page.md#money)',
        '[own](#nowhere)',
        '`[in code](docs/missing.md)`',
        '```md',
        '[in a fence](docs/missing.md)',
        '```',
      ].join('\n'),
    );
    expect(brokenLinks(root, 'README.md')).toEqual([
      { file: 'README.md', line: 3, target: 'docs/missing.md', reason: 'no file docs/missing.md' },
      { file: 'README.md', line: 4, target: 'docs/page.md#money', reason: 'no heading #money in docs/page.md' },
      { file: 'README.md', line: 5, target: '#nowhere', reason: 'no heading #nowhere in README.md' },
    ]);
  });
});
