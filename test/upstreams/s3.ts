/**
 * A local stand-in for R2's S3 API, as far as a presigned upload needs it: `PUT /<bucket>/<key>`
 * with a SigV4 query signature (`X-Amz-Algorithm`, `X-Amz-Credential`, `X-Amz-Date`,
 * `X-Amz-Expires`, `X-Amz-SignedHeaders`, `X-Amz-Signature`; payload `UNSIGNED-PAYLOAD`), checked
 * the way S3 does with AWS's own signer (`@smithy/signature-v4`): the request is signed again
 * from the headers it names in `X-Amz-SignedHeaders`, with the values it carries, and the two
 * signatures must be equal. Refusals are S3's XML errors: 403 `SignatureDoesNotMatch` (another
 * `Content-Type` or `Content-Length` than the URL was signed for, a changed key or query),
 * 403 `AccessDenied` "Request has expired" past `X-Amz-Date + X-Amz-Expires`, 403
 * `InvalidAccessKeyId` (a header the URL signed, such as `If-None-Match`, left out is another value,
 * so `SignatureDoesNotMatch`). `If-None-Match: *` is honoured as R2 and S3 do on PutObject: while
 * the key holds an object the PUT is refused with 412 `PreconditionFailed` and nothing changes.
 * An accepted PUT is stored in memory (`objects`) and answered 200 with its ETag;
 * `GET /<bucket>/<key>` (unsigned, for the tests) reads it back.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';

export interface S3Object {
  bytes: Buffer;
  contentType: string | undefined;
}

export interface S3Refusal {
  status: number;
  code: string;
  message: string;
}

export interface S3StandIn {
  /** `http://127.0.0.1:<port>`: what `R2_S3_ENDPOINT` is set to. */
  url: string;
  /** Stored objects by `<bucket>/<key>`. */
  objects: Map<string, S3Object>;
  /** Every refusal, in order. */
  refusals: S3Refusal[];
  stop: () => Promise<void>;
}

export async function startS3(credentials: { accessKeyId: string; secretAccessKey: string }): Promise<S3StandIn> {
  const objects = new Map<string, S3Object>();
  const refusals: S3Refusal[] = [];
  const signer = new SignatureV4({ credentials, region: 'auto', service: 's3', sha256: Hash.bind(null, 'sha256'), uriEscapePath: false });

  const refuse = (res: ServerResponse, refusal: S3Refusal) => {
    refusals.push(refusal);
    sendError(res, refusal);
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://s3.local');
    const objectName = decodeURIComponent(url.pathname.slice(1));
    if (req.method === 'GET') {
      const object = objects.get(objectName);
      if (!object) return sendError(res, { status: 404, code: 'NoSuchKey', message: 'The specified key does not exist.' });
      res.writeHead(200, { 'Content-Type': object.contentType ?? 'application/octet-stream', 'Content-Length': object.bytes.length });
      return res.end(object.bytes);
    }
    if (req.method !== 'PUT') return sendError(res, { status: 405, code: 'MethodNotAllowed', message: 'The specified method is not allowed against this resource.' });
    const refusal = await verify(req, url, signer, credentials.accessKeyId);
    if (refusal) {
      req.resume();
      return refuse(res, refusal);
    }
    if (existsAgainst(req, objects.has(objectName))) {
      req.resume();
      return refuse(res, PRECONDITION_FAILED);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    if (bytes.length !== Number(req.headers['content-length'])) {
      return sendError(res, { status: 400, code: 'IncompleteBody', message: 'You did not provide the number of bytes specified by the Content-Length HTTP header.' });
    }
    // Checked again at commit: of two conditional PUTs racing, one wins and the other is a 412.
    if (existsAgainst(req, objects.has(objectName))) return refuse(res, PRECONDITION_FAILED);
    objects.set(objectName, { bytes, contentType: req.headers['content-type'] });
    res.writeHead(200, { ETag: `"${createHash('md5').update(bytes).digest('hex')}"` });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    refusals,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const PRECONDITION_FAILED: S3Refusal = { status: 412, code: 'PreconditionFailed', message: 'At least one of the pre-conditions you specified did not hold' };

/** `If-None-Match: *` on a key that holds an object (the only form of the header PutObject takes). */
function existsAgainst(req: IncomingMessage, exists: boolean): boolean {
  return exists && req.headers['if-none-match']?.trim() === '*';
}

const QUERY_AUTH = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Signature'] as const;

/** S3's check of a query-signed request: the refusal, or null when the signature is good and current. */
async function verify(req: IncomingMessage, url: URL, signer: SignatureV4, accessKeyId: string): Promise<S3Refusal | null> {
  const params = url.searchParams;
  if (QUERY_AUTH.some((name) => !params.get(name))) return { status: 403, code: 'AccessDenied', message: 'Query-string authentication requires the X-Amz-* signature parameters.' };
  const [keyId, day, region, service, terminal] = params.get('X-Amz-Credential')!.split('/');
  if (keyId !== accessKeyId) return { status: 403, code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' };
  const signedAt = parseAmzDate(params.get('X-Amz-Date')!);
  const expires = Number(params.get('X-Amz-Expires'));
  if (signedAt === null || !Number.isInteger(expires) || expires < 1 || expires > 604_800 || day !== params.get('X-Amz-Date')!.slice(0, 8) || region !== 'auto' || service !== 's3' || terminal !== 'aws4_request') {
    return { status: 400, code: 'AuthorizationQueryParametersError', message: 'The X-Amz-Credential, X-Amz-Date or X-Amz-Expires parameter is malformed.' };
  }
  if (Date.now() > signedAt.getTime() + expires * 1000) return { status: 403, code: 'AccessDenied', message: 'Request has expired' };

  // Sign the same request again: the headers it says it signed, with the values it carries.
  const headers: Record<string, string> = {};
  for (const name of params.get('X-Amz-SignedHeaders')!.split(';')) {
    const value = req.headers[name];
    headers[name] = Array.isArray(value) ? value.join(',') : (value ?? '');
  }
  const query: Record<string, string> = {};
  for (const [name, value] of params) if (name !== 'X-Amz-Signature') query[name] = value;
  const [hostname, port] = (req.headers.host ?? '').split(':');
  const expected = await signer.presign(
    // The body is a stream, so the payload hash is UNSIGNED-PAYLOAD, as for any presigned PUT.
    { method: req.method ?? 'PUT', protocol: 'http:', hostname: hostname ?? '', port: port ? Number(port) : undefined, path: url.pathname, query, headers, body: req },
    { signingDate: signedAt, expiresIn: expires, signableHeaders: new Set(Object.keys(headers)) },
  );
  if (expected.query?.['X-Amz-Signature'] !== params.get('X-Amz-Signature')) {
    return { status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided. Check your key and signing method.' };
  }
  return null;
}

/** `20261126T174500Z` → a Date, or null. */
function parseAmzDate(value: string): Date | null {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s));
}

function sendError(res: ServerResponse, refusal: S3Refusal): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code><Message>${refusal.message}</Message></Error>`;
  res.writeHead(refusal.status, { 'Content-Type': 'application/xml' });
  res.end(body);
}
