import type { Context } from 'hono';
import type { JobView } from '../../../durable-objects/web-job/types';
import type { AppEnv } from '../../env';

const encoder = new TextEncoder();

/**
 * A crawl or extract job as JSON. A freshly settled job's `pages` (or `records`) are streamed from
 * their byte range in the R2 result set, so neither the Durable Object's answer nor this Worker's
 * memory ever holds them whole (a crawl may return 500 pages of up to 10 MB). A result set that
 * is gone (swept) answers without the inline list; `result_url` says where it was.
 */
export async function jobResponse(c: Context<AppEnv>, view: Omit<JobView, 'inline'>, inline: JobView['inline'], field: 'pages' | 'records'): Promise<Response> {
  const object = inline ? await c.env.MEDIA.get(inline.key, { range: { offset: inline.offset, length: inline.length } }) : null;
  if (!inline || !object) return c.json(view, 200);
  const head = encoder.encode(`${JSON.stringify(view).slice(0, -1)},${JSON.stringify(field)}:`);
  const tail = encoder.encode('}');
  const stream = new FixedLengthStream(head.byteLength + inline.length + tail.byteLength);
  // Pumps as the client reads; a client that goes away ends both streams.
  void (async () => {
    const writer = stream.writable.getWriter();
    const reader = object.body.getReader();
    try {
      await writer.write(head);
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) await writer.write(chunk.value);
      await writer.write(tail);
      await writer.close();
    } catch (err) {
      await Promise.allSettled([writer.abort(err), reader.cancel(err)]);
    }
  })();
  return c.body(stream.readable, 200, { 'Content-Type': 'application/json' });
}
