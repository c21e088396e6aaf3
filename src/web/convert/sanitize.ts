import { isElement, tagOf, TEXT_NODE, type DomElement, type DomNode } from './dom';
import { removeAll, useLazySources } from './clean';
import { absolutizeUrls } from './urls';

/** Attributes kept in the cleaned HTML; everything else (event handlers, styles, data-*) goes. */
const KEPT_ATTRIBUTES = new Set([
  'href', 'src', 'srcset', 'alt', 'title', 'id', 'lang', 'dir', 'colspan', 'rowspan', 'headers', 'scope',
  'start', 'reversed', 'type', 'checked', 'disabled', 'datetime', 'cite', 'width', 'height', 'poster', 'controls',
]);

/** Where highlighters leave the language: Prism and highlight.js, GitHub, Sphinx, SyntaxHighlighter. */
const LANGUAGE_HINTS = [
  /(?:^|\s)(?:language|lang)-([\w#+.-]+)/i,
  /(?:^|\s)highlight-(?:text|source)-([\w#+.-]+)/i,
  /(?:^|\s)highlight-(?!text-|source-)([\w#+.-]+)/i,
  /brush:\s*([\w#+.-]+)/i,
];

/**
 * Makes extracted content safe and uniform: no scripts or styles, an attribute allow-list,
 * absolute URLs, lazy images resolved, and every code block as `<pre><code class="language-x">`.
 */
export function sanitizeContent(root: DomElement, base: URL | null): void {
  removeAll(root.querySelectorAll('script, style, noscript, template, link, meta, svg, canvas, button, select, textarea, input'));
  restoreTaskMarkers(root);
  normalizeCodeBlocks(root);
  removeHeadingPermalinks(root);
  useLazySources(root);
  for (const element of [root, ...root.querySelectorAll('*')]) {
    for (const { name } of Array.from(element.attributes)) {
      const lower = name.toLowerCase();
      if (lower === 'class') {
        const keep = tagOf(element) === 'code' ? /(?:^|\s)(language-[\w#+.-]+)/.exec(element.getAttribute('class') ?? '')?.[1] : undefined;
        if (keep) element.setAttribute('class', keep);
        else element.removeAttribute(name);
      } else if (!KEPT_ATTRIBUTES.has(lower) || (lower === 'id' && /^readability-/.test(element.getAttribute('id') ?? ''))) {
        element.removeAttribute(name);
      }
    }
  }
  absolutizeUrls(root, base);
  tidyNodes(root);
}

const COMMENT_NODE = 8;

/** Drops comments and the source's indentation outside preformatted text. */
function tidyNodes(root: DomElement): void {
  const pending: DomNode[] = [root];
  for (let node = pending.pop(); node; node = pending.pop()) {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === COMMENT_NODE) node.removeChild(child);
      else if (child.nodeType === TEXT_NODE) {
        const text = child.textContent ?? '';
        if (/\n[ \t]/.test(text)) child.textContent = text.replace(/[ \t]*\n\s*/g, '\n');
      } else if (isElement(child) && !['pre', 'textarea', 'script', 'style'].includes(tagOf(child))) pending.push(child);
    }
  }
}

/** Gives each `<pre>` a `<code>` child carrying the language found on it, its code or its wrapper. */
function normalizeCodeBlocks(root: DomElement): void {
  for (const pre of root.querySelectorAll('pre')) {
    const elementChildren = Array.from(pre.children);
    const onlyCode = elementChildren.length === 1 && tagOf(elementChildren[0]!) === 'code' && !hasOwnText(pre) ? elementChildren[0]! : null;
    const hints = [onlyCode, pre, pre.parentNode, pre.parentNode?.parentNode]
      .map((element) => (isElement(element) ? `${element.getAttribute('class') ?? ''} ${element.getAttribute('data-lang') ? `language-${element.getAttribute('data-lang')}` : ''}` : ''))
      .join(' ');
    const language = LANGUAGE_HINTS.map((hint) => hint.exec(hints)?.[1]).find(Boolean)?.toLowerCase();
    let code = onlyCode;
    if (!code) {
      if (!pre.ownerDocument) continue;
      code = pre.ownerDocument.createElement('code');
      while (pre.firstChild) code.appendChild(pre.firstChild);
      pre.appendChild(code);
    }
    if (language) code.setAttribute('class', `language-${language}`);
    else code.removeAttribute('class');
  }
}

function restoreTaskMarkers(root: DomElement): void {
  for (const marker of Array.from(root.querySelectorAll('span[data-task]'))) {
    const box = marker.ownerDocument?.createElement('input');
    if (!box || !marker.parentNode) continue;
    box.setAttribute('type', 'checkbox');
    box.setAttribute('disabled', '');
    if (marker.getAttribute('data-task') === 'done') box.setAttribute('checked', '');
    marker.parentNode.replaceChild(box, marker);
  }
}

/** The "#" or "¶" anchors that blogs and docs put in headings to link to themselves. */
function removeHeadingPermalinks(root: DomElement): void {
  for (const link of Array.from(root.querySelectorAll('h1 a[href*="#"], h2 a[href*="#"], h3 a[href*="#"], h4 a[href*="#"], h5 a[href*="#"], h6 a[href*="#"]'))) {
    if (/^[\s#¶§🔗]*$/u.test(link.textContent ?? '')) link.remove();
  }
}

function hasOwnText(element: DomElement): boolean {
  return Array.from(element.childNodes).some((node) => !isElement(node) && /\S/.test(node.textContent ?? ''));
}

