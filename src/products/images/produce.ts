import { database } from '../../db';
import { insertGeneration } from '../../db/generations';
import type { GuardOptions } from '../../web/guard';
import { imageChargeMicros } from './cost';
import { hostOutput, outputRetentionMs } from '../../media/outputs';
import { loadReferences } from '../../media/references';
import type { ImagePlan } from '../../providers/renders';
import { railReadsReferenceBytes, renderImages } from './rail';

export interface HostedImages {
  keys: string[];
  /** When the render ended (ms). */
  created: number;
  /** What the render is charged (`imageChargeMicros`). */
  costMicros: number;
}

/**
 * Renders a plan and hosts exactly the upstream's bytes under the account's outputs: the part the
 * sync route and the job consumer share. The render is not tied to any client (spec: a sync
 * render goes on when its client leaves). Throws `GatewayError` for input or upstream failures.
 */
export async function produceImages(env: Env, plan: ImagePlan, where: { accountId: string; base: string; guard: GuardOptions }): Promise<HostedImages> {
  // OpenAI takes the reference bytes; fal takes the links and fetches them itself.
  const references = railReadsReferenceBytes(plan.route.provider) ? await loadReferences(plan.references, where.base, env.MEDIA, where.guard, plan.referencesParam) : [];
  const { images, usage } = await renderImages(plan, references, env, new AbortController().signal);
  const keys: string[] = [];
  for (const image of images) keys.push(await hostOutput(env.MEDIA, where.accountId, image.bytes, image.contentType));
  return { keys, created: Date.now(), costMicros: imageChargeMicros(plan, images.length, usage) };
}

/** The listing row of a completed generation; once per id. A failure loses a listing, never money, so it is logged. */
export async function recordImageGeneration(env: Env, id: string, owner: { accountId: string; keyId: string | null }, plan: ImagePlan, hosted: HostedImages): Promise<void> {
  try {
    await insertGeneration(database(env), {
      id,
      ...owner,
      kind: 'image',
      model: plan.model.id,
      prompt: plan.prompt,
      keys: hosted.keys,
      createdAt: hosted.created,
      expiresAt: hosted.created + outputRetentionMs(env),
    });
  } catch (err) {
    console.error('generation record not written', err);
  }
}
