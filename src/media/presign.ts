import { AwsV4Signer } from 'aws4fetch';

/** The bucket of `wrangler.toml`'s `MEDIA` binding, unless `R2_BUCKET_NAME` names another. */
export const DEFAULT_R2_BUCKET = 'ai-gateway-media';

/** What presigning needs: R2's S3 endpoint, the bucket, and an R2 API token's S3 credentials. */
export interface R2S3Config {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** The configuration names presigning reads (all optional strings of `Env`; `.dev.vars.example`). */
export type R2Settings = Partial<Record<'R2_ACCOUNT_ID' | 'R2_ACCESS_KEY_ID' | 'R2_SECRET_ACCESS_KEY' | 'R2_S3_ENDPOINT' | 'R2_BUCKET_NAME', string>>;

/**
 * The S3 configuration when `R2_ACCOUNT_ID`, `R2_ACCESS_KEY_ID` and `R2_SECRET_ACCESS_KEY` are
 * all set; otherwise null, and uploads go through the Worker's own `PUT /uploads/<token>`.
 */
export function r2S3Config(env: R2Settings): R2S3Config | null {
  const { R2_ACCOUNT_ID: accountId, R2_ACCESS_KEY_ID: accessKeyId, R2_SECRET_ACCESS_KEY: secretAccessKey } = env;
  if (!accountId || !accessKeyId || !secretAccessKey) return null;
  const endpoint = (env.R2_S3_ENDPOINT || `https://${accountId}.r2.cloudflarestorage.com`).replace(/\/+$/, '');
  return { endpoint, bucket: env.R2_BUCKET_NAME || DEFAULT_R2_BUCKET, accessKeyId, secretAccessKey };
}

/** What a presigned PUT is bound to: the object's key, its exact type and size, and how long it works. */
export interface PresignedPut {
  key: string;
  contentType: string;
  bytes: number;
  expiresInSeconds: number;
}

/**
 * The headers a client sends with the presigned PUT besides `Content-Length` (which fetch sets):
 * all are signed, so a PUT without one of them fails R2's signature check (403). `If-None-Match: *`
 * makes R2 refuse any PUT while the key holds an object (412 PreconditionFailed): R2's S3 API
 * accepts it on PutObject (https://developers.cloudflare.com/r2/api/s3/conditional-operations/),
 * so whoever holds the URL cannot replace a stored upload.
 */
export function presignedPutHeaders(contentType: string): { 'Content-Type': string; 'If-None-Match': '*' } {
  return { 'Content-Type': contentType, 'If-None-Match': '*' };
}

/**
 * An S3 SigV4 query-signed PUT URL (region `auto`, service `s3`, as R2 wants) for one object,
 * with `Content-Type`, `Content-Length` and `If-None-Match: *` among the signed headers: a PUT
 * with another type or another length fails R2's signature check, so R2 stores exactly what
 * `POST /v1/uploads` declared, once, and the bytes never pass the Worker. aws4fetch leaves the
 * first two unsigned unless told `allHeaders`, so the signer gets exactly these three (and
 * `host`) and nothing else. `now` is for tests (an expired URL without waiting).
 */
export async function presignPut(config: R2S3Config, put: PresignedPut, now = Date.now()): Promise<string> {
  const path = [config.bucket, ...put.key.split('/')].map(encodeURIComponent).join('/');
  const url = new URL(`${config.endpoint}/${path}`);
  url.searchParams.set('X-Amz-Expires', String(put.expiresInSeconds));
  const signer = new AwsV4Signer({
    url: url.toString(),
    method: 'PUT',
    headers: { ...presignedPutHeaders(put.contentType), 'Content-Length': String(put.bytes) },
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    service: 's3',
    region: 'auto',
    signQuery: true,
    allHeaders: true,
    datetime: amzDate(now),
  });
  const signed = await signer.sign();
  return signed.url.toString();
}

/** SigV4's `YYYYMMDDTHHMMSSZ`. */
function amzDate(now: number): string {
  return new Date(now).toISOString().replace(/[:-]|\.\d{3}/g, '');
}
