import { AwsV4Signer } from 'aws4fetch';
import { env } from 'cloudflare:workers';

/**
 * A presigned PUT as R2 meets it, inside workerd so the object lands in the `MEDIA` binding the
 * gateway serves from: the query signature is computed again from the headers the URL names in
 * `X-Amz-SignedHeaders` with the values the request carries (one left out counts as empty, so it
 * no longer matches: 403 `SignatureDoesNotMatch`), and `If-None-Match: *` is a conditional put,
 * refused with 412 `PreconditionFailed` while the key holds an object, as R2's S3 API does
 * (https://developers.cloudflare.com/r2/api/s3/conditional-operations/). The signature check
 * against AWS's own signer is test/upstreams/s3.ts's (test/node/uploads.test.ts).
 */
export async function putToPresignedUrl(presigned: string, headers: Record<string, string>, body: Uint8Array, secretAccessKey: string): Promise<{ status: number; code?: string }> {
  const url = new URL(presigned);
  const params = url.searchParams;
  const request = new Headers(headers);
  request.set('Content-Length', String(body.length));
  const signed: Record<string, string> = {};
  for (const name of (params.get('X-Amz-SignedHeaders') ?? '').split(';')) if (name !== 'host') signed[name] = request.get(name) ?? '';
  const unsigned = new URL(url);
  for (const name of [...unsigned.searchParams.keys()]) if (name !== 'X-Amz-Expires') unsigned.searchParams.delete(name);
  const again = await new AwsV4Signer({
    url: unsigned.toString(),
    method: 'PUT',
    headers: signed,
    accessKeyId: (params.get('X-Amz-Credential') ?? '').split('/')[0] ?? '',
    secretAccessKey,
    service: 's3',
    region: 'auto',
    signQuery: true,
    allHeaders: true,
    datetime: params.get('X-Amz-Date') ?? '',
  }).sign();
  if (again.url.searchParams.get('X-Amz-Signature') !== params.get('X-Amz-Signature')) return { status: 403, code: 'SignatureDoesNotMatch' };

  const key = decodeURIComponent(url.pathname).split('/').slice(2).join('/');
  const onlyIf = request.get('If-None-Match') === '*' ? new Headers({ 'If-None-Match': '*' }) : undefined;
  const stored = await env.MEDIA.put(key, body, { httpMetadata: { contentType: request.get('Content-Type') ?? undefined }, onlyIf });
  return stored ? { status: 200 } : { status: 412, code: 'PreconditionFailed' };
}
