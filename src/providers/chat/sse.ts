import type { SseEvent } from './types';

/**
 * An incremental Server-Sent Events parser (WHATWG rules): feed it text as it arrives, get the
 * complete events out. Handles \n, \r\n and \r line ends, multi-line `data`, comments and events
 * split across network reads.
 */
export class SseParser {
  #buffer = '';
  #data: string[] = [];
  #event: string | undefined;

  push(text: string): SseEvent[] {
    this.#buffer += text;
    const events: SseEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.#buffer);
      // A lone \r at the very end may be the first half of \r\n: wait for more.
      if (!match || (match[0] === '\r' && match.index === this.#buffer.length - 1)) break;
      const line = this.#buffer.slice(0, match.index);
      this.#buffer = this.#buffer.slice(match.index + match[0].length);
      const event = this.#line(line);
      if (event) events.push(event);
    }
    return events;
  }

  /** Any event left without its closing blank line when the stream ended. */
  end(): SseEvent[] {
    const rest = this.#buffer ? this.push('\n') : [];
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
      this.#event = undefined;
      return event;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
    return null;
  }
}
