import { describe, expect, it } from 'vitest';
import { convertPage, parseDocument, type PageFormat } from '../../src/web/convert';
import { toText } from '../../src/web/convert/text';
import type { PageExpectation } from '../fixtures/pages/corpus';
import { corpus } from '../fixtures/pages/corpus.generated';

/** Markdown read as text: link and image syntax, emphasis, code ticks and escapes removed, spaces collapsed. */
function plainText(markdown: string): string {
  return collapse(
    markdown
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[((?:\\.|[^\]])*)\]\((?:\\.|[^)])*\)/g, '$1')
      .replace(/\*\*|__|`/g, '')
      .replace(/(^|\W)_(\S)/g, '$1$2')
      .replace(/(\S)_(\W|$)/g, '$1$2')
      .replace(/\\([\\`*_{}[\]()#+\-.!|>~<])/g, '$1'),
  );
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Fenced blocks, also those nested in blockquotes. */
function codeBlocks(markdown: string): { language: string; body: string }[] {
  return Array.from(markdown.replace(/^(?:> ?)+/gm, '').matchAll(/^(`{3,})([^\n`]*)\n([\s\S]*?)\n\1$/gm), (match) => ({ language: match[2]!.trim(), body: match[3]! }));
}

function pipeTables(markdown: string): number {
  return (markdown.match(/^\|.*\|\n\|(?: *:?-{3,}:? *\|)+$/gm) ?? []).length;
}

function headingTexts(markdown: string): string[] {
  return Array.from(markdown.matchAll(/^#{1,6} +(.+?) *#*$/gm), (match) => plainText(match[1]!));
}

/** Every expectation that does not hold, as readable lines. */
function failures(markdown: string, title: string, metadata: NonNullable<ReturnType<typeof convertPage>>['metadata'], expected: PageExpectation): string[] {
  const problems: string[] = [];
  const text = plainText(markdown);
  const blocks = codeBlocks(markdown);
  const headings = headingTexts(markdown);
  const rows = markdown.split('\n').filter((line) => line.startsWith('|')).map(collapse);

  if (!collapse(title).includes(expected.title)) problems.push(`title ${JSON.stringify(title)} lacks ${JSON.stringify(expected.title)}`);
  if (expected.language && metadata.language !== expected.language) problems.push(`language ${metadata.language}`);
  if (expected.description && metadata.description !== expected.description) problems.push(`description ${metadata.description}`);
  if (expected.canonicalUrl && metadata.canonicalUrl !== expected.canonicalUrl) problems.push(`canonical ${metadata.canonicalUrl}`);
  for (const [key, value] of Object.entries(expected.openGraph ?? {})) {
    if (metadata.openGraph[key] !== value) problems.push(`og:${key} is ${metadata.openGraph[key]}`);
  }
  const types = metadata.jsonLd.flatMap((block) => (Array.isArray(block) ? block : [block])).map((block) => (block as { '@type'?: unknown })['@type']);
  for (const type of expected.jsonLdTypes ?? []) if (!types.includes(type)) problems.push(`no JSON-LD ${type}`);
  for (const sentence of expected.sentences) if (!text.includes(collapse(sentence))) problems.push(`missing sentence: ${sentence}`);
  for (const heading of expected.headings ?? []) if (!headings.includes(collapse(heading))) problems.push(`missing heading: ${heading}`);
  for (const snippet of expected.code ?? []) if (!blocks.some((block) => block.body.includes(snippet))) problems.push(`missing code: ${snippet}`);
  for (const language of expected.codeLanguages ?? []) if (!blocks.some((block) => block.language === language)) problems.push(`no \`\`\`${language} block`);
  if (blocks.length < (expected.minCodeBlocks ?? 0)) problems.push(`${blocks.length} code blocks, expected ${expected.minCodeBlocks}`);
  if (pipeTables(markdown) < (expected.minTables ?? 0)) problems.push(`${pipeTables(markdown)} tables, expected ${expected.minTables}`);
  for (const row of expected.tableRows ?? []) if (!rows.some((line) => line.startsWith(collapse(row)))) problems.push(`missing table row: ${row}`);
  for (const link of expected.links ?? []) if (!markdown.includes(`](${link}`)) problems.push(`missing link: ${link}`);
  for (const image of expected.images ?? []) if (!markdown.includes(`](${image}`)) problems.push(`missing image: ${image}`);
  for (const noise of expected.absent ?? []) if (markdown.includes(noise)) problems.push(`noise present: ${noise}`);
  return problems;
}

/**
 * The sentences and absent strings checked on the text of another format (HTML is read as its
 * text, so markup such as `<table` in `absent` does not count against it).
 */
function textFailures(content: string, format: Exclude<PageFormat, 'markdown'>, expected: PageExpectation): string[] {
  const body = format === 'html' ? parseDocument(content).body : null;
  const text = collapse(body ? toText(body) : content);
  return [
    ...expected.sentences.filter((sentence) => !text.includes(collapse(sentence))).map((sentence) => `missing sentence: ${sentence}`),
    ...(expected.absent ?? []).filter((noise) => text.includes(noise)).map((noise) => `noise present: ${noise}`),
  ];
}

describe('conversion of saved pages', () => {
  it.each(corpus.map((page) => [page.name, page] as const))('%s converts to markdown that keeps its content', (_name, page) => {
    const result = convertPage(page.html, page.url, 'markdown');
    expect(result).not.toBeNull();
    expect(failures(result!.content, result!.title, result!.metadata, page.expected)).toEqual([]);
  });

  const otherFormats = corpus.flatMap((page) => (['html', 'text'] as const).map((format) => [page.name, format, page] as const));
  it.each(otherFormats)('%s converts to %s that keeps the same content', (_name, format, page) => {
    const result = convertPage(page.html, page.url, format);
    expect(result).not.toBeNull();
    expect(textFailures(result!.content, format, page.expected)).toEqual([]);
  });

  it('converts the whole corpus, reporting throughput and content kept', () => {
    // Several rounds, so one slow moment of a shared machine weighs less; the isolate is warm from the tests above.
    const rounds = 3;
    const started = performance.now();
    let results: ReturnType<typeof convertPage>[] = [];
    for (let round = 0; round < rounds; round++) results = corpus.map((page) => convertPage(page.html, page.url, 'markdown'));
    const elapsed = performance.now() - started;

    const pages = corpus.length * rounds;
    const megabytes = (rounds * corpus.reduce((sum, page) => sum + new TextEncoder().encode(page.html).length, 0)) / 1e6;
    let sentences = 0;
    let found = 0;
    let tablesExpected = 0;
    let tablesKept = 0;
    corpus.forEach((page, index) => {
      const text = plainText(results[index]?.content ?? '');
      sentences += page.expected.sentences.length;
      found += page.expected.sentences.filter((sentence) => text.includes(collapse(sentence))).length;
      tablesExpected += page.expected.minTables ?? 0;
      tablesKept += Math.min(page.expected.minTables ?? 0, pipeTables(results[index]?.content ?? ''));
    });

    console.log(
      `convert corpus: ${pages} pages (${corpus.length} × ${rounds}), ${megabytes.toFixed(2)} MB HTML, ${elapsed.toFixed(0)} ms, ` +
        `${(pages / (elapsed / 1000)).toFixed(1)} pages/s, ${(megabytes / (elapsed / 1000)).toFixed(2)} MB/s; ` +
        `sentences found ${found}/${sentences} (${((100 * found) / sentences).toFixed(1)}%), tables kept ${tablesKept}/${tablesExpected}`,
    );
    expect(results.every((result) => result !== null)).toBe(true);
  });
});
