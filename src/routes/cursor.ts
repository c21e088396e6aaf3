import { GatewayError } from '../errors';

/**
 * Opaque page cursors: the last row's sort time and id, base64url-encoded. Clients pass them
 * back untouched; anything else is a 400 naming `cursor`.
 */
export function encodeCursor(time: number, id: string): string {
  return btoa(`${time}:${id}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function decodeCursor(text: string, idPattern: RegExp): { time: number; id: string } {
  const invalid = () => new GatewayError('invalid_request', 'cursor is not a next_cursor of this listing.', { param: 'cursor' });
  let decoded: string;
  try {
    decoded = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    throw invalid();
  }
  const separator = decoded.indexOf(':');
  const time = decoded.slice(0, separator);
  const id = decoded.slice(separator + 1);
  if (separator < 1 || !/^\d{1,15}$/.test(time) || !idPattern.test(id)) throw invalid();
  return { time: Number(time), id };
}
