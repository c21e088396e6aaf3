import { GatewayError } from '../../errors';
import { multipartBody } from '../../http/multipart-writer';
import { AUDIO_TYPES, durationMeter } from '../../media/audio-duration';
import type { TranscriptAnswer } from '../../providers/adapters';
import { detailOrStatus, sendUpstream } from '../../providers/http';
import { adapterTarget } from '../../providers/registry';
import type { TranscriptionPlan } from './plan';
import type { AudioSource } from './source';

/** A transcription's answer headers may take this long: the upstream reads the whole file first. */
const TRANSCRIPTION_TIMEOUT_MS = 300_000;

/**
 * Streams the audio from R2 to the route's provider, inside a multipart body written around it:
 * the length charged is the one the gateway read from these bytes, as they were spooled (a native
 * pipe now, no JavaScript chunk) or, for an upload, on their way out through its duration reader.
 * A file found longer than the model takes is cut off mid-stream and refused (400 naming its
 * field); nothing is ever held whole.
 */
export async function transcribe(plan: TranscriptionPlan, audio: AudioSource, env: Env, signal: AbortSignal): Promise<{ answer: TranscriptAnswer; seconds: number | undefined }> {
  const { adapter, target } = adapterTarget(env, plan.route.provider, 'transcription');
  const object = await env.MEDIA.get(audio.key, audio.offset > 0 ? { range: { offset: audio.offset, length: audio.bytes } } : undefined);
  if (!object) throw new GatewayError('invalid_request', 'The audio is no longer stored (it may have expired).', { param: audio.param });
  const meter = durationMeter(audio.format);
  const { maxSeconds } = plan.model;
  let tooLong = false;
  // A file found too long ends the call (the body stops where it is).
  const cut = new AbortController();
  // An upload is measured here, on its way out; audio measured as it was spooled streams as it is.
  const inspect = audio.seconds !== undefined ? undefined : {
    push(chunk: Uint8Array) {
      meter.push(chunk);
      const seconds = meter.seconds();
      if (maxSeconds !== undefined && seconds !== undefined && seconds > maxSeconds) {
        tooLong = true;
        cut.abort(new DOMException('The audio is longer than the model takes.', 'AbortError'));
        throw cut.signal.reason;
      }
    },
    end: () => meter.end(),
  };
  const call = adapter.request(plan.order, target);
  const { contentType, extension } = AUDIO_TYPES[audio.format];
  const body = multipartBody(call.fields, {
    field: call.fileField,
    filename: `audio.${extension}`,
    contentType,
    bytes: audio.bytes,
    body: object.body,
    inspect,
  });
  const outcome = await sendUpstream(
    { url: call.url, headers: { ...call.headers, 'Content-Type': body.contentType }, body: body.body },
    { timeoutMs: Math.max(TRANSCRIPTION_TIMEOUT_MS, Number(env.UPSTREAM_TIMEOUT_MS) || 0), signal: AbortSignal.any([signal, cut.signal]), errorMessage: detailOrStatus },
  );
  if (tooLong) throw new GatewayError('invalid_request', `The audio lasts more than ${maxSeconds} s; ${plan.model.id} takes at most ${maxSeconds} s.`, { param: audio.param });
  if (!outcome.ok) throw outcome.error;
  const answer = await adapter.answer(outcome.response, plan.order);
  return { answer, seconds: audio.seconds ?? meter.seconds() };
}
