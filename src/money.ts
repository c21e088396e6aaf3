/** Money is whole micro-dollars (1e-6 USD) in integers; these convert at the edges. */

export const MICROS_PER_USD = 1_000_000;

/** `4998731` -> `"4.998731"`: the 6-fraction-digit string of headers and accounts. */
export function formatUsd(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const abs = Math.abs(micros);
  const whole = Math.floor(abs / MICROS_PER_USD);
  const fraction = String(abs % MICROS_PER_USD).padStart(6, '0');
  return `${sign}${whole}.${fraction}`;
}

/** Micro-dollars as a JSON number in USD (job and scrape bodies). */
export function toUsdNumber(micros: number): number {
  return Number(formatUsd(micros));
}

/**
 * Parses a decimal USD string (`"12.50"`, `"-0.000001"`) into micro-dollars, exactly.
 * Returns null for anything else, including more than 6 fraction digits.
 */
export function parseUsd(text: string): number | null {
  const match = /^(-)?(\d{1,9})(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) return null;
  const [, minus, whole = '0', fraction = ''] = match;
  const micros = Number(whole) * MICROS_PER_USD + Number(fraction.padEnd(6, '0'));
  return minus ? -micros : micros;
}
