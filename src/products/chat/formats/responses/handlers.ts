import type { RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { holdFailureError } from '../../../../accounts/failures';
import { UNSUPPORTED_HEADER } from '../../../../billing/headers';
import type { AppEnv } from '../../../../env';
import { GatewayError } from '../../../../errors';
import { serveChat } from '../../serve';
import { responsesFormat, type ResponsesFormat } from './index';
import { planResponses } from './plan';
import { ResponseObject, type createResponse, type deleteResponse, type getResponse, type listInputItems } from './routes';
import type { InputItemBody, ResponsesBody } from './schema';
import { deleteResponse as deleteStored, getResponse as getStored, MAX_STORED_BYTES, putResponse, storedBytes, type StoredResponse } from './store';

type Json = Record<string, unknown>;

const asItems = (input: ResponsesBody['input']): InputItemBody[] =>
  typeof input === 'string' ? [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }] : (input ?? []);

/** Input items with the ids `input_items` lists them by: the client's, else one made from the response's. */
function withIds(items: InputItemBody[], responseId: string): Json[] {
  const tail = responseId.replace(/^resp_/, '');
  const prefix: Record<string, string> = { message: 'msg', function_call: 'fc', function_call_output: 'fco', reasoning: 'rs' };
  return items.map((item, i) => {
    const type = item.type ?? 'message';
    return { id: typeof item.id === 'string' ? item.id : `${prefix[type] ?? 'item'}_${tail}_${i}`, ...item, type };
  });
}

/**
 * A stored history as OpenAI takes it back as input: without the ids the gateway made (OpenAI
 * knows none of a translated answer's, and needs none on messages and calls), and without
 * reasoning items that carry no encrypted content (only OpenAI's own store could resolve them).
 */
function forOpenAI(items: Json[]): Json[] {
  return items.flatMap((item) => {
    if (item.type === 'reasoning') return typeof item.encrypted_content === 'string' ? [item] : [];
    const { id: _, ...rest } = item;
    return [rest];
  });
}

/** One of the caller's stored responses: its own, or any of the account's for a key that is not a sub-key (D35); null otherwise. */
async function ownedResponse(c: Context<AppEnv>, id: string, fastPath: boolean): Promise<StoredResponse | null> {
  const caller = c.get('caller');
  const stored = await getStored(c.env.MEDIA, caller.accountId, id, Date.now());
  // A billed request authenticates its key with its hold; a read authenticates here.
  if (stored && fastPath && stored.keyHash === caller.keyHash) return stored;
  const auth = await caller.account.authenticate(caller.keyHash, 'chat');
  if (!auth.ok) throw holdFailureError(auth);
  if (!stored || (auth.subKey && stored.keyHash !== caller.keyHash)) return null;
  return stored;
}

const notFound = (id: string, param?: string) => new GatewayError('not_found', `No response found with id '${id}'.`, param ? { param } : {});

/**
 * `POST /v1/responses`: a follow-up (`previous_response_id`) gets the stored history before its
 * own input, on whatever model it names; the engine serves it (`serveChat`); with `store` (the
 * default), the answer is stored before its final event leaves, so the client never holds an id
 * the store lacks.
 */
export const createResponseHandler: RouteHandler<typeof createResponse, AppEnv> = async (c) => {
  const { body: client, native, leftOut } = planResponses(c.req.valid('json'), c.env);
  const store = client.store !== false;
  let history: Json[] = [];
  if (client.previous_response_id) {
    const prior = await ownedResponse(c, client.previous_response_id, true);
    if (!prior) throw notFound(client.previous_response_id, 'previous_response_id');
    history = [...prior.input, ...((prior.response.output as Json[] | undefined) ?? [])];
  }
  const { previous_response_id: _, ...rest } = client;
  const body: ResponsesBody = history.length ? { ...rest, input: [...(native ? forOpenAI(history) : history), ...asItems(client.input)] } : rest;
  const input = history.length ? [...history, ...asItems(client.input)] : asItems(client.input);
  if (store && storedBytes(input) > MAX_STORED_BYTES) {
    throw new GatewayError('invalid_request', `This conversation is over ${MAX_STORED_BYTES / 1024 / 1024} MiB, the most a stored response keeps; send store: false (and the whole input) to go on.`, {
      param: 'store',
    });
  }

  const format = responsesFormat(client, { native });
  const res = await serveChat(c, format, body);
  // No model runs a hosted tool (`web_search`, ...): they are left out and announced, so Codex, which always offers one, works on every model.
  if (leftOut || (!native && format.hostedTools().length)) {
    const listed = res.headers.get(UNSUPPORTED_HEADER);
    res.headers.set(UNSUPPORTED_HEADER, listed ? `${listed}, tools` : 'tools');
  }
  if (!store || res.status !== 200) return res;

  const caller = c.get('caller');
  const keep = async () => {
    const response = format.answered();
    if (!response) return;
    const stored: StoredResponse = { response, input: withIds(input, String(response.id)), keyHash: caller.keyHash, storedAt: Date.now() };
    // The answer stands without its copy: a failed write leaves a response that a follow-up cannot name (404), never a failed answer.
    await putResponse(c.env.MEDIA, caller.accountId, stored).catch((err: unknown) => console.error('storing a response failed', err));
  };
  if (client.stream !== true || !res.body) {
    await keep();
    return res;
  }
  return new Response(res.body.pipeThrough(keptBeforeEnd(format, keep)), res);
};

/** Passes a stream on, but waits for `keep` before whatever follows the answer's end (its final event). */
function keptBeforeEnd(format: ResponsesFormat, keep: () => Promise<void>): TransformStream<Uint8Array, Uint8Array> {
  let kept = false;
  return new TransformStream({
    async transform(chunk, controller) {
      if (!kept && format.answered()) {
        kept = true;
        await keep();
      }
      controller.enqueue(chunk);
    },
  });
}

export const getResponseHandler: RouteHandler<typeof getResponse, AppEnv> = async (c) => {
  const { id } = c.req.valid('param');
  const stored = await ownedResponse(c, id, false);
  if (!stored) throw notFound(id);
  return c.json(ResponseObject.parse(stored.response), 200);
};

export const deleteResponseHandler: RouteHandler<typeof deleteResponse, AppEnv> = async (c) => {
  const { id } = c.req.valid('param');
  const stored = await ownedResponse(c, id, false);
  if (!stored) throw notFound(id);
  await deleteStored(c.env.MEDIA, c.get('caller').accountId, id);
  return c.json({ id, object: 'response' as const, deleted: true as const }, 200);
};

export const listInputItemsHandler: RouteHandler<typeof listInputItems, AppEnv> = async (c) => {
  const { id } = c.req.valid('param');
  const { limit, order, after } = c.req.valid('query');
  const stored = await ownedResponse(c, id, false);
  if (!stored) throw notFound(id);
  const items = order === 'asc' ? stored.input : [...stored.input].reverse();
  const start = after === undefined ? 0 : items.findIndex((item) => item.id === after) + 1;
  if (after !== undefined && start === 0) throw new GatewayError('invalid_request', `No input item ${after} in response ${id}.`, { param: 'after' });
  const data = items.slice(start, start + limit) as (Json & { id: string })[];
  return c.json({ object: 'list' as const, data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: start + limit < items.length }, 200);
};
