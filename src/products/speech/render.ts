import { DEFAULT_UPSTREAM_TIMEOUT_MS, detailOrStatus, sendUpstream } from '../../providers/http';
import { readAllIdle, upstreamIdleMs } from '../../providers/idle';
import { adapterTarget } from '../../providers/registry';
import type { SpeechPlan } from './plan';
import { splitForSpeech } from './split';

const SPEECH_TIMEOUT_MS = 120_000;
/** Parts rendered at once: keeps a 10,000-character request quick without flooding the provider. */
const PARALLEL_PARTS = 3;

/**
 * Renders the whole input as one MP3 on the route's speech adapter: parts within the provider's
 * request limit, joined in order.
 */
export async function renderSpeech(plan: SpeechPlan, env: Env): Promise<Uint8Array> {
  const { upstreamId } = plan.route;
  const { adapter, target } = adapterTarget(env, plan.route.provider, 'speech');
  const parts = splitForSpeech(plan.input, adapter.requestLimit(upstreamId));
  const timeoutMs = Math.max(SPEECH_TIMEOUT_MS, Number(env.UPSTREAM_TIMEOUT_MS) || DEFAULT_UPSTREAM_TIMEOUT_MS);
  const renderPart = async (text: string): Promise<Uint8Array> => {
    const outcome = await sendUpstream(adapter.request({ text, voice: plan.voice, upstreamId }, target), {
      timeoutMs,
      signal: new AbortController().signal,
      errorMessage: detailOrStatus,
    });
    if (!outcome.ok) throw outcome.error;
    // A body that goes silent fails the part (502) instead of holding the render's claim.
    return readAllIdle(outcome.response.body, upstreamIdleMs(env));
  };
  const audio: Uint8Array[] = new Array(parts.length);
  for (let start = 0; start < parts.length; start += PARALLEL_PARTS) {
    const rendered = await Promise.all(parts.slice(start, start + PARALLEL_PARTS).map(renderPart));
    rendered.forEach((bytes, i) => (audio[start + i] = i + start === 0 ? bytes : withoutId3(bytes)));
  }
  return concat(audio);
}

/** A part after the first loses its ID3v2 tag, so the joined file is one stream of MP3 frames. */
function withoutId3(bytes: Uint8Array): Uint8Array {
  if (bytes.length < 10 || bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return bytes;
  const size = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f);
  return bytes.subarray(10 + size);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
