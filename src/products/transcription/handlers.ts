import type { RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { RequestRecord } from '../../../durable-objects/account/requests';
import { withHold } from '../../accounts/billed';
import { COST_HEADER, CREDITS_HEADER } from '../../billing/headers';
import type { AppEnv } from '../../env';
import { multipartBoundary } from '../../http/multipart-reader';
import { formatUsd } from '../../money';
import type { TranscriptTokens } from '../../providers/adapters';
import { parseBody } from '../route-body';
import { billedSeconds, chargeMicros, checkAudioLimits, holdMicros, planTranscription, type TranscriptionPlan } from './plan';
import { transcriptions } from './routes';
import { discard, readMultipart, uploadSource, type AudioSource } from './source';
import { transcribe } from './upstream';
import type { TranscriptionInput } from './request';

/** A transcription's hold lives this long: the upstream may take minutes over 25 MB. */
const TRANSCRIPTION_HOLD_TTL_MS = 10 * 60_000;

/**
 * `POST /v1/audio/transcriptions`: the audio is a multipart `file` (measured and stored as it
 * arrives) or one of the account's uploads (`file_url`). The hold is the price of the measured
 * length, or for an upload not yet measured of its size at the lowest bitrate, capped at the
 * model's longest audio (D33). The audio then streams to the provider through its duration
 * reader, and the charge is the price of the length read, never past the hold. Any failure
 * releases the hold; a file that is not audio, is empty or lasts too long is a 400 naming it.
 */
export const transcriptionHandler: RouteHandler<typeof transcriptions, AppEnv> = async (c) => {
  const startedAt = Date.now();
  const { input, audio } = multipartBoundary(c.req.header('content-type')) ? await readMultipart(c) : await fromJson(c);
  try {
    return await serve(c, input, audio, startedAt);
  } finally {
    c.executionCtx.waitUntil(discard(c.env, audio));
  }
};

/** A JSON body (its route validator ran already; its types do not reach a route of two body types). */
async function fromJson(c: Context<AppEnv>): Promise<{ input: TranscriptionInput; audio: AudioSource }> {
  const { file_url, ...input } = parseBody(transcriptions, await c.req.json());
  return { input, audio: await uploadSource(c, file_url) };
}

async function serve(c: Context<AppEnv>, input: TranscriptionInput, audio: AudioSource, startedAt: number): Promise<Response> {
  const plan = planTranscription(input, c.env);
  Object.assign(c.var.log, { model: plan.model.id, provider: plan.route.provider });
  checkAudioLimits(plan, audio.param, audio);
  const held = holdMicros(plan, audio.bytes, audio.seconds);
  const requestId = c.get('requestId');
  const ask = { model: plan.model.id, route: 'transcription' as const, minMicros: held, maxMicros: held, purpose: `transcription:${plan.model.id}`, ttlMs: TRANSCRIPTION_HOLD_TTL_MS };
  return withHold(
    c,
    ask,
    async (hold, settle) => {
      const { answer, seconds } = await transcribe(plan, audio, c.env, c.req.raw.signal);
      // No length read from what went upstream (an upload whose headers hold none) is a 400 too: the hold is released.
      const measured = seconds ?? 0;
      checkAudioLimits(plan, audio.param, { bytes: audio.bytes, seconds: measured });
      const billed = billedSeconds(plan.route, measured);
      const tokens = plan.route.tokens ? answer.tokens : undefined;
      const settled = await settle(Math.min(hold.amountMicros, chargeMicros(plan, measured, tokens)), record(requestId, plan, startedAt, billed, tokens));
      const headers = { [COST_HEADER]: formatUsd(settled.costMicros), [CREDITS_HEADER]: formatUsd(settled.balanceMicros) };
      if ('text' in answer) return c.text(answer.text, 200, headers);
      // The usage billed, in OpenAI's shape: its tokens where they were billed, else the seconds.
      return c.json({ ...answer.json, ...(!tokens && { usage: { type: 'duration', seconds: billed } }) }, 200, headers);
    },
    () => record(requestId, plan, startedAt, 0),
  );
}

/** D26: what the request's lookup shows (its units: seconds of audio, and the tokens billed where they were). */
function record(requestId: string, plan: TranscriptionPlan, startedAt: number, seconds: number, tokens?: TranscriptTokens): RequestRecord {
  return {
    requestId,
    path: '/v1/audio/transcriptions',
    model: plan.model.id,
    provider: plan.route.provider,
    startedAt,
    durationMs: Date.now() - startedAt,
    streamed: false,
    usage: { seconds, ...(tokens && { input_tokens: tokens.textInput + tokens.audioInput, audio_input_tokens: tokens.audioInput, output_tokens: tokens.output }) },
  };
}
