/**
 * A local stand-in for Google's Gemini API (`generativelanguage.googleapis.com`), for end-to-end
 * tests. It serves `POST /v1beta/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse` for any model, checks `x-goog-api-key`, and answers by the
 * shared scenarios. Like Gemini 3 it refuses a request whose function-calling step comes back
 * without the thought signature it issued, or without Google's documented placeholder for a call
 * Gemini did not make (https://ai.google.dev/gemini-api/docs/thought-signatures).
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
  DIE_AFTER_WORDS,
  HELLO_WORDS,
  promptTokensOf,
  reportedUsage,
  scenarioOf,
  SLOW_CHUNK_MS,
  SLOW_WORDS,
  TOOL_ARGUMENTS,
} from './scenarios';
import { sendJson, sleep, startSse, startUpstream, type Upstream } from './server';

/** The key the simulator accepts unless `startGeminiUpstream` is given another. */
export const GEMINI_SIMULATOR_API_KEY = 'gemini-simulator-key';

interface Part {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { name?: string; args?: unknown };
  functionResponse?: { name?: string; response?: unknown };
  inlineData?: { mimeType?: string; data?: string };
}
interface Content {
  role?: string;
  parts?: Part[];
}
interface RequestBody {
  contents?: Content[];
  tools?: { functionDeclarations?: { name?: string }[]; function_declarations?: { name?: string }[] }[];
}

const ROUTE = /^\/v1beta\/models\/([^/:?]+):(generateContent|streamGenerateContent)(?:\?(.*))?$/;

function googleError(res: ServerResponse, code: number, status: string, message: string, details?: unknown[]): void {
  sendJson(res, code, { error: { code, message, status, ...(details ? { details } : {}) } });
}

export async function startGeminiUpstream(apiKey: string = GEMINI_SIMULATOR_API_KEY): Promise<Upstream> {
  const issued = new Set<string>();

  /** A fresh signature in Google's standard base64; its first bytes make `+` and `/` appear. */
  const issueSignature = (): string => {
    const signature = Buffer.concat([Buffer.from([0xfb, 0xef, 0xff]), randomBytes(61)]).toString('base64');
    issued.add(signature);
    return signature;
  };

  return startUpstream(async (request, res) => {
    const route = ROUTE.exec(request.path);
    if (request.method !== 'POST' || !route) {
      googleError(res, 404, 'NOT_FOUND', `Method not found: ${request.method} ${request.path}`);
      return;
    }
    const key = request.headers['x-goog-api-key'];
    if (!key) {
      googleError(
        res,
        403,
        'PERMISSION_DENIED',
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
      );
      return;
    }
    if (key !== apiKey) {
      // Google answers a wrong key with 400, not 401.
      googleError(res, 400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } },
      ]);
      return;
    }

    const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as RequestBody;
    const invalid = validate(body, issued);
    if (invalid) {
      googleError(res, 400, 'INVALID_ARGUMENT', invalid);
      return;
    }

    const stream = route[2] === 'streamGenerateContent';
    const sse = new URLSearchParams(route[3] ?? '').get('alt') === 'sse';
    await answer({ res, body, model: route[1] ?? '', stream, sse, issueSignature });
  });
}

/** Google's 400 message for what the real API would refuse, or undefined when the body is acceptable. */
function validate(body: RequestBody, issued: Set<string>): string | undefined {
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0) return '* GenerateContentRequest.contents: contents is not specified\n';
  for (const [i, content] of contents.entries()) {
    if (content.role !== 'user' && content.role !== 'model') return `Please use a valid role: user, model. (contents[${i}].role = ${String(content.role)})`;
    if (!Array.isArray(content.parts) || content.parts.length === 0) return `* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.\n`;
  }

  // Each function-call step must be answered by as many function responses, in the next content.
  for (const [i, content] of contents.entries()) {
    const calls = content.parts!.filter((part) => part.functionCall).length;
    if (content.role !== 'model' || calls === 0) continue;
    const responses = contents[i + 1]?.parts?.filter((part) => part.functionResponse).length ?? 0;
    if (contents[i + 1] && responses !== calls) {
      return 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
    }
  }

  // Gemini 3's rule: in the current turn (after the last user content with text), the first
  // functionCall part of every model step carries its signature.
  // (Without findLastIndex: the workers' tsconfig targets ES2022, and global-setup loads this file too.)
  const turnStart = contents.map((content) => content.role === 'user' && content.parts!.some((part) => typeof part.text === 'string')).lastIndexOf(true);
  for (const [i, content] of contents.entries()) {
    if (i <= turnStart || content.role !== 'model') continue;
    const position = content.parts!.findIndex((part) => part.functionCall);
    if (position < 0) continue;
    const first = content.parts![position]!;
    if (!first.thoughtSignature) {
      return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${first.functionCall?.name}\` , position ${position + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
    }
    if (!issued.has(first.thoughtSignature) && !PLACEHOLDER_SIGNATURES.has(first.thoughtSignature)) return 'Corrupted thought signature.';
  }
  return undefined;
}

/** Google's documented stand-ins for the signature of a function call Gemini did not make. */
const PLACEHOLDER_SIGNATURES = new Set(['skip_thought_signature_validator', 'context_engineering_is_the_way_to_go']);

interface Answer {
  res: ServerResponse;
  body: RequestBody;
  model: string;
  stream: boolean;
  /** `alt=sse`; a stream without it is one JSON array of every chunk, as Google sends. */
  sse: boolean;
  issueSignature: () => string;
}

async function answer({ res, body, model, stream, sse, issueSignature }: Answer): Promise<void> {
  const contents = body.contents ?? [];
  const last = contents.at(-1);
  // After a tool result the model answers in words; otherwise the last user text picks the scenario.
  const afterToolResult = last?.role === 'user' && last.parts?.some((part) => part.functionResponse) && !last.parts.some((part) => part.text);
  const lastUserText = [...contents].reverse().find((content) => content.role === 'user')?.parts?.map((part) => part.text ?? '').join('') ?? '';
  const scenario = afterToolResult ? 'hello' : scenarioOf(lastUserText, 'gemini');
  // Cache and thinking counts the prompt's tags ask for, in Gemini's fields: `promptTokenCount`
  // includes `cachedContentTokenCount`; `thoughtsTokenCount` is apart from `candidatesTokenCount`.
  const reported = reportedUsage(lastUserText);
  const promptTokens = (reported.prompt ?? promptTokensOf(body)) + reported.cacheRead;
  const frame = (parts: Part[], words: number, finishReason?: string) => ({
    candidates: [{ content: { parts, role: 'model' }, ...(finishReason ? { finishReason } : {}), index: 0 }],
    usageMetadata: {
      promptTokenCount: promptTokens,
      candidatesTokenCount: words,
      totalTokenCount: promptTokens + words + reported.reasoning,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokens }],
      ...(reported.cacheRead > 0 ? { cachedContentTokenCount: reported.cacheRead } : {}),
      ...(reported.reasoning > 0 ? { thoughtsTokenCount: reported.reasoning } : {}),
    },
    modelVersion: model,
    responseId: `sim-${randomBytes(9).toString('base64url')}`,
  });

  switch (scenario) {
    case 'error500':
      googleError(res, 500, 'INTERNAL', 'Internal error encountered.');
      return;
    case 'error402':
      googleError(res, 402, 'FAILED_PRECONDITION', 'Billing is not enabled or the prepaid balance is exhausted for this project.');
      return;
    case 'error401':
      googleError(res, 401, 'UNAUTHENTICATED', 'API key not valid. Please pass a valid API key.');
      return;
    case 'error429':
      googleError(
        res,
        429,
        'RESOURCE_EXHAUSTED',
        'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.',
        [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' }],
      );
      return;
    case 'tool': {
      const declared = body.tools?.flatMap((tool) => tool.functionDeclarations ?? tool.function_declarations ?? [])[0]?.name;
      if (declared) {
        // One model step with one call: the call carries the signature, the step ends with STOP.
        const part = { functionCall: { name: declared, args: TOOL_ARGUMENTS }, thoughtSignature: issueSignature() };
        send(res, stream, sse, [frame([part], 1, 'STOP')]);
        return;
      }
      break;
    }
    case 'die': {
      const frames = DIE_AFTER_WORDS.map((word, i) => frame([{ text: word }], i + 1));
      if (stream && sse) {
        const out = startSse(res);
        for (const f of frames) out.write(`data: ${JSON.stringify(f)}\r\n\r\n`);
        await sleep(20);
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write(JSON.stringify(frames).slice(0, 40));
        await sleep(20);
      }
      res.socket?.destroy();
      return;
    }
    case 'slow':
      await sendWords(res, stream, sse, SLOW_WORDS, SLOW_CHUNK_MS, frame);
      return;
    default:
      break;
  }
  await sendWords(res, stream, sse, HELLO_WORDS, 0, frame);
}

type Frame = (parts: Part[], words: number, finishReason?: string) => unknown;

/** One frame per word with cumulative usage; the last frame says STOP. */
async function sendWords(res: ServerResponse, stream: boolean, sse: boolean, words: string[], delayMs: number, frame: Frame): Promise<void> {
  if (!stream || !sse) {
    if (delayMs > 0) await sleep(delayMs * words.length);
    if (!stream) sendJson(res, 200, frame([{ text: words.join('') }], words.length, 'STOP'));
    else sendJson(res, 200, words.map((word, i) => frame([{ text: word }], i + 1, i === words.length - 1 ? 'STOP' : undefined)));
    return;
  }
  const out = startSse(res);
  for (const [i, word] of words.entries()) {
    if (res.destroyed || res.writableEnded) return; // the client went away: stop generating
    out.write(`data: ${JSON.stringify(frame([{ text: word }], i + 1, i === words.length - 1 ? 'STOP' : undefined))}\r\n\r\n`);
    if (delayMs > 0 && i < words.length - 1) await sleep(delayMs);
  }
  out.end();
}

function send(res: ServerResponse, stream: boolean, sse: boolean, frames: unknown[]): void {
  if (!stream) sendJson(res, 200, frames.at(-1));
  else if (!sse) sendJson(res, 200, frames);
  else {
    const out = startSse(res);
    for (const f of frames) out.write(`data: ${JSON.stringify(f)}\r\n\r\n`);
    out.end();
  }
}
