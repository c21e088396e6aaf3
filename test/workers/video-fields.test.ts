import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { MODELS } from '../../src/catalog/models';
import type { VideoModel } from '../../src/catalog/types';
import { videoInputs } from '../../src/catalog/video-inputs';
import { database } from '../../src/db';
import { mediaJob } from '../../src/db/media-jobs';
import { VideoGenerationRequest } from '../../src/media/videos/request';
import { FAL_UPSTREAM_KEY } from './global-setup';
import { adminCredit, register } from './helpers';

/**
 * Every video model served on fal against every input field of `POST /v1/videos/generations`
 * (issue 41: nothing is dropped silently). Each value of each field is either refused with 400
 * naming that field, or reaches fal: the fal simulator refuses with 422 any field its endpoint's
 * documented schema lacks, and distinct values of a field must make distinct submissions (one
 * value alone must change the submission). The only values that change nothing are the ones the
 * model renders anyway: its one resolution, its one duration, and `audio` equal to the sound it
 * always renders (none, or its own; never on a model whose sound is an input track).
 */

const app = createApp();
const falUrl = inject('falUpstreamUrl');
/** fal the only provider, so each model goes to its fal route; the test never polls. */
const falEnv = { ...env, FAL_API_KEY: FAL_UPSTREAM_KEY, FAL_BASE_URL: falUrl, OPENAI_API_KEY: '', REPLICATE_API_KEY: '', JOBS: { send: async () => {}, sendBatch: async () => {} } } as unknown as Env;

const url = (name: string) => `https://example.com/${name}`;
const SPEC_FIELDS = Object.keys(VideoGenerationRequest.shape).filter((field) => field !== 'model');
const videoModels = MODELS.filter((model): model is VideoModel => model.type === 'video' && model.routes.some((route) => route.provider === 'fal'));

type Body = Record<string, unknown>;
interface Case {
  field: string;
  values: unknown[];
  /** Fields the values need beside them (a last frame needs a first), and base fields they replace. */
  context?: Body;
  drop?: string[];
}

function cases(model: VideoModel): Case[] {
  const takesImages = videoInputs(model).images > 0;
  const list: Case[] = [
    { field: 'prompt', values: ['another prompt'] },
    { field: 'duration', values: [...model.durations, 60] },
    { field: 'resolution', values: ['480p', '720p', '1080p', '2k', '4k'] },
    { field: 'aspect_ratio', values: ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9'] },
    { field: 'audio', values: [true, false] },
    { field: 'image_url', values: [url('other.png')] },
    { field: 'image_urls', values: [[url('r1.png')], [url('r1.png'), url('r2.png')], [url('r1.png'), url('r2.png'), url('r3.png')]], drop: ['image_url'] },
    { field: 'end_image_url', values: [url('last.png')], context: takesImages ? { image_url: url('first.png') } : {} },
    { field: 'seed', values: [7] },
    { field: 'video_url', values: [url('other.mp4')] },
    { field: 'video_urls', values: [[url('other.mp4')]], drop: ['video_url'] },
    { field: 'audio_url', values: [url('other.mp3')] },
    { field: 'audio_urls', values: [[url('other.mp3')]], drop: ['audio_url'] },
  ];
  // A field of the spec this table does not try would pass unchecked: the table grows with the spec.
  expect(list.map((entry) => entry.field).sort()).toEqual([...SPEC_FIELDS].sort());
  return list;
}

/** The request a model needs before any optional field: what its endpoint requires. */
function baseOf(model: VideoModel): Body {
  const route = model.routes.find((entry) => entry.provider === 'fal')!;
  const media = route.endpoints?.media;
  return {
    model: model.id,
    prompt: 'a fox in the snow',
    ...(route.endpoints?.imageRequired ? { image_url: url('first.png') } : {}),
    ...(media?.video?.required ? { video_url: url('face.mp4') } : {}),
    ...(media?.audio?.required ? { audio_url: url('voice.mp3') } : {}),
  };
}

/** A value the model renders whatever is asked, so it needs no field upstream. */
function rendersAnyway(model: VideoModel, field: string, value: unknown): boolean {
  const inputs = videoInputs(model);
  if (field === 'resolution') return model.resolutions.length === 1 && value === model.resolutions[0];
  if (field === 'duration') return model.durations.length === 1 && value === model.durations[0];
  if (field === 'audio') return !inputs.audioSwitch && inputs.audios === 0 && value === model.audio;
  return false;
}

type Outcome = { refused: string | undefined; submission?: string; unsupported?: string | null };

async function submit(apiKey: string, body: Body): Promise<Outcome> {
  const req = new Request('https://gateway.test/v1/videos/generations', { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: JSON.stringify(body) });
  const res = await app.fetch(req, falEnv, createExecutionContext());
  const answer = (await res.json()) as { id?: string; error?: { param?: string; message: string } };
  if (res.status === 400) return { refused: answer.error?.param ?? `(no param: ${answer.error?.message})` };
  expect(res.status, `${JSON.stringify(body)}: ${JSON.stringify(answer)}`).toBe(202);
  const upstream = (await mediaJob(database(env), answer.id!))?.upstream as { id: string };
  const sent = await fetch(`${falUrl}/__requests/${upstream.id}`, { headers: { Authorization: `Key ${FAL_UPSTREAM_KEY}` } });
  return { refused: undefined, submission: JSON.stringify(await sent.json()), unsupported: res.headers.get('x-service-unsupported-params') };
}

describe('every input field of POST /v1/videos/generations on every video model on fal', () => {
  it.each(videoModels.map((model) => [model.id, model] as const))('%s applies each field or refuses it with 400 naming it', async (_id, model) => {
    const agent = await register();
    await adminCredit(agent.account_id, '1000');
    const base = baseOf(model);
    for (const { field, values, context = {}, drop = [] } of cases(model)) {
      const start: Body = { ...base, ...context };
      for (const name of drop) delete start[name];
      const baseline = await submit(agent.api_key, start);
      const accepted: { value: unknown; outcome: Outcome }[] = [];
      for (const value of values) {
        const outcome = await submit(agent.api_key, { ...start, [field]: value });
        if (outcome.refused !== undefined) expect(outcome.refused, `${model.id} ${field}=${JSON.stringify(value)} refused naming another field`).toBe(field);
        else accepted.push({ value, outcome });
      }
      const applied = accepted.filter(({ value }) => !rendersAnyway(model, field, value));
      if (applied.length === 1) {
        const [{ value, outcome }] = applied as [{ value: unknown; outcome: Outcome }];
        // The spec requires a prompt: an endpoint without one is told nothing, and the answer says so.
        if (field === 'prompt' && outcome.submission === baseline.submission) expect(outcome.unsupported, `${model.id} drops the prompt silently`).toBe('prompt');
        else expect(outcome.submission, `${model.id} accepted ${field}=${JSON.stringify(value)} and sent nothing of it`).not.toBe(baseline.submission);
      }
      const submissions = applied.map(({ outcome }) => outcome.submission);
      if (applied.length > 1) expect(new Set(submissions).size, `${model.id} sends the same for ${field} = ${applied.map(({ value }) => JSON.stringify(value)).join(', ')}`).toBe(applied.length);
    }
  });
});
