// The memory floor of a Worker on this runtime (bench/run.mjs): reads the request and answers a
// constant completion, with no upstream and no state. What workerd itself keeps under load shows
// in its peak RSS, beside the pass-through's and the gateway's.
const ANSWER = JSON.stringify({
  id: 'chatcmpl-constant',
  object: 'chat.completion',
  created: 0,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello!' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
});

export default {
  async fetch(request) {
    await request.arrayBuffer();
    return new Response(ANSWER, { headers: { 'Content-Type': 'application/json' } });
  },
};
