// The media row's baseline (bench/media.mjs): the least a Worker does to stream a body into R2,
// the core of the gateway's upload PUT and video copy. `PUT /put?bytes=N` pipes the request body,
// `POST /copy?url=U` the body of `GET U`, through a FixedLengthStream of that length into BUCKET.put.
// `PUT /roundtrip?bytes=N&url=U` is the transcription's R2 round trip: the PUT's, then the object read
// back and piped (natively, inside a multipart body of known length) to `POST U` as the file.
export default {
  async fetch(request, env) {
    const { pathname, searchParams } = new URL(request.url);
    let body;
    let bytes;
    if (request.method === 'PUT' && pathname === '/put') {
      body = request.body;
      bytes = Number(searchParams.get('bytes'));
    } else if (request.method === 'POST' && pathname === '/copy') {
      const upstream = await fetch(searchParams.get('url'), { headers: { Authorization: `Bearer ${env.OPENAI_API_KEY}` } });
      if (!upstream.ok) return new Response(`upstream answered ${upstream.status}`, { status: 502 });
      body = upstream.body;
      bytes = Number(upstream.headers.get('Content-Length'));
    } else if (request.method === 'PUT' && pathname === '/roundtrip') {
      return roundTrip(request, env, Number(searchParams.get('bytes')), searchParams.get('url'));
    } else {
      return new Response('not found', { status: 404 });
    }
    const sized = new FixedLengthStream(bytes);
    const piped = body.pipeTo(sized.writable);
    const object = await env.BUCKET.put(`probe/${crypto.randomUUID()}`, sized.readable);
    await piped;
    return Response.json({ key: object.key, size: object.size });
  },
};

async function roundTrip(request, env, bytes, url) {
  const sized = new FixedLengthStream(bytes);
  const piped = request.body.pipeTo(sized.writable);
  const { key } = await env.BUCKET.put(`probe/${crypto.randomUUID()}`, sized.readable);
  await piped;
  const object = await env.BUCKET.get(key);
  const boundary = 'probe-boundary';
  const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`);
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
  const body = new FixedLengthStream(head.length + object.size + tail.length);
  const writing = (async () => {
    let writer = body.writable.getWriter();
    await writer.write(head);
    writer.releaseLock();
    await object.body.pipeTo(body.writable, { preventClose: true });
    writer = body.writable.getWriter();
    await writer.write(tail);
    await writer.close();
  })();
  const headers = { Authorization: `Bearer ${env.OPENAI_API_KEY}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` };
  const answer = await fetch(url, { method: 'POST', headers, body: body.readable });
  await writing;
  const { text } = await answer.json();
  await env.BUCKET.delete(key);
  return Response.json({ key, size: object.size, upstream: answer.status, text });
}
