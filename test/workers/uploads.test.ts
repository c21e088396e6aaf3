import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import type { QueueMessage } from '../../src/queue/messages';
import { IMAGES_UPSTREAM_KEY } from './global-setup';
import { adminCredit, expectError, register } from './helpers';
import { putToPresignedUrl } from './r2-presigned-put';

/**
 * Presigned uploads (issue 21, item 3): with R2's S3 credentials set, `POST /v1/uploads` answers
 * a presigned R2 PUT and the bytes never pass the Worker, so the gateway learns of an upload by
 * finding it in R2. Here the test writes the object into the `MEDIA` binding as R2 would after
 * an accepted PUT (the signature itself is checked end to end against the S3 stand-in in
 * test/node/uploads.test.ts).
 */

const app = createApp();
const BASE = 'https://gateway.test';
const ENDPOINT = 'http://127.0.0.1:9';
const imagesUrl = inject('imagesUpstreamUrl');
const R2_VARS = { R2_ACCOUNT_ID: '0123456789abcdef0123456789abcdef', R2_ACCESS_KEY_ID: 'AKIDWORKERS', R2_SECRET_ACCESS_KEY: 'secret-workers', R2_S3_ENDPOINT: ENDPOINT };

/** The Worker's env with R2's S3 credentials (`vars`), the images upstream, and the queue recorded. */
function gatewayEnv(vars: Partial<Env> = R2_VARS): Env {
  const JOBS = { send: async (_: QueueMessage) => {}, sendBatch: async () => {} };
  return { ...env, ...vars, OPENAI_API_KEY: IMAGES_UPSTREAM_KEY, OPENAI_BASE_URL: `${imagesUrl}/v1`, JOBS } as unknown as Env;
}

function request(path: string, apiKey: string, body?: unknown, vars?: Partial<Env>): Promise<Response> {
  const init: RequestInit = body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) };
  return Promise.resolve(app.fetch(new Request(`${BASE}${path}`, { ...init, headers: { Authorization: `Bearer ${apiKey}` } }), gatewayEnv(vars), createExecutionContext()));
}

interface Reservation {
  upload_url: string;
  upload_headers: Record<string, string>;
  public_url: string;
  key: string;
  expires_in: number;
  note: string;
}

async function fundedKey(): Promise<string> {
  const agent = await register();
  expect((await adminCredit(agent.account_id, '1')).status).toBe(200);
  return agent.api_key;
}

async function reserve(apiKey: string, bytes: number, vars?: Partial<Env>): Promise<Reservation> {
  const res = await request('/v1/uploads', apiKey, { content_type: 'image/png', content_length: bytes }, vars);
  expect(res.status).toBe(200);
  return res.json();
}

async function listed(apiKey: string): Promise<{ key: string; bytes: number; url: string }[]> {
  const res = await request('/v1/uploads', apiKey);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { key: string; bytes: number; url: string }[] }).data;
}

/** A file that starts as a PNG does, `size` bytes long. */
function pngBytes(size: number): Uint8Array {
  const bytes = new Uint8Array(size).fill(7);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
}

/** What R2 holds after an accepted presigned PUT: the bytes, with the Content-Type the client sent. */
const storeAsR2Would = (key: string, bytes: Uint8Array, type = 'image/png') => env.MEDIA.put(key, bytes, { httpMetadata: { contentType: type } });

const edit = (apiKey: string, imageUrl: string) => request('/v1/images/generations', apiKey, { model: 'openai/gpt-image-1-mini', prompt: 'this, as a woodcut', quality: 'low', image_url: imageUrl });

describe('presigned uploads', () => {
  it('answers a presigned R2 PUT signed for the declared type and length, valid 600 s', async () => {
    const apiKey = await fundedKey();
    const reservation = await reserve(apiKey, 1234);
    const url = new URL(reservation.upload_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${ENDPOINT}/ai-gateway-media/${reservation.key}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('600');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host;if-none-match');
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^AKIDWORKERS\/\d{8}\/auto\/s3\/aws4_request$/);
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(reservation).toMatchObject({ expires_in: 600, public_url: `${BASE}/files/${reservation.key}`, note: expect.stringContaining('Content-Length 1234') });
    expect(reservation.upload_headers).toEqual({ 'Content-Type': 'image/png', 'If-None-Match': '*' });

    // R2's own endpoint and another bucket name by default and by R2_BUCKET_NAME.
    const named = new URL((await reserve(apiKey, 10, { ...R2_VARS, R2_S3_ENDPOINT: undefined, R2_BUCKET_NAME: 'media-prod' })).upload_url);
    expect(named.origin).toBe(`https://${R2_VARS.R2_ACCOUNT_ID}.r2.cloudflarestorage.com`);
    expect(named.pathname).toMatch(/^\/media-prod\/uploads\//);
    // Without all three credentials, the Worker's own route, as before.
    const local = await reserve(apiKey, 10, { R2_ACCOUNT_ID: R2_VARS.R2_ACCOUNT_ID, R2_ACCESS_KEY_ID: R2_VARS.R2_ACCESS_KEY_ID });
    expect(local.upload_url).toMatch(new RegExp(`^${BASE}/uploads/[A-Za-z0-9]{40}$`));
    expect(local.upload_headers).toEqual({ 'Content-Type': 'image/png' });
  });

  it('lists an upload and takes it as an input once its object is in R2 with the declared size, type and signature', async () => {
    const apiKey = await fundedKey();
    const bytes = pngBytes(2048);
    const reservation = await reserve(apiKey, bytes.length);
    expect(await listed(apiKey)).toEqual([]);
    await expectError(await edit(apiKey, reservation.public_url), 400, 'invalid_request', 'invalid_request_error', 'image_url');

    await storeAsR2Would(reservation.key, bytes);
    expect(await listed(apiKey)).toEqual([expect.objectContaining({ key: reservation.key, bytes: bytes.length, url: reservation.public_url })]);
    const rendered = await edit(apiKey, reservation.public_url);
    expect(rendered.status).toBe(200);
  });

  it('finds a finished PUT when the upload is first used, without a listing', async () => {
    const apiKey = await fundedKey();
    const bytes = pngBytes(100);
    const reservation = await reserve(apiKey, bytes.length);
    await storeAsR2Would(reservation.key, bytes);
    expect((await edit(apiKey, reservation.public_url)).status).toBe(200);
    expect(await listed(apiKey)).toEqual([expect.objectContaining({ key: reservation.key })]);
  });

  it.each([
    { what: 'another size', stored: pngBytes(99), type: 'image/png', says: 'is 99 bytes, not the 100 declared' },
    { what: 'another stored type', stored: pngBytes(100), type: 'text/html', says: 'is stored as text/html' },
    { what: 'a page under an image name', stored: new TextEncoder().encode('<html><script>fetch("/dashboard")</script>'.padEnd(100, ' ')), type: 'image/png', says: 'does not start as a image/png file does' },
  ])('deletes an object of $what, refuses it where used, and takes a good PUT after', async ({ stored, type, says }) => {
    const apiKey = await fundedKey();
    const reservation = await reserve(apiKey, 100);
    await storeAsR2Would(reservation.key, stored, type);
    const refused = await expectError(
      await request('/v1/images/jobs', apiKey, { model: 'openai/gpt-image-1-mini', prompt: 'p', quality: 'low', image_urls: [reservation.public_url] }),
      400,
      'invalid_request',
      'invalid_request_error',
      'image_urls',
    );
    expect(refused.error.message).toContain(says);
    expect(await env.MEDIA.head(reservation.key)).toBeNull();
    expect(await listed(apiKey)).toEqual([]);

    // The URL still works until it expires: the declared file PUT again is taken.
    await storeAsR2Would(reservation.key, pngBytes(100));
    expect(await listed(apiKey)).toEqual([expect.objectContaining({ key: reservation.key })]);
  });

  it('refuses a listed file the same URL replaced with a page since, and deletes it', async () => {
    const apiKey = await fundedKey();
    const reservation = await reserve(apiKey, 100);
    await storeAsR2Would(reservation.key, pngBytes(100));
    expect(await listed(apiKey)).toHaveLength(1);
    await storeAsR2Would(reservation.key, new TextEncoder().encode('<svg onload="alert(1)">'.padEnd(100, ' ')));
    await expectError(await edit(apiKey, reservation.public_url), 400, 'invalid_request', 'invalid_request_error', 'image_url');
    expect(await env.MEDIA.head(reservation.key)).toBeNull();
    expect(await listed(apiKey)).toEqual([]);
  });

  it('refuses a video whose first frame is an upload not PUT yet, before anything is held', async () => {
    const apiKey = await fundedKey();
    const reservation = await reserve(apiKey, 100);
    const res = await expectError(
      await request('/v1/videos/generations', apiKey, { model: 'openai/sora-2', prompt: 'the frame, moving', duration: 4, image_url: reservation.public_url }),
      400,
      'invalid_request',
      'invalid_request_error',
      'image_url',
    );
    expect(res.error.message).toContain('has not been uploaded yet');
  });

  it('refuses a link to an upload that is not hosted here', async () => {
    const apiKey = await fundedKey();
    const unknown = `${BASE}/files/uploads/${crypto.randomUUID()}/${'a'.repeat(32)}.png`;
    const res = await expectError(await edit(apiKey, unknown), 400, 'invalid_request', 'invalid_request_error', 'image_url');
    expect(res.error.message).toContain('is not hosted here');
  });
});

describe('an upload is stored once (issue 35, item 7)', () => {
  const file = (path: string, init: RequestInit = {}, vars?: Partial<Env>) => Promise.resolve(app.fetch(new Request(`${BASE}${path}`, init), gatewayEnv(vars), createExecutionContext()));
  const filePath = (reservation: Reservation) => new URL(reservation.public_url).pathname;

  it('serves only the version it first found under a presigned URL: a later PUT is deleted and nothing of the key is served again', async () => {
    const apiKey = await fundedKey();
    const reservation = await reserve(apiKey, 100);
    const first = pngBytes(100);
    await storeAsR2Would(reservation.key, first);
    // The first GET finds it, checks it and pins it.
    const served = await file(filePath(reservation));
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(first);

    // A second PUT of a file just as valid (another PNG of the same size) changes nothing the gateway serves.
    const second = pngBytes(100).fill(9, 8);
    await storeAsR2Would(reservation.key, second);
    await expectError(await file(filePath(reservation)), 404, 'not_found', 'invalid_request_error');
    expect(await env.MEDIA.head(reservation.key)).toBeNull();
    const refused = await expectError(await edit(apiKey, reservation.public_url), 400, 'invalid_request', 'invalid_request_error', 'image_url');
    expect(refused.error.message).toContain('is not hosted here');
    expect(await listed(apiKey)).toEqual([]);

    // Nor does a third while the URL still works.
    await storeAsR2Would(reservation.key, first);
    await expectError(await file(filePath(reservation)), 404, 'not_found', 'invalid_request_error');
    expect(await listed(apiKey)).toEqual([]);
  });

  it('refuses a second PUT to the presigned URL with 412 (it is signed for If-None-Match: *) and serves the first byte for byte', async () => {
    const apiKey = await fundedKey();
    const reservation = await reserve(apiKey, 100);
    const put = (bytes: Uint8Array, headers = reservation.upload_headers) => putToPresignedUrl(reservation.upload_url, headers, bytes, R2_VARS.R2_SECRET_ACCESS_KEY);
    const first = pngBytes(100);
    expect(await put(first)).toEqual({ status: 200 });
    const served = await file(filePath(reservation));
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(first);

    // Whoever holds the URL PUTs another PNG of the same size within the URL's life: R2 keeps the first.
    const second = pngBytes(100).fill(9, 8);
    expect(await put(second)).toEqual({ status: 412, code: 'PreconditionFailed' });
    // Leaving the header out breaks the signature; so does another condition in its place.
    const { 'If-None-Match': _, ...unconditional } = reservation.upload_headers;
    expect(await put(second, unconditional)).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(await put(second, { ...unconditional, 'If-None-Match': '"another-etag"' })).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });

    const still = await file(filePath(reservation));
    expect(still.status).toBe(200);
    expect(new Uint8Array(await still.arrayBuffer())).toEqual(first);
    expect((await edit(apiKey, reservation.public_url)).status).toBe(200);
    expect(await listed(apiKey)).toEqual([expect.objectContaining({ key: reservation.key, bytes: 100 })]);
  });

  it('refuses a replacement found when the upload is used as an input', async () => {
    const apiKey = await fundedKey();
    const reservation = await reserve(apiKey, 100);
    await storeAsR2Would(reservation.key, pngBytes(100));
    expect((await edit(apiKey, reservation.public_url)).status).toBe(200);
    await storeAsR2Would(reservation.key, pngBytes(100).fill(3, 8));
    const refused = await expectError(await edit(apiKey, reservation.public_url), 400, 'invalid_request', 'invalid_request_error', 'image_url');
    expect(refused.error.message).toContain('was replaced after it was stored');
    await expectError(await file(filePath(reservation)), 404, 'not_found', 'invalid_request_error');
  });

  it("answers with the reservation's type and the gateway's own headers, never what the client stored with the object", async () => {
    const apiKey = await fundedKey();
    const reservation = await reserve(apiKey, 100);
    await env.MEDIA.put(reservation.key, pngBytes(100), {
      httpMetadata: { contentType: 'image/png', contentEncoding: 'gzip', contentLanguage: 'xx', contentDisposition: 'inline; filename="a.html"', cacheControl: 'public, max-age=31536000' },
    });
    const res = await file(filePath(reservation));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('content-language')).toBeNull();
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-length')).toBe('100');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(pngBytes(100));
  });

  it("takes one PUT on the Worker's own upload URL and serves what it stored", async () => {
    const apiKey = await fundedKey();
    const local = {};
    const reservation = await reserve(apiKey, 100, local);
    const put = (bytes: Uint8Array) =>
      file(new URL(reservation.upload_url).pathname, { method: 'PUT', headers: { 'Content-Type': 'image/png', 'Content-Length': '100' }, body: bytes }, local);
    const first = pngBytes(100);
    expect((await put(first)).status).toBe(200);
    const refused = await expectError(await put(pngBytes(100).fill(5, 8)), 400, 'invalid_request', 'invalid_request_error');
    expect(refused.error.message).toContain('has been used');
    const served = await file(filePath(reservation), {}, local);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(first);
  });
});
