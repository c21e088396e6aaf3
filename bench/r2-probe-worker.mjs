// The media row's baseline (bench/media.mjs): the least a Worker does to stream a body into R2,
// the core of the gateway's upload PUT and video copy. `PUT /put?bytes=N` pipes the request body,
// `POST /copy?url=U` the body of `GET U`, through a FixedLengthStream of that length into BUCKET.put.
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
