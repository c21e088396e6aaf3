import TurndownService from 'turndown';
import { strikethrough } from 'turndown-plugin-gfm';
import { collapseWhitespace, isElement, tagOf, type DomElement, type DomNode } from './dom';
import { pipeTables } from './tables';

/** One configured converter for the isolate; turndown keeps no state between calls. */
const service = createService();

/** GitHub-flavoured markdown of sanitized content (see `sanitizeContent`). */
export function toMarkdown(root: DomElement): string {
  // turndown accepts a node and then needs no DOMParser, which Workers lack; its declarations
  // name lib.dom's HTMLElement, which the Workers build does not load.
  const markdown = service.turndown(root as never);
  return tidy(markdown);
}

/** Drops the trailing spaces and blank-line runs that nested blocks leave; keeps hard breaks. */
function tidy(markdown: string): string {
  return markdown
    .replace(/(\S)[ \t]{2,}$/gm, '$1  ')
    .replace(/(\S)[ \t]$/gm, '$1')
    .replace(/^[ \t]+$/gm, '')
    .replace(/^(\s*(?:-|\d+\.) \[[ x]\]) {2,}/gm, '$1 ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function createService(): TurndownService {
  const turndown = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    strongDelimiter: '**',
    hr: '---',
    linkStyle: 'inlined',
  });
  turndown.use([strikethrough, pipeTables]);
  turndown.remove(['script', 'style', 'noscript', 'template', 'button', 'select', 'textarea']);

  turndown.addRule('listItem', {
    filter: 'li',
    replacement: (content, node) => {
      const item = node as unknown as DomElement;
      const parent = item.parentNode;
      let prefix = '- ';
      if (parent && tagOf(parent) === 'ol') {
        const start = Number.parseInt(parent.getAttribute('start') ?? '1', 10);
        const index = Array.from(parent.children).filter((child) => tagOf(child) === 'li').indexOf(item);
        prefix = `${(Number.isNaN(start) ? 1 : start) + index}. `;
      }
      const paragraphs = /\n$/.test(content);
      const body = `${content.replace(/^\n+|\n+$/g, '')}${paragraphs ? '\n' : ''}`.replace(/\n/g, `\n${' '.repeat(prefix.length)}`);
      return `${prefix}${body}${item.nextSibling ? '\n' : ''}`;
    },
  });

  // The plugin's task-list rule reads `input.type` and `input.checked`, which linkedom leaves unset.
  turndown.addRule('taskListItem', {
    filter: (node) => tagOf(node as unknown as DomElement) === 'input' && (node as unknown as DomElement).getAttribute('type')?.toLowerCase() === 'checkbox',
    replacement: (_content, node) => ((node as unknown as DomElement).hasAttribute('checked') ? '[x] ' : '[ ] '),
  });

  turndown.addRule('codeBlock', {
    filter: 'pre',
    replacement: (_content, node) => {
      const pre = node as unknown as DomElement;
      const code = pre.querySelector('code');
      const language = /language-([\w#+.-]+)/.exec(code?.getAttribute('class') ?? '')?.[1] ?? '';
      const text = preformattedText(pre).replace(/^\n/, '').replace(/\s+$/, '');
      const longestRun = Math.max(2, ...Array.from(text.matchAll(/`{3,}/g), (match) => match[0].length));
      const fence = '`'.repeat(longestRun + 1);
      return `\n\n${fence}${language}\n${text}\n${fence}\n\n`;
    },
  });

  turndown.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      const image = node as unknown as DomElement;
      const src = image.getAttribute('src') ?? '';
      // Data URIs are often kilobytes of base64, file: and other schemes are unreachable, and
      // images of a few pixels are spacers, corners and trackers: none of them is content.
      if (!/^https?:/i.test(src) || isPixel(image)) return '';
      const alt = collapseWhitespace(image.getAttribute('alt') ?? '').replace(/([[\]\\])/g, '\\$1');
      const title = collapseWhitespace(image.getAttribute('title') ?? '').replace(/"/g, '\\"');
      return `![${alt}](${linkDestination(src)}${title ? ` "${title}"` : ''})`;
    },
  });

  turndown.addRule('embed', {
    filter: ['iframe', 'video', 'audio', 'embed'],
    replacement: (_content, node) => {
      const element = node as unknown as DomElement;
      const src = element.getAttribute('src') ?? element.querySelector('source[src]')?.getAttribute('src') ?? '';
      if (!/^https?:/i.test(src)) return '';
      const label = element.getAttribute('title') ?? `${tagOf(element) === 'audio' ? 'Audio' : 'Embedded media'}: ${hostOf(src)}`;
      return `\n\n[${collapseWhitespace(label).replace(/([[\]\\])/g, '\\$1')}](${linkDestination(src)})\n\n`;
    },
  });

  return turndown;
}

/** The text of a `<pre>`, with `<br>` as a newline (some highlighters emit them). */
function preformattedText(node: DomNode): string {
  let text = '';
  for (const child of Array.from(node.childNodes)) {
    if (isElement(child)) text += tagOf(child) === 'br' ? '\n' : preformattedText(child);
    else if (child.nodeType === 3) text += child.textContent ?? '';
  }
  return text;
}

function isPixel(image: DomElement): boolean {
  const size = (name: string) => Number.parseInt(image.getAttribute(name) ?? '', 10);
  return size('width') <= 10 && size('height') <= 10;
}

function linkDestination(url: string): string {
  const escaped = url.replace(/([<>()])/g, '\\$1');
  return escaped.includes(' ') ? `<${escaped}>` : escaped;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
