import { describe, expect, it } from 'vitest';
import { convertPage, type PageFormat } from './index';

const URL = 'https://example.com/blog/2024/post.html';

const PROSE =
  '<p>Readers come for the article body, which runs long enough to look like one: it has several sentences, some commas, ' +
  'and more than a hundred characters of plain text, so the extractor scores it as the main content of the page.</p>';

/** A page whose article holds `body` between two paragraphs of prose, with the usual site furniture around it. */
function page(body: string, head = '<title>The Post | Example Blog</title>'): string {
  return `<!DOCTYPE html><html lang="en"><head>${head}<style>.x{color:red}</style><script>window.tracker = 1;</script></head>
<body>
  <nav><a href="/">Home</a> <a href="/archive">Archive of all posts</a></nav>
  <div id="cookie-consent">We use cookies to improve your experience. <button>Accept all</button></div>
  <article><h1>The Post</h1>${PROSE}${body}${PROSE}</article>
  <footer><p>© Example Blog footer text</p><form><input name="email"><button>Subscribe to the newsletter</button></form></footer>
  <script>document.write('late script')</script>
</body></html>`;
}

function markdownOf(body: string): string {
  const converted = convertPage(page(body), URL, 'markdown');
  if (!converted) throw new Error('no content');
  return converted.content;
}

describe('convertPage markdown', () => {
  it.each([
    [
      'a table with a header row',
      '<table><thead><tr><th>Name</th><th>Stars</th></tr></thead><tbody><tr><td>alpha</td><td>10</td></tr><tr><td>beta</td><td>20</td></tr></tbody></table>',
      '| Name | Stars |\n| --- | --- |\n| alpha | 10 |\n| beta | 20 |',
    ],
    [
      'a table without thead (the first row is promoted)',
      '<table><tr><td>Name</td><td>Stars</td></tr><tr><td>alpha</td><td>10</td></tr><tr><td>beta</td><td>20</td></tr></table>',
      '| Name | Stars |\n| --- | --- |\n| alpha | 10 |\n| beta | 20 |',
    ],
    [
      'a table with a colspan, a pipe and a line break in cells',
      '<table><tr><th>Key</th><th>Value</th><th>Note</th></tr><tr><td>a|b</td><td colspan="2">one<br>two</td></tr><tr><td>c</td><td>3</td><td>x</td></tr></table>',
      '| Key | Value | Note |\n| --- | --- | --- |\n| a\\|b | one two | |\n| c | 3 | x |',
    ],
    ['nested lists', '<ul><li>fruit<ul><li>apple</li><li>pear</li></ul></li><li>bread</li></ul>', '- fruit\n  - apple\n  - pear\n- bread'],
    ['an ordered list with a start', '<ol start="3"><li>third</li><li>fourth</li></ol>', '3. third\n4. fourth'],
    ['a task list', '<ul><li><input type="checkbox" checked> shipped</li><li><input type="checkbox"> planned</li></ul>', '- [x] shipped\n- [ ] planned'],
    [
      'a code block with its language',
      '<pre><code class="language-python">def add(a, b):\n    return a + b</code></pre>',
      '```python\ndef add(a, b):\n    return a + b\n```',
    ],
    [
      'a highlighted code block with <br> lines and a language on the <pre>',
      '<pre class="lang-js"><span class="k">const</span> a = 1;<br><br><span class="k">let</span> b = 2;</pre>',
      '```js\nconst a = 1;\n\nlet b = 2;\n```',
    ],
    ['code that contains a fence', '<pre><code>```\nnested\n```</code></pre>', '````\n```\nnested\n```\n````'],
    ['a relative link', '<p>See <a href="../notes/intro.html">the intro</a> first.</p>', 'See [the intro](https://example.com/blog/notes/intro.html) first.'],
    ['a root-relative image', '<p><img src="/img/chart.png" alt="A chart"></p>', '![A chart](https://example.com/img/chart.png)'],
    ['a lazy-loaded image', '<p><img src="data:image/gif;base64,R0lGOD" data-src="/img/lazy.jpg" alt="Lazy"></p>', '![Lazy](https://example.com/img/lazy.jpg)'],
    ['headings as ATX', '<h2>Setup</h2><p>Install it.</p><h3>On Linux</h3><p>Use the package.</p>', '## Setup\n\nInstall it.\n\n### On Linux'],
    ['a heading without its permalink anchor', '<h2 id="usage">Usage <a href="#usage">#</a></h2><p>Call it.</p>', '## Usage\n\nCall it.'],
    ['a blockquote', '<blockquote><p>Simplicity is prerequisite for reliability.</p></blockquote>', '> Simplicity is prerequisite for reliability.'],
    ['strikethrough and emphasis', '<p><del>old</del> <em>new</em> <strong>bold</strong> <code>x()</code></p>', '~old~ _new_ **bold** `x()`'],
  ])('keeps %s', (_name, body, expected) => {
    expect(markdownOf(body)).toContain(expected);
  });

  it('resolves relative URLs against <base href>', () => {
    const html = page('<p><a href="guide.html">Guide</a></p>', '<title>The Post</title><base href="https://docs.example.org/v2/">');
    expect(convertPage(html, URL, 'markdown')?.content).toContain('[Guide](https://docs.example.org/v2/guide.html)');
  });

  it('starts with the title as a heading, once', () => {
    const markdown = markdownOf('');
    expect(markdown.startsWith('# The Post\n\n')).toBe(true);
    expect(markdown.match(/^# /gm)).toHaveLength(1);
  });

  it('does not repeat a title the content already opens with, even as a link', () => {
    const html = '<html><head><title>Release notes</title></head><body><article><h2><a href="/notes">Release notes</a></h2>' + PROSE + '</article></body></html>';
    const markdown = convertPage(html, URL, 'markdown')?.content ?? '';
    expect(markdown.match(/Release notes/g)).toHaveLength(1);
  });

  it('leaves out scripts, styles, navigation, consent banners, forms and footers', () => {
    const markdown = markdownOf('<script>alert("inline")</script><style>p{}</style><p onclick="steal()">Clicked text.</p>');
    for (const noise of ['window.tracker', 'alert(', 'color:red', 'Archive of all posts', 'We use cookies', 'Accept all', 'Subscribe to the newsletter', 'footer text', 'late script', 'steal()']) {
      expect(markdown).not.toContain(noise);
    }
    expect(markdown).toContain('Clicked text.');
  });

  it('unwraps layout tables instead of drawing them as grids', () => {
    const layout = `<table><tr><td><table><tr><td>${PROSE}</td></tr></table></td><td><p>Side column text.</p></td></tr></table>`;
    const markdown = convertPage(page(layout), URL, 'markdown')?.content ?? '';
    expect(markdown).not.toContain('| --- |');
  });
});

describe('convertPage formats', () => {
  const html = page('<!-- cache: hit --><h2>Details</h2><p>First <a href="/a">link</a> here.</p><ul><li>one</li><li>two</li></ul><pre><code class="language-sh">echo  hi</code></pre>');

  it.each<[PageFormat, string[], string[]]>([
    ['markdown', ['# The Post', '## Details', 'First [link](https://example.com/a) here.', '- one\n- two', '```sh\necho  hi\n```'], ['<h2>', '<script']],
    ['html', ['<h2>Details</h2>', '<a href="https://example.com/a">link</a>', '<li>one</li>', '<code class="language-sh">echo  hi</code>'], ['<script', '<style', 'onclick', 'class="page"', 'readability', '<!--']],
    ['text', ['The Post\n\n', 'Details\n\nFirst link here.', 'one\ntwo', 'echo  hi'], ['<', '](', '##']],
  ])('%s', (format, present, absent) => {
    const converted = convertPage(html, URL, format);
    expect(converted?.title).toBe('The Post');
    for (const fragment of present) expect(converted?.content).toContain(fragment);
    for (const fragment of absent) expect(converted?.content).not.toContain(fragment);
  });

  it('collapses white space in text but keeps paragraph breaks', () => {
    const converted = convertPage(page('<p>spread    over\n\n   lines</p><p>next</p>'), URL, 'text');
    expect(converted?.content).toContain('spread over lines\n\nnext');
  });
});

describe('convertPage without main content', () => {
  it.each([
    ['an empty document', ''],
    ['only scripts and styles', '<html><head><style>p{}</style></head><body><script>var a = 1;</script></body></html>'],
    ['only navigation', '<html><body><nav><a href="/">Home</a></nav><div id="cookie-banner">Cookies?</div></body></html>'],
    ['white space and punctuation', '<html><body><div> … — </div><p>&nbsp;</p></body></html>'],
  ])('returns null for %s', (_name, html) => {
    expect(convertPage(html, URL, 'markdown')).toBeNull();
  });

  it('converts a bare fragment', () => {
    const converted = convertPage('<p>Just one short line.</p>', URL, 'markdown');
    expect(converted?.content).toBe('Just one short line.');
  });
});

describe('convertPage on pathologically deep nesting', () => {
  // Unclosed tags nest: 20,000 of them once took Readability longer than any Worker may run
  // (a chain of 300 took a second per format), and recursive walkers past the stack.
  const deep = (depth: number) =>
    `<html><head><title>Deep</title></head><body>${'<div>'.repeat(depth)}<p>Deep inside, <a href="/x">a link</a> and <code>code</code>.</p>${'</div>'.repeat(depth)}<p>After the wrappers.</p></body></html>`;

  it('keeps the text, its order and the innermost elements, in every format', () => {
    const page = (format: PageFormat) => convertPage(deep(20_000), 'https://example.com/', format)!.content;
    expect(page('markdown')).toMatch(/Deep inside, \[a link\]\(https:\/\/example\.com\/x\) and `code`\.[\s\S]*After the wrappers\./);
    expect(page('text')).toMatch(/Deep inside, a link and code\.[\s\S]*After the wrappers\./);
    expect(page('html')).toContain('<a href="https://example.com/x">a link</a>');
  });

  it('leaves a page within MAX_DEPTH as it was', () => {
    const shallow = convertPage(deep(100), 'https://example.com/', 'html')!.content;
    expect(shallow).toContain('<p>Deep inside, <a href="https://example.com/x">a link</a> and <code>code</code>.</p>');
  });
});
