// The baseline: the least a Worker can do in front of the upstream. Forwards the body to the
// upstream at the request's own path (/v1/chat/completions, /v1/images/generations: the paths
// the gateway calls) and streams the answer back as it arrives.
export default {
  async fetch(request, env) {
    const upstream = await fetch(`${env.UPSTREAM_BASE_URL}${new URL(request.url).pathname}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${env.OPENAI_API_KEY}` },
      body: request.body,
    });
    return new Response(upstream.body, {
      status: upstream.status,
      headers: { 'Content-Type': upstream.headers.get('Content-Type') ?? 'application/json' },
    });
  },
};
