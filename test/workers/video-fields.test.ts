import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { MODELS } from '../../src/catalog/models';
import type { VideoModel, VideoRoute } from '../../src/catalog/types';
import { videoInputs } from '../../src/catalog/video-inputs';
import { database } from '../../src/db';
import { mediaJob } from '../../src/db/media-jobs';
import { VideoGenerationRequest } from '../../src/products/videos/request';
import { FAL_UPSTREAM_KEY, REPLICATE_UPSTREAM_KEY, VIDEOS_UPSTREAM_KEY } from './global-setup';
import { adminCredit, register } from './helpers';

/**
 * Every video model, on each of its routes, against every input field of
 * `POST /v1/videos/generations` (issue 41: nothing is dropped silently). Each value of each field
 * is either refused with 400 naming that field, or reaches the provider: the simulators refuse a
 * field the endpoint's documented schema lacks (fal 422, Replicate's Kling 422, OpenAI 400), and
 * distinct values of a field must make distinct submissions (one value alone must change the
 * submission). The only values that change nothing are the ones the model renders anyway: its one
 * resolution, its one duration, and `audio` equal to the sound it always renders (none, or its
 * own; never on a model whose sound is an input track).
 */

const app = createApp();
const falUrl = inject('falUpstreamUrl');
const replicateUrl = inject('replicateUpstreamUrl');
const videosUrl = inject('videosUpstreamUrl');
const quiet = { JOBS: { send: async () => {}, sendBatch: async () => {} } };
const none = { OPENAI_API_KEY: '', REPLICATE_API_KEY: '', FAL_API_KEY: '' };

/** Per provider: an env where it alone serves videos (the test never polls), and how to read back what it received. */
const RAILS = {
  fal: {
    env: { ...env, ...none, ...quiet, FAL_API_KEY: FAL_UPSTREAM_KEY, FAL_BASE_URL: falUrl } as unknown as Env,
    received: (id: string) => fetch(`${falUrl}/__requests/${id}`, { headers: { Authorization: `Key ${FAL_UPSTREAM_KEY}` } }),
  },
  replicate: {
    env: { ...env, ...none, ...quiet, REPLICATE_API_KEY: REPLICATE_UPSTREAM_KEY, REPLICATE_BASE_URL: `${replicateUrl}/v1` } as unknown as Env,
    received: async (id: string) => {
      const prediction = (await (await fetch(`${replicateUrl}/v1/predictions/${id}`, { headers: { Authorization: `Bearer ${REPLICATE_UPSTREAM_KEY}` } })).json()) as { model: string; input: unknown };
      return Response.json({ model: prediction.model, input: prediction.input });
    },
  },
  openai: {
    env: { ...env, ...none, ...quiet, OPENAI_API_KEY: VIDEOS_UPSTREAM_KEY, OPENAI_BASE_URL: `${videosUrl}/v1` } as unknown as Env,
    received: (id: string) => fetch(`${videosUrl}/__videos/${id}`, { headers: { Authorization: `Bearer ${VIDEOS_UPSTREAM_KEY}` } }),
  },
} as const;
type Rail = keyof typeof RAILS;
const isRail = (provider: string): provider is Rail => provider in RAILS;

const url = (name: string) => `https://example.com/${name}`;
const SPEC_FIELDS = Object.keys(VideoGenerationRequest.shape).filter((field) => field !== 'model');
const routes = MODELS.flatMap((model) => (model.type === 'video' ? model.routes.map((route) => ({ model, route })) : []));

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

/** The request a route needs before any optional field: what its endpoint requires. */
function baseOf(model: VideoModel, route: VideoRoute): Body {
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

/** A rail that reads the frame's bytes (OpenAI) gets stored uploads for the example images. */
async function withUploads(apiKey: string, rail: Rail, body: Body): Promise<Body> {
  if (rail !== 'openai') return body;
  const stored = async (link: unknown) => (typeof link === 'string' && link.endsWith('.png') ? upload(apiKey, link) : link);
  const entries = await Promise.all(Object.entries(body).map(async ([field, value]) => [field, Array.isArray(value) ? await Promise.all(value.map(stored)) : await stored(value)] as const));
  return Object.fromEntries(entries);
}

const uploads = new Map<string, string>();
async function upload(apiKey: string, link: string): Promise<string> {
  const known = uploads.get(`${apiKey} ${link}`);
  if (known) return known;
  const bytes = new Uint8Array(256);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const res = await call(apiKey, RAILS.openai.env, '/v1/uploads', { content_type: 'image/png', content_length: bytes.length });
  const { key, public_url } = (await res.json()) as { key: string; public_url: string };
  await env.MEDIA.put(key, bytes, { httpMetadata: { contentType: 'image/png' } });
  uploads.set(`${apiKey} ${link}`, public_url);
  return public_url;
}

async function call(apiKey: string, gateway: Env, path: string, body: Body): Promise<Response> {
  const req = new Request(`https://gateway.test${path}`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: JSON.stringify(body) });
  return await app.fetch(req, gateway, createExecutionContext());
}

async function submit(apiKey: string, rail: Rail, body: Body): Promise<Outcome> {
  const res = await call(apiKey, RAILS[rail].env, '/v1/videos/generations', await withUploads(apiKey, rail, body));
  const answer = (await res.json()) as { id?: string; error?: { param?: string; message: string } };
  if (res.status === 400) return { refused: answer.error?.param ?? `(no param: ${answer.error?.message})` };
  expect(res.status, `${JSON.stringify(body)}: ${JSON.stringify(answer)}`).toBe(202);
  const upstream = (await mediaJob(database(env), answer.id!))?.upstream as { id: string };
  return { refused: undefined, submission: JSON.stringify(await (await RAILS[rail].received(upstream.id)).json()), unsupported: res.headers.get('x-service-unsupported-params') };
}

describe('every input field of POST /v1/videos/generations on every video model and route', () => {
  it.each(routes.map(({ model, route }) => [model.id, route.provider, model, route] as const))('%s on %s applies each field or refuses it with 400 naming it', async (_id, provider, model, route) => {
    // A provider with no video simulator here fails the test: the next rail added gets one.
    expect(isRail(provider), `no simulator for ${provider}`).toBe(true);
    const rail = provider as Rail;
    const agent = await register();
    await adminCredit(agent.account_id, '1000');
    const base = baseOf(model, route);
    for (const { field, values, context = {}, drop = [] } of cases(model)) {
      const start: Body = { ...base, ...context };
      for (const name of drop) delete start[name];
      const baseline = await submit(agent.api_key, rail, start);
      const accepted: { value: unknown; outcome: Outcome }[] = [];
      for (const value of values) {
        const outcome = await submit(agent.api_key, rail, { ...start, [field]: value });
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
