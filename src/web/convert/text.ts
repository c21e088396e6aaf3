import { isElement, tagOf, type DomElement, type DomNode } from './dom';

const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'center', 'dd', 'details', 'dialog', 'dir', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr',
  'li', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'tfoot', 'thead', 'tr', 'ul',
  'caption',
]);
const LINE_BLOCKS = new Set(['li', 'tr', 'dt', 'dd', 'figcaption', 'thead', 'tbody', 'tfoot']);
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'button', 'select', 'textarea']);

/**
 * Readable plain text: a blank line between blocks, one line per list item or table row (cells
 * separated by tabs), white space collapsed except inside `<pre>`.
 */
export function toText(root: DomElement): string {
  let out = '';
  let pendingBreaks = 0;

  const append = (text: string, collapse: boolean) => {
    if (!text) return;
    if (pendingBreaks && out) {
      out = out.replace(/[ \t]+$/, '') + '\n'.repeat(pendingBreaks);
    }
    pendingBreaks = 0;
    let piece = text;
    if (collapse && (out === '' || /[\s]$/.test(out))) piece = piece.replace(/^ +/, '');
    out += piece;
  };
  const lineBreak = (count: number) => {
    pendingBreaks = Math.max(pendingBreaks, count);
  };

  const walk = (node: DomNode) => {
    if (!isElement(node)) {
      if (node.nodeType === 3) append((node.textContent ?? '').replace(/[\s\u00a0]+/g, ' '), true);
      return;
    }
    const tag = tagOf(node);
    if (SKIPPED.has(tag)) return;
    if (tag === 'br') {
      // A <br> breaks the line even when nothing follows on it yet.
      out = out.replace(/[ \t]+$/, '');
      if (out && !pendingBreaks) out += '\n';
      return;
    }
    if (tag === 'pre') {
      lineBreak(2);
      append((node.textContent ?? '').replace(/^\n/, '').replace(/\s+$/, ''), false);
      lineBreak(2);
      return;
    }
    if ((tag === 'td' || tag === 'th') && node.parentNode && Array.from(node.parentNode.children).indexOf(node) > 0) append('\t', false);
    const nestedList = (tag === 'ul' || tag === 'ol') && node.parentNode !== null && tagOf(node.parentNode) === 'li';
    const breaks = LINE_BLOCKS.has(tag) || nestedList ? 1 : BLOCKS.has(tag) ? 2 : 0;
    if (breaks) lineBreak(breaks);
    for (const child of Array.from(node.childNodes)) walk(child);
    if (breaks) lineBreak(breaks);
  };

  walk(root);
  return out.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
}
