import { utf8Bytes } from '../../estimate';
import type { ChatFormat } from '../format';
import { responsesEncoder } from './encoder';
import { fromCompletion } from './from-completion';
import { nativeReader, nativeWire } from './native';
import type { ResponsesBody } from './schema';
import { translate } from './to-chat';
import { unseenTokens } from './unseen';

type Json = Record<string, unknown>;

/** The format of one request, and the Response it answered with once written (for the store). */
export interface ResponsesFormat extends ChatFormat<ResponsesBody> {
  /** The whole Response as the client got it (without `x_service`); null until it is. */
  answered(): Json | null;
  /** The hosted tools (`web_search`, ...) the body offered, which a translated model does not get. */
  hostedTools(): string[];
}

/**
 * The Responses format (D30) for one request. `client` is the body as the client sent it (what a
 * translated Response echoes: `previous_response_id`, `instructions`, `tools`, ...); the engine
 * serves the body with the chained history in its `input`. `native`: every route of the model is
 * OpenAI's, which takes the body intact; otherwise every route is translated, and `toChat` refuses
 * what a translated answer cannot carry.
 */
export function responsesFormat(client: ResponsesBody, options: { native: boolean }): ResponsesFormat {
  let answered: Json | null = null;
  let hosted: string[] = [];
  const wire = nativeWire((response) => (answered = response), client.previous_response_id);
  return {
    path: '/v1/responses',
    toChat(body) {
      const translated = translate(body, options);
      hosted = translated.hosted;
      return translated.request;
    },
    // What OpenAI reads beyond the chat request: reasoning items (their encrypted content), `include`, items only it reads, and what it holds or fetches itself.
    uncarriedBytes: (body) =>
      options.native ? translate(body, options).uncarried.reduce<number>((sum, value) => sum + utf8Bytes(JSON.stringify(value) ?? ''), 0) + unseenTokens(body.input) : 0,
    fromCompletion(completion, usage, context) {
      answered = fromCompletion(client, completion, usage, context);
      return answered;
    },
    encoder(context) {
      const encoder = responsesEncoder(client, context);
      return {
        chunk: (chunk) => encoder.chunk(chunk),
        end(usage, xService) {
          const out = encoder.end(usage, xService);
          answered = encoder.final();
          return out;
        },
        error: (message, xService) => encoder.error(message, xService),
      };
    },
    ...(options.native && {
      native: {
        ...wire,
        streamReader(context) {
          const reader = nativeReader(context, client.previous_response_id);
          return {
            ...reader,
            end(usage, xService) {
              const out = reader.end(usage, xService);
              answered = reader.final();
              return out;
            },
          };
        },
      },
    }),
    answered: () => answered,
    hostedTools: () => hosted,
  };
}
