import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presignPut } from '../../src/media/presign';
import { startOpenAIImagesUpstream, type ImagesUpstream } from '../upstreams/openai-images';
import { png } from '../upstreams/openai-images';
import { startS3, type S3StandIn } from '../upstreams/s3';
import { fundedAgent } from './agents';
import { startGateway, type RunningGateway } from './gateway-process';

/**
 * `POST /v1/uploads`, the one PUT to its `upload_url`, `GET /v1/uploads`, and an upload used as
 * an image reference: the gateway under `npm start` with `.dev.vars`. Then the same with R2's S3
 * credentials set: the `upload_url` is a presigned PUT that a local S3 stand-in checks with AWS's
 * own signer (`test/upstreams/s3.ts`).
 */

const ADMIN = 'uploads-admin-token-0123456789';
const IMAGE_KEY = 'sk-uploads-images';
const MB = 1024 * 1024;
let images: ImagesUpstream;
let gateway: RunningGateway;

beforeAll(async () => {
  images = await startOpenAIImagesUpstream(IMAGE_KEY);
  gateway = await startGateway({ ADMIN_TOKEN: ADMIN, OPENAI_API_KEY: IMAGE_KEY, OPENAI_BASE_URL: `${images.url}/v1` });
});
afterAll(async () => {
  await gateway?.stop();
  await images?.stop();
});

const agent = (usd: string) => fundedAgent(gateway.url, ADMIN, usd);

interface Reservation {
  upload_url: string;
  upload_headers: Record<string, string>;
  public_url: string;
  key: string;
  expires_in: number;
  note: string;
}

async function reserve(apiKey: string, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${gateway.url}/v1/uploads`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: JSON.stringify(body) });
}

const put = (url: string, bytes: Uint8Array, type: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'PUT', headers: { ...headers, 'Content-Type': type }, body: bytes as Uint8Array<ArrayBuffer> });
/** What a presigned PUT carries as `upload_headers` tells it: its URL is signed for `If-None-Match: *`. */
const ONCE = { 'If-None-Match': '*' };

describe('uploads', () => {
  it('takes exactly one PUT of the declared bytes and type, hosts them, lists them, and serves them as an image reference', async () => {
    const { apiKey } = await agent('1');
    const bytes = png(64, 48, 'an uploaded reference');
    const res = await reserve(apiKey, { content_type: 'image/png', content_length: bytes.length });
    expect(res.status).toBe(200);
    const reservation = (await res.json()) as Reservation;
    expect(reservation).toMatchObject({ expires_in: 600, key: expect.stringMatching(/^uploads\//), public_url: `${gateway.url}/files/${reservation.key}` });
    expect(reservation.upload_url).toMatch(new RegExp(`^${gateway.url}/uploads/[A-Za-z0-9]{40}$`));

    // A wrong type, a wrong length or a tampered token stores nothing and leaves the URL usable.
    expect((await put(reservation.upload_url, bytes, 'image/jpeg')).status).toBe(400);
    expect((await put(reservation.upload_url, bytes.subarray(1), 'image/png')).status).toBe(400);
    const tampered = reservation.upload_url.slice(0, -1) + (reservation.upload_url.endsWith('a') ? 'b' : 'a');
    expect((await put(tampered, bytes, 'image/png')).status).toBe(404);
    expect((await fetch(reservation.public_url)).status).toBe(404);
    // A page under an image's name would run on our origin: bytes that do not start as a PNG are refused.
    const page = new TextEncoder().encode('<html><script>fetch("/dashboard")</script>'.padEnd(bytes.length, ' '));
    const disguised = await put(reservation.upload_url, page, 'image/png');
    expect(disguised.status).toBe(400);
    expect(((await disguised.json()) as { error: { param: string } }).error.param).toBe('body');
    expect((await fetch(reservation.public_url)).status).toBe(404);

    expect(reservation.upload_headers).toEqual({ 'Content-Type': 'image/png' });
    const stored = await put(reservation.upload_url, bytes, 'image/png', reservation.upload_headers);
    expect(stored.status).toBe(200);
    // A second PUT, even of a file just as valid and as long, is refused: the first is what is served.
    const replacement = Buffer.from(bytes).fill(0, bytes.length - 16);
    expect((await put(reservation.upload_url, replacement, 'image/png', reservation.upload_headers)).status).toBe(400);
    const served = await fetch(reservation.public_url);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);

    const listed = (await (await fetch(`${gateway.url}/v1/uploads`, { headers: { Authorization: `Bearer ${apiKey}` } })).json()) as { data: { key: string; bytes: number; url: string }[] };
    expect(listed.data).toEqual([expect.objectContaining({ key: reservation.key, bytes: bytes.length, url: reservation.public_url })]);

    const edit = await fetch(`${gateway.url}/v1/images/generations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ model: 'openai/gpt-image-1-mini', prompt: 'this, in watercolour', quality: 'low', image_url: reservation.public_url }),
    });
    expect(edit.status).toBe(200);
    expect(images.requests.at(-1)!.files).toEqual([{ field: 'image[]', type: 'image/png', size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }]);
  });

  it('streams a 100 MB video into storage', { timeout: 120_000 }, async () => {
    const { apiKey } = await agent('1');
    const bytes = new Uint8Array(100 * MB);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i & 0xff;
    bytes.set([0, 0, 0, 24, ...new TextEncoder().encode('ftypisom')]); // an MP4 starts with its ftyp box
    const reservation = (await (await reserve(apiKey, { content_type: 'video/mp4', content_length: bytes.length })).json()) as Reservation;
    const stored = await put(reservation.upload_url, bytes, 'video/mp4');
    expect(stored.status).toBe(200);
    const tail = await fetch(reservation.public_url, { headers: { Range: 'bytes=-4096' } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes ${bytes.length - 4096}-${bytes.length - 1}/${bytes.length}`);
    expect(Buffer.from(await tail.arrayBuffer()).equals(Buffer.from(bytes.subarray(bytes.length - 4096)))).toBe(true);
  });

  it('refuses a type it does not take, a file over its cap and an account without balance', async () => {
    const { apiKey } = await agent('1');
    const param = async (res: Response) => ((await res.json()) as { error: { param: string } }).error.param;
    const badType = await reserve(apiKey, { content_type: 'application/zip', content_length: 10 });
    expect(badType.status).toBe(400);
    expect(await param(badType)).toBe('content_type');
    const tooBig = await reserve(apiKey, { content_type: 'image/png', content_length: 20 * MB + 1 });
    expect(tooBig.status).toBe(400);
    expect(await param(tooBig)).toBe('content_length');
    const broke = await agent('0');
    expect((await reserve(broke.apiKey, { content_type: 'image/png', content_length: 10 })).status).toBe(402);
  });

  it('answers 429 naming the daily allowance once it is spent, with Retry-After', async () => {
    const { apiKey } = await agent('1'); // 500 MB + 100 MB for one dollar
    for (let i = 0; i < 6; i++) expect((await reserve(apiKey, { content_type: 'video/mp4', content_length: 100 * MB })).status).toBe(200);
    const refused = await reserve(apiKey, { content_type: 'video/mp4', content_length: 100 * MB });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error).toMatchObject({ code: 'upload_allowance_exceeded', message: expect.stringContaining('600 MB') });
  });

  it('pages the list with a cursor and shows another account nothing', async () => {
    const { apiKey } = await agent('1');
    const keys: string[] = [];
    for (let i = 0; i < 3; i++) {
      const bytes = png(8, 8, `file ${i}`);
      const reservation = (await (await reserve(apiKey, { content_type: 'image/png', content_length: bytes.length })).json()) as Reservation;
      expect((await put(reservation.upload_url, bytes, 'image/png')).status).toBe(200);
      keys.unshift(reservation.key);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (await (await fetch(`${gateway.url}/v1/uploads?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { headers: { Authorization: `Bearer ${apiKey}` } })).json()) as {
        data: { key: string }[];
        next_cursor: string | null;
      };
      seen.push(...page.data.map((row) => row.key));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(keys);
    const other = await agent('0');
    expect(await (await fetch(`${gateway.url}/v1/uploads`, { headers: { Authorization: `Bearer ${other.apiKey}` } })).json()).toEqual({ data: [], next_cursor: null });
  });
});

describe('presigned uploads', () => {
  const credentials = { accessKeyId: 'AKIDPRESIGNTEST', secretAccessKey: 'presign-secret-0123456789' };
  let s3: S3StandIn;
  let presigning: RunningGateway;

  beforeAll(async () => {
    s3 = await startS3(credentials);
    presigning = await startGateway({
      ADMIN_TOKEN: ADMIN,
      R2_ACCOUNT_ID: '0123456789abcdef0123456789abcdef',
      R2_ACCESS_KEY_ID: credentials.accessKeyId,
      R2_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      R2_S3_ENDPOINT: s3.url,
    });
  });
  afterAll(async () => {
    await presigning?.stop();
    await s3?.stop();
  });

  const reservePresigned = async (apiKey: string, type: string, bytes: number): Promise<Reservation> => {
    const res = await fetch(`${presigning.url}/v1/uploads`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: JSON.stringify({ content_type: type, content_length: bytes }) });
    expect(res.status).toBe(200);
    return (await res.json()) as Reservation;
  };
  const s3Error = async (res: Response) => /<Code>([A-Za-z]+)<\/Code>/.exec(await res.text())?.[1];

  it('answers an upload_url on R2 that takes the declared bytes and type, and refuses another length or type', async () => {
    const { apiKey } = await fundedAgent(presigning.url, ADMIN, '1');
    const bytes = png(32, 32, 'straight to R2');
    const reservation = await reservePresigned(apiKey, 'image/png', bytes.length);
    expect(reservation.upload_url.startsWith(`${s3.url}/ai-gateway-media/${reservation.key}?`)).toBe(true);
    expect(reservation.public_url).toBe(`${presigning.url}/files/${reservation.key}`);
    expect(reservation.upload_headers).toEqual({ 'Content-Type': 'image/png', 'If-None-Match': '*' });

    const longer = new Uint8Array(bytes.length + 1);
    longer.set(bytes);
    const wrongLength = await put(reservation.upload_url, longer, 'image/png', ONCE);
    expect(wrongLength.status).toBe(403);
    expect(await s3Error(wrongLength)).toBe('SignatureDoesNotMatch');
    const wrongType = await put(reservation.upload_url, bytes, 'image/jpeg', ONCE);
    expect(wrongType.status).toBe(403);
    expect(await s3Error(wrongType)).toBe('SignatureDoesNotMatch');
    const otherKey = reservation.upload_url.replace(reservation.key, `${reservation.key.slice(0, -4)}x.png`);
    expect(await s3Error(await put(otherKey, bytes, 'image/png', ONCE))).toBe('SignatureDoesNotMatch');
    expect(s3.objects.has(`ai-gateway-media/${reservation.key}`)).toBe(false);

    const stored = await put(reservation.upload_url, bytes, 'image/png', reservation.upload_headers);
    expect(stored.status).toBe(200);
    const object = s3.objects.get(`ai-gateway-media/${reservation.key}`);
    expect(object?.contentType).toBe('image/png');
    expect(object?.bytes.equals(bytes)).toBe(true);
  });

  it('refuses a second PUT to the presigned URL with 412 and keeps the first file byte for byte (issue 35, item 7)', async () => {
    const { apiKey } = await fundedAgent(presigning.url, ADMIN, '1');
    const first = png(32, 32, 'the checked upload');
    const reservation = await reservePresigned(apiKey, 'image/png', first.length);
    expect((await put(reservation.upload_url, first, 'image/png', reservation.upload_headers)).status).toBe(200);

    // Whoever holds the URL tries to replace it with another valid PNG of the same size, within the URL's life.
    const second = Buffer.from(first);
    second.fill(0, second.length - 16);
    const again = await put(reservation.upload_url, second, 'image/png', reservation.upload_headers);
    expect(again.status).toBe(412);
    expect(await s3Error(again)).toBe('PreconditionFailed');
    // Leaving the condition out breaks the signature instead.
    const unconditional = await put(reservation.upload_url, second, 'image/png');
    expect(unconditional.status).toBe(403);
    expect(await s3Error(unconditional)).toBe('SignatureDoesNotMatch');
    const served = await fetch(`${s3.url}/ai-gateway-media/${reservation.key}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(first)).toBe(true);
  });

  it('refuses a presigned PUT without the If-None-Match header it was signed for (403), storing nothing', async () => {
    const { apiKey } = await fundedAgent(presigning.url, ADMIN, '1');
    const bytes = png(32, 32, 'no precondition');
    const reservation = await reservePresigned(apiKey, 'image/png', bytes.length);
    expect(new URL(reservation.upload_url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host;if-none-match');
    const unconditional = await put(reservation.upload_url, bytes, 'image/png');
    expect(unconditional.status).toBe(403);
    expect(await s3Error(unconditional)).toBe('SignatureDoesNotMatch');
    expect(s3.objects.has(`ai-gateway-media/${reservation.key}`)).toBe(false);
    // Nor does another value pass for the signed `*`.
    const otherValue = await put(reservation.upload_url, bytes, 'image/png', { 'If-None-Match': '"some-etag"' });
    expect(await s3Error(otherValue)).toBe('SignatureDoesNotMatch');
    expect(s3.objects.has(`ai-gateway-media/${reservation.key}`)).toBe(false);
  });

  it('refuses a presigned URL past its 600 seconds, and one signed with another secret', async () => {
    const config = { endpoint: s3.url, bucket: 'ai-gateway-media', ...credentials };
    const put10 = { key: 'uploads/00000000-0000-0000-0000-000000000000/expiry.png', contentType: 'image/png', bytes: 10, expiresInSeconds: 600 };
    const body = new Uint8Array(10);
    const fresh = await presignPut(config, put10, Date.now() - 590_000);
    expect((await put(fresh, body, 'image/png', ONCE)).status).toBe(200);
    const expired = await put(await presignPut(config, put10, Date.now() - 601_000), body, 'image/png', ONCE);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('<Code>AccessDenied</Code><Message>Request has expired</Message>');
    const forged = await put(await presignPut({ ...config, secretAccessKey: 'not-the-secret' }, put10), body, 'image/png', ONCE);
    expect(await s3Error(forged)).toBe('SignatureDoesNotMatch');
  });
});
