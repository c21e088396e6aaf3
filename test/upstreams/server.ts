import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  /** Set when the caller closed the connection before the answer was complete (an aborted request). */
  abortedBeforeEnd?: true;
  /** When the request arrived (ms since epoch). */
  receivedAt: number;
}

export interface Upstream {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request received, in order (tests assert on what the gateway sent). */
  requests: RecordedRequest[];
  stop: () => Promise<void>;
}

export type UpstreamHandler = (request: RecordedRequest, res: ServerResponse) => void | Promise<void>;

/** Where tests inside workerd, which cannot reach this process's objects, read what a simulator received. */
export const RECORDED_PATH = '/__recorded';

/**
 * A local HTTP server on 127.0.0.1 that records requests and hands each to `handler`.
 * `GET /__recorded` answers the recorded requests as JSON (for tests that run inside workerd).
 */
export async function startUpstream(handler: UpstreamHandler): Promise<Upstream> {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === RECORDED_PATH) return sendJson(res, 200, requests.map(({ headers: _, ...rest }) => rest));
    const receivedAt = Date.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, receivedAt };
    requests.push(recorded);
    res.once('close', () => {
      if (!res.writableFinished) recorded.abortedBeforeEnd = true;
    });
    try {
      await handler(recorded, res);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Starts an SSE answer; `write` sends raw frames exactly as given. */
export function startSse(res: ServerResponse): { write: (frame: string) => void; end: () => void; die: () => void } {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  res.flushHeaders();
  return {
    write: (frame) => res.write(frame),
    end: () => res.end(),
    // The connection drops mid-stream, with no terminator.
    die: () => res.socket?.destroy(),
  };
}

export type Json = Record<string, unknown>;

/** A JSON object (not an array, not null): request bodies and their members. */
export const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
