/**
 * CSV as RFC 4180 writes it (CRLF line ends; a field with a comma, quote or line break quoted,
 * its quotes doubled), with text that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`,
 * tab, CR first) prefixed with `'` (OWASP's advice for CSV injection). Numbers stay numbers.
 */

const NUMBER = /^-?\d+(\.\d+)?$/;
const FORMULA = /^[=+\-@\t\r]/;

export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  const safe = FORMULA.test(text) && !NUMBER.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(fields: (string | number | null)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}
