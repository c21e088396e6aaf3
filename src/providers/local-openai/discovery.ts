import { z } from '@hono/zod-openapi';
import { providerBaseUrl, providerKey } from '../registry';

/**
 * What a local OpenAI-compatible server says it serves: `GET {base}/models`, answered as
 * `{"object": "list", "data": [{"id", "object": "model", "created", "owned_by"}]}` by Ollama
 * (`owned_by: "library"`) and llama.cpp, with `max_model_len` on each model by vLLM.
 */

/** How long the model list may take: a local server answers at once or not at all. */
export const DISCOVERY_TIMEOUT_MS = 5_000;

const ModelList = z.object({
  data: z.array(
    z.object({
      id: z.string().min(1).max(256),
      created: z.number().optional(),
      owned_by: z.string().optional(),
      max_model_len: z.int().positive().optional(),
    }),
  ),
});

export type ServedModel = z.output<typeof ModelList>['data'][number];

/** The server's models; throws with a message naming the URL when it cannot be asked or read. */
export async function listServedModels(env: Env): Promise<ServedModel[]> {
  const url = `${providerBaseUrl(env, 'local_openai')}/models`;
  const key = providerKey(env, 'local_openai');
  let response: Response;
  try {
    response = await fetch(url, { headers: key ? { Authorization: `Bearer ${key}` } : {}, signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) });
  } catch (err) {
    throw new Error(`GET ${url} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  const parsed = ModelList.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new Error(`GET ${url} answered no model list ({"data": [{"id": ...}]})`);
  return parsed.data.data;
}
