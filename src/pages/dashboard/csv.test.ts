import { describe, expect, it } from 'vitest';
import { csvField, csvLine } from './csv';

describe('CSV', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\r\nlf', '"cr\r\nlf"'],
    ['=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'],
    ['+1', "'+1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['-cmd', "'-cmd"],
    ['-0.5', '-0.5'],
    ['0.000120', '0.000120'],
    ['', ''],
  ])('writes %j as %j', (value, field) => {
    expect(csvField(value)).toBe(field);
  });

  it('writes null as an empty field and ends a line with CRLF', () => {
    expect(csvLine(['a', null, 3, 'b,c'])).toBe('a,,3,"b,c"\r\n');
  });
});
