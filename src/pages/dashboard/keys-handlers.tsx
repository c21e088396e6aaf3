import type { Context } from 'hono';
import type { NewKey } from '../../../durable-objects/account/keys';
import type { KeyRecord } from '../../../durable-objects/account/types';
import { newApiKey, sha256Hex } from '../../accounts/credentials';
import { liveModels } from '../../catalog';
import type { AppEnv } from '../../env';
import { accountStub } from '../../human/claims';
import { checkCsrf, pageHeaders } from '../security';
import { dashboardCsrf, signedIn } from './handlers';
import { keyState, type ModelChoice } from './key-fields';
import { fieldsOfKey, keyFields, nameError, parseKeyForm, type FieldErrors, type FormValues } from './key-form';
import { KeyCreatedPage, KeyPage, KeysPage } from './keys-page';
import { notFoundPage } from './not-found';
import { readFormPost } from '../form-post';

/**
 * The key pages. Every handler starts from the session's account (`signedIn`) and reaches keys
 * only through that account's Durable Object, the same object and methods whose checks every
 * billed route applies (`createKey`, `updateKey`): a key id of another account is simply not
 * found there (404). Every post is CSRF-checked before anything changes.
 */

/** A key id of either format (`credentials.ts`: `key_` and 34 characters; older keys 20). */
const KEY_ID = /^key_(?:[A-Za-z0-9]{20}|[A-Za-z0-9]{34})$/;

type Signed = Exclude<Awaited<ReturnType<typeof signedIn>>, Response>;

interface KeysContext {
  human: Signed;
  stub: ReturnType<typeof accountStub>;
  frame: { shortId: string; csrf: string };
  now: number;
}

async function start(c: Context<AppEnv>): Promise<KeysContext | Response> {
  const now = Date.now();
  const human = await signedIn(c, now);
  if (human instanceof Response) return human;
  const stub = accountStub(c.env, human.account.accountId);
  return { human, stub, frame: { shortId: human.account.accountId.slice(0, 8), csrf: dashboardCsrf(c) }, now };
}

/** A posted form, after its CSRF check. */
async function postedForm(c: Context<AppEnv>): Promise<FormValues> {
  const form = await readFormPost(c, { all: true });
  checkCsrf(c, form.csrf);
  return form;
}

/** The live catalog's models, plus any the key already names that are no longer live (so saving keeps them). */
function modelChoices(env: Env, named: string[] = []): ModelChoice[] {
  const live = liveModels(env).map(({ model }) => ({ id: model.id, type: model.type, name: model.displayName }));
  const ids = new Set(live.map((model) => model.id));
  return [...live, ...named.filter((id) => !ids.has(id)).map((id) => ({ id, type: 'unavailable', name: '' }))];
}

/** The key `:id` of the session's account, or the 404 page. */
async function ownKey(c: Context<AppEnv>, ctx: KeysContext): Promise<KeyRecord | Response> {
  const id = c.req.param('id') ?? '';
  const key = KEY_ID.test(id) ? (await ctx.stub.keys()).find((candidate) => candidate.id === id) : undefined;
  return key ?? (await notFoundPage(c, { ...ctx.frame, tab: 'keys', message: 'This account has no such key.' }));
}

const NOTICES: Record<string, string> = { saved: 'Guardrails saved; they apply from the next request.', renamed: 'Key renamed.', revoked: 'Key revoked: the API refuses it from now on.' };

function renderKey(c: Context<AppEnv>, ctx: KeysContext, key: KeyRecord, extra: { errors?: FieldErrors; fields?: ReturnType<typeof keyFields>; notice?: string; problem?: string } = {}, status: 200 | 400 = 200) {
  const page = (
    <KeyPage
      {...ctx.frame}
      key_={key}
      models={modelChoices(c.env, key.allowedModels ?? [])}
      now={ctx.now}
      fields={extra.fields ?? fieldsOfKey(key)}
      errors={extra.errors}
      notice={extra.notice}
      problem={extra.problem}
    />
  );
  return c.html(page, status, pageHeaders());
}

/** `GET /dashboard/keys`: the keys with their spend and last use, in one call to the account. */
export async function keysPage(c: Context<AppEnv>): Promise<Response> {
  const ctx = await start(c);
  if (ctx instanceof Response) return ctx;
  const listed = await ctx.stub.keysWithUsage(ctx.now);
  if (!listed) return c.redirect('/signin', 303);
  return c.html(<KeysPage {...ctx.frame} keys={listed.keys} usage={listed.usage} models={modelChoices(c.env)} now={ctx.now} />, 200, pageHeaders());
}

/** `POST /dashboard/keys`: a new key with its guardrails, shown in full on the answer and never again. */
export async function createKey(c: Context<AppEnv>): Promise<Response> {
  const ctx = await start(c);
  if (ctx instanceof Response) return ctx;
  const form = await postedForm(c);
  const models = modelChoices(c.env);
  const parsed = parseKeyForm(form, new Set(models.map((model) => model.id)), ctx.now, true);
  if (!parsed.ok) {
    const listed = (await ctx.stub.keysWithUsage(ctx.now)) ?? { keys: [], usage: [] };
    return c.html(<KeysPage {...ctx.frame} {...listed} models={models} now={ctx.now} fields={parsed.fields} errors={parsed.errors} />, 400, pageHeaders());
  }
  const issued = await issueKey(ctx, parsed.name, parsed.guardrails);
  if (!issued) return c.redirect('/signin', 303);
  return c.html(<KeyCreatedPage {...ctx.frame} key_={issued.key} apiKey={issued.apiKey} />, 200, pageHeaders());
}

/** `GET /dashboard/keys/:id`. */
export async function keyPage(c: Context<AppEnv>): Promise<Response> {
  const ctx = await start(c);
  if (ctx instanceof Response) return ctx;
  const key = await ownKey(c, ctx);
  if (key instanceof Response) return key;
  const notice = Object.keys(NOTICES).find((name) => c.req.query(name) !== undefined);
  return renderKey(c, ctx, key, { notice: notice ? NOTICES[notice] : undefined });
}

/** `POST /dashboard/keys/:id/name`. */
export async function renameKey(c: Context<AppEnv>): Promise<Response> {
  const ctx = await start(c);
  if (ctx instanceof Response) return ctx;
  const form = await postedForm(c);
  const key = await ownKey(c, ctx);
  if (key instanceof Response) return key;
  const fields = { ...fieldsOfKey(key), name: keyFields(form).name };
  const error = nameError(fields.name);
  if (error) return renderKey(c, ctx, key, { fields, errors: { name: error } }, 400);
  await ctx.stub.updateKey(key.id, { name: fields.name });
  return c.redirect(`/dashboard/keys/${key.id}?renamed`, 303);
}

/** `POST /dashboard/keys/:id/guardrails`: limits, allowlist and expiry, all at once (an empty field clears one). */
export async function saveGuardrails(c: Context<AppEnv>): Promise<Response> {
  const ctx = await start(c);
  if (ctx instanceof Response) return ctx;
  const form = await postedForm(c);
  const key = await ownKey(c, ctx);
  if (key instanceof Response) return key;
  if (key.revokedAt !== null) return renderKey(c, ctx, key, { problem: 'This key is revoked; its guardrails no longer matter.' }, 400);
  const models = modelChoices(c.env, key.allowedModels ?? []);
  const parsed = parseKeyForm(form, new Set(models.map((model) => model.id)), ctx.now, false);
  if (!parsed.ok) return renderKey(c, ctx, key, { fields: { ...parsed.fields, name: key.name }, errors: parsed.errors }, 400);
  await ctx.stub.updateKey(key.id, parsed.guardrails);
  return c.redirect(`/dashboard/keys/${key.id}?saved`, 303);
}

/** `POST /dashboard/keys/:id/revoke`: the API refuses the key from the next request (401 `api_key_revoked`). */
export async function revokeKey(c: Context<AppEnv>): Promise<Response> {
  const ctx = await start(c);
  if (ctx instanceof Response) return ctx;
  await postedForm(c);
  const key = await ownKey(c, ctx);
  if (key instanceof Response) return key;
  if (key.revokedAt === null) await ctx.stub.updateKey(key.id, { revoked: true });
  return c.redirect(`/dashboard/keys/${key.id}?revoked`, 303);
}

/**
 * `POST /dashboard/keys/:id/rotate`: a new key with the same name and guardrails, shown once;
 * the old one is revoked only after the new one exists (spec: create before revoking).
 */
export async function rotateKey(c: Context<AppEnv>): Promise<Response> {
  const ctx = await start(c);
  if (ctx instanceof Response) return ctx;
  await postedForm(c);
  const old = await ownKey(c, ctx);
  if (old instanceof Response) return old;
  const state = keyState(old, ctx.now);
  if (state !== 'active') {
    const why = state === 'revoked' ? 'This key is revoked; create a new key instead.' : 'This key has expired: set a later expiry date first, or create a new key.';
    return renderKey(c, ctx, old, { problem: why }, 400);
  }
  // A rotated sub-key stays a sub-key of the same parent, with the same routes (D27).
  const { dailyLimitMicros, monthlyLimitMicros, totalLimitMicros, allowedModels, allowedRoutes, parentKeyId, expiresAt } = old;
  const issued = await issueKey(ctx, old.name, { dailyLimitMicros, monthlyLimitMicros, totalLimitMicros, allowedModels, allowedRoutes, parentKeyId, expiresAt });
  if (!issued) return c.redirect('/signin', 303);
  await ctx.stub.updateKey(old.id, { revoked: true });
  return c.html(<KeyCreatedPage {...ctx.frame} key_={issued.key} apiKey={issued.apiKey} rotatedFrom={old} />, 200, pageHeaders());
}

/** Makes a key on the session's account; only its hash and hint are stored. Null when the account is gone. */
async function issueKey(ctx: KeysContext, name: string, guardrails: Omit<NewKey, 'hash' | 'hint' | 'name'>) {
  const apiKey = newApiKey(ctx.human.account.accountId);
  const key = await ctx.stub.createKey({ hash: await sha256Hex(apiKey), hint: `ak-…${apiKey.slice(-4)}`, name, ...guardrails });
  return key ? { key, apiKey } : null;
}
