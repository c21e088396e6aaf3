import type TurndownService from 'turndown';
import { isElement, tagOf, type DomElement, type DomNode } from './dom';

/*
 * GFM pipe tables. turndown-plugin-gfm's table rules read `table.rows`, which linkedom does not
 * implement, keep header-less tables as raw HTML, and do not escape pipes or newlines in cells;
 * these rules replace them. Every data table gets a header row (the first row is promoted),
 * colspans become empty cells, and layout tables (nested, single row or column, role
 * "presentation") are unwrapped into blocks.
 */

interface TableShape {
  layout: boolean;
  columns: number;
  headerRow: DomElement | null;
}

const shapes = new WeakMap<DomElement, TableShape>();

export function pipeTables(service: TurndownService): void {
  service.addRule('tableCaption', { filter: 'caption', replacement: () => '' });

  service.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content });

  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      const cell = node as unknown as DomElement;
      const table = owningTable(cell);
      if (!table || shapeOf(table).layout) return `\n\n${content}\n\n`;
      const text = content.replace(/\s*\n+\s*/g, ' ').replace(/\|/g, '\\|').trim();
      const span = Math.max(1, Number.parseInt(cell.getAttribute('colspan') ?? '1', 10) || 1);
      return ` ${text} |${' |'.repeat(span - 1)}`;
    },
  });

  service.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const row = node as unknown as DomElement;
      const table = owningTable(row);
      if (!table) return content;
      const shape = shapeOf(table);
      if (shape.layout) return `\n\n${content}\n\n`;
      const missing = Math.max(0, shape.columns - cellCount(row));
      const line = `|${content}${'  |'.repeat(missing)}`;
      return row === shape.headerRow ? `\n${line}\n|${' --- |'.repeat(shape.columns)}` : `\n${line}`;
    },
  });

  service.addRule('table', {
    filter: 'table',
    replacement: (content, node) => {
      const table = node as unknown as DomElement;
      const caption = captionOf(table);
      if (shapeOf(table).layout) return `\n\n${content}\n\n`;
      const rows = content.replace(/\n+/g, '\n').trim();
      if (!rows) return '';
      return `\n\n${caption ? `${caption}\n\n` : ''}${rows}\n\n`;
    },
  });
}

function shapeOf(table: DomElement): TableShape {
  let shape = shapes.get(table);
  if (!shape) {
    const rows = rowsOf(table);
    const columns = Math.max(0, ...rows.map(cellCount));
    const role = table.getAttribute('role')?.toLowerCase();
    const layout =
      role === 'presentation' ||
      role === 'none' ||
      table.querySelector('table') !== null ||
      rows.length === 0 ||
      columns <= 1 ||
      (rows.length === 1 && !rows[0]!.querySelector('th'));
    shape = { layout, columns, headerRow: rows[0] ?? null };
    shapes.set(table, shape);
  }
  return shape;
}

/** The table's own rows, in document order, leaving out the rows of nested tables. */
function rowsOf(table: DomElement): DomElement[] {
  const rows: DomElement[] = [];
  for (const child of Array.from(table.children)) {
    const tag = tagOf(child);
    if (tag === 'tr') rows.push(child);
    else if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot') {
      for (const row of Array.from(child.children)) if (tagOf(row) === 'tr') rows.push(row);
    }
  }
  return rows;
}

function cellCount(row: DomElement): number {
  let count = 0;
  for (const cell of Array.from(row.children)) {
    const tag = tagOf(cell);
    if (tag === 'td' || tag === 'th') count += Math.max(1, Number.parseInt(cell.getAttribute('colspan') ?? '1', 10) || 1);
  }
  return count;
}

function owningTable(node: DomNode): DomElement | null {
  for (let parent = node.parentNode; parent; parent = parent.parentNode) {
    if (isElement(parent) && tagOf(parent) === 'table') return parent;
  }
  return null;
}

function captionOf(table: DomElement): string {
  const caption = Array.from(table.children).find((child) => tagOf(child) === 'caption');
  return (caption?.textContent ?? '').replace(/\s+/g, ' ').trim();
}
