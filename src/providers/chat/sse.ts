import type { SseEvent } from './types';

/**
 * The longest line, and the longest event (its `data` lines together), an upstream may send, in
 * characters: 4 MiB, far above any chat chunk. Past it the stream fails as the provider's.
 */
export const MAX_SSE_LINE = 4 * 1024 * 1024;

/** An upstream line or event longer than `MAX_SSE_LINE`. */
export class SseLineTooLong extends Error {
  constructor() {
    super(`The provider sent an event line longer than ${MAX_SSE_LINE / (1024 * 1024)} MiB.`);
    this.name = 'SseLineTooLong';
  }
}

const LINE_END = /\r\n|\r|\n/g;

/**
 * An incremental Server-Sent Events parser (WHATWG rules): feed it text as it arrives, get the
 * complete events out. Handles \n, \r\n and \r line ends, multi-line `data`, comments and events
 * split across network reads. Linear in its input: each piece of text is scanned once, and a line
 * still open is kept as its pieces, joined once it ends.
 */
export class SseParser {
  /** The pieces of the line not yet ended, and their length. */
  #open: string[] = [];
  #openLength = 0;
  /** The last piece ended with \r: a \n that starts the next one belongs to it. */
  #afterCr = false;
  #data: string[] = [];
  #dataLength = 0;
  #event: string | undefined;

  /** The events completed by `text`; throws `SseLineTooLong` past `MAX_SSE_LINE`. */
  push(text: string): SseEvent[] {
    const events: SseEvent[] = [];
    let start = this.#afterCr && text.startsWith('\n') ? 1 : 0;
    if (text.length > 0) this.#afterCr = false;
    LINE_END.lastIndex = start;
    for (let match = LINE_END.exec(text); match; match = LINE_END.exec(text)) {
      const piece = text.slice(start, match.index);
      const line = this.#open.length === 0 ? piece : this.#open.join('') + piece;
      this.#open = [];
      this.#openLength = 0;
      if (line.length > MAX_SSE_LINE) throw new SseLineTooLong();
      start = match.index + match[0].length;
      if (match[0] === '\r' && start === text.length) this.#afterCr = true;
      const event = this.#line(line);
      if (event) events.push(event);
    }
    if (start < text.length) {
      this.#open.push(text.slice(start));
      this.#openLength += text.length - start;
      if (this.#openLength > MAX_SSE_LINE) throw new SseLineTooLong();
    }
    return events;
  }

  /** Any event left without its closing blank line when the stream ended. */
  end(): SseEvent[] {
    const rest = this.#openLength > 0 ? this.push('\n') : [];
    const last = this.#line('');
    return last ? [...rest, last] : rest;
  }

  #line(line: string): SseEvent | null {
    if (line === '') {
      if (this.#data.length === 0) {
        this.#event = undefined;
        return null;
      }
      const event: SseEvent = { data: this.#data.join('\n'), ...(this.#event ? { event: this.#event } : {}) };
      this.#data = [];
      this.#dataLength = 0;
      this.#event = undefined;
      return event;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.#dataLength += value.length + 1;
      if (this.#dataLength > MAX_SSE_LINE) throw new SseLineTooLong();
      this.#data.push(value);
    } else if (field === 'event') this.#event = value;
    return null;
  }
}
