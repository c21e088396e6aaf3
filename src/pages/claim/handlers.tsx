import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { database } from '../../db';
import { claimById, type ClaimRow } from '../../db/claims';
import { deletePasskey, insertPasskey } from '../../db/passkeys';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { accountStub, approveClaim, claimState, passkeyHoldsAccount } from '../../human/claims';
import { CLAIM_ID_PATTERN } from '../../human/codes';
import { registrationOptions, relyingParty, verifyRegistration } from '../../human/passkeys';
import { startHumanSession } from '../../human/sessions';
import {
  enterEmailCode,
  enterUserCode,
  holdsTicket,
  lockedFor,
  maskEmail,
  needsEmailCode,
  sendEmailCode,
  type CodeResult,
} from '../../human/verification';
import { clientIpKey } from '../../client-ip';
import { publicBaseUrl } from '../../urls';
import { readJsonPost } from '../json-post';
import { OptionsBody, registrationResponse, RegistrationBody } from '../passkey-bodies';
import { checkCsrf, csrfToken, isHttps, pageHeaders } from '../security';
import { displayUsd, isoDay } from '../shell';
import { CodeStep, EmailStep, EndedPage, PasskeyStep, type AccountSummary, type PageError } from './page';
import { readFormPost } from '../form-post';

/** The cookie naming the browser that entered the right code (HttpOnly, SameSite=Strict, this claim's path only). */
const TICKET_COOKIE = 'claim_ticket';

type Page = Response | Promise<Response>;

async function loadClaim(c: Context<AppEnv>): Promise<ClaimRow | undefined> {
  const id = c.req.param('id') ?? '';
  return CLAIM_ID_PATTERN.test(id) ? claimById(database(c.env), id) : undefined;
}

const claimPath = (claim: ClaimRow) => `/claim/${claim.id}`;

/** The page for a claim that cannot go on, or null while it is pending. */
function endedPage(c: Context<AppEnv>, claim: ClaimRow | undefined, now: number): Page | null {
  const html = (props: Parameters<typeof EndedPage>[0], status: 200 | 404 | 410 | 429, headers: Record<string, string> = {}) =>
    c.html(<EndedPage {...props} />, status, { ...pageHeaders(), ...headers });
  if (!claim) return html({ title: 'Claim link not found', message: 'This link is mistyped or no longer exists. Ask the agent for a new one.' }, 404);
  switch (claimState(claim, now)) {
    case 'pending':
      return null;
    case 'approved':
      return html({ title: 'Account claimed', message: 'This account has been claimed. Its owner signs in with their passkey.', signIn: true }, 200);
    case 'superseded':
      return html({ title: 'Link replaced', message: 'The agent asked for a newer code, so this link no longer works. Use the newest link the agent gave you.' }, 410);
    case 'expired':
      return html({ title: 'Link expired', message: 'This link worked for 15 minutes and has expired. Ask the agent to start the claim again.' }, 410);
    case 'locked':
      return html(
        { title: 'Link locked', code: 'claim_attempts_exceeded', message: 'Too many wrong codes were entered for this link, so it is locked. Ask the agent for a new link.' },
        429,
        { 'Retry-After': String(lockedFor(claim, now)) },
      );
  }
}

async function accountSummary(env: Env, claim: ClaimRow): Promise<AccountSummary> {
  const account = await accountStub(env, claim.accountId).view();
  if (!account) throw new GatewayError('not_found', 'The account of this claim no longer exists.');
  return { shortId: account.accountId.slice(0, 8), balanceUsd: displayUsd(account.balanceMicros), createdAt: isoDay(account.createdAt) };
}

/** The step the ticket holder is at: the emailed code, or the passkey. */
async function currentStep(c: Context<AppEnv>, claim: ClaimRow, extra: { notice?: string; error?: PageError & { retryAfter?: number } } = {}, status: 200 | 400 | 429 = 200): Promise<Response> {
  const csrf = csrfToken(c, claimPath(claim));
  const account = await accountSummary(c.env, claim);
  const page =
    needsEmailCode(claim) && claim.email ? (
      <EmailStep claimId={claim.id} csrf={csrf} account={account} maskedEmail={maskEmail(claim.email)} {...extra} />
    ) : (
      <PasskeyStep claimId={claim.id} csrf={csrf} account={account} />
    );
  return c.html(page, status, { ...pageHeaders(), ...retryAfter(extra.error) });
}

function codeStep(c: Context<AppEnv>, claim: ClaimRow, code: string, error?: PageError, status: 200 | 400 | 429 = 200): Page {
  return c.html(<CodeStep claimId={claim.id} csrf={csrfToken(c, claimPath(claim))} code={code} error={error} />, status, { ...pageHeaders(), ...retryAfter(error) });
}

/** A wrong or refused code, as the form shows it; limits are 429 `claim_attempts_exceeded` with `Retry-After` (D4). */
function codeRefusal(result: Exclude<CodeResult, { ok: true }>): { error: PageError & { retryAfter?: number }; status: 400 | 429 } {
  switch (result.reason) {
    case 'malformed':
      return { error: { message: 'Enter the six digits of the code.' }, status: 400 };
    case 'wrong':
      return { error: { message: `That code is not right. ${result.attemptsLeft} more ${result.attemptsLeft === 1 ? 'try' : 'tries'} before this link locks.` }, status: 400 };
    case 'claim_locked':
      return { error: { code: 'claim_attempts_exceeded', message: 'Too many wrong codes: this link is locked. Ask the agent for a new link.', retryAfter: result.retryAfterSeconds }, status: 429 };
    case 'ip_limited': {
      const minutes = Math.ceil(result.retryAfterSeconds / 60);
      const message = `Too many wrong codes from your network this hour. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
      return { error: { code: 'claim_attempts_exceeded', message, retryAfter: result.retryAfterSeconds }, status: 429 };
    }
  }
}

function retryAfter(error: (PageError & { retryAfter?: number }) | undefined): Record<string, string> {
  return error?.retryAfter === undefined ? {} : { 'Retry-After': String(error.retryAfter) };
}

/** `GET /claim/<id>`: the code form (filled from `?code=`), or the ticket holder's current step. */
export async function claimPage(c: Context<AppEnv>): Promise<Response> {
  const now = Date.now();
  const claim = await loadClaim(c);
  const ended = endedPage(c, claim, now);
  if (ended || !claim) return ended!;
  if (await holdsTicket(claim, getCookie(c, TICKET_COOKIE))) return currentStep(c, claim);
  return codeStep(c, claim, (c.req.query('code') ?? '').slice(0, 9));
}

/** `POST /claim/<id>`: the agent's code. Right: a ticket cookie, the email code sent if needed, and back to the page. */
export async function submitUserCode(c: Context<AppEnv>): Promise<Response> {
  const now = Date.now();
  const form = await readFormPost(c);
  checkCsrf(c, form.csrf);
  const claim = await loadClaim(c);
  const ended = endedPage(c, claim, now);
  if (ended || !claim) return ended!;
  const typed = typeof form.code === 'string' ? form.code.slice(0, 9) : '';
  const result = await enterUserCode(c.env, claim, typed, clientIpKey(c), now);
  if (!result.ok) {
    const { error, status } = codeRefusal(result);
    return codeStep(c, claim, typed, error, status);
  }
  setCookie(c, TICKET_COOKIE, result.ticket!, {
    path: claimPath(claim),
    httpOnly: true,
    sameSite: 'Strict',
    secure: isHttps(c),
    maxAge: Math.max(1, Math.ceil((claim.expiresAt - now) / 1000)),
  });
  if (needsEmailCode(claim) && claim.emailSends === 0) await sendEmailCode(c.env, claim, publicBaseUrl(c), now);
  // Post/redirect/get: a reload shows the next step instead of sending the code again.
  return c.redirect(claimPath(claim), 303);
}

/** The claim of a later step: pending, and this browser holds its ticket. */
async function ticketHolder(c: Context<AppEnv>, now: number): Promise<{ claim: ClaimRow; ticket: string } | { page: Page }> {
  const claim = await loadClaim(c);
  const ended = endedPage(c, claim, now);
  if (ended || !claim) return { page: ended! };
  const ticket = getCookie(c, TICKET_COOKIE);
  if (!ticket || !(await holdsTicket(claim, ticket))) return { page: codeStep(c, claim, '', { message: 'Enter the code from the agent first.' }, 400) };
  return { claim, ticket };
}

/** `POST /claim/<id>/email`: the code mailed to the claim's address. */
export async function submitEmailCode(c: Context<AppEnv>): Promise<Response> {
  const now = Date.now();
  const form = await readFormPost(c);
  checkCsrf(c, form.csrf);
  const held = await ticketHolder(c, now);
  if ('page' in held) return held.page;
  const { claim, ticket } = held;
  if (!needsEmailCode(claim)) return c.redirect(claimPath(claim), 303);
  const result = await enterEmailCode(c.env, claim, ticket, form.email_code, clientIpKey(c), now);
  if (result.ok) return c.redirect(claimPath(claim), 303);
  const { error, status } = codeRefusal(result);
  return currentStep(c, claim, { error }, status);
}

/** `POST /claim/<id>/email/resend`: a new code to the claim's address (three sends per claim). */
export async function resendEmailCode(c: Context<AppEnv>): Promise<Response> {
  const now = Date.now();
  const form = await readFormPost(c);
  checkCsrf(c, form.csrf);
  const held = await ticketHolder(c, now);
  if ('page' in held) return held.page;
  const { claim } = held;
  if (!needsEmailCode(claim)) return c.redirect(claimPath(claim), 303);
  const sent = await sendEmailCode(c.env, claim, publicBaseUrl(c), now);
  if (sent.sent) return currentStep(c, claim, { notice: 'A new code is on its way; the previous one no longer works.' });
  if (sent.reason === 'address_limit') {
    const minutes = Math.ceil(sent.retryAfterSeconds / 60);
    const message = `This address has been sent three codes in the last hour. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
    return currentStep(c, claim, { error: { code: 'rate_limit_exceeded', message, retryAfter: sent.retryAfterSeconds } }, 429);
  }
  return currentStep(c, claim, { error: { message: 'No more codes can be sent for this link. Ask the agent for a new link.' } }, 400);
}

/** The claim a passkey call acts on, refused as JSON (the page's script shows the message). */
async function passkeyClaim(c: Context<AppEnv>, now: number): Promise<ClaimRow> {
  const claim = await loadClaim(c);
  if (!claim) throw new GatewayError('not_found', 'No such claim.');
  const state = claimState(claim, now);
  if (state === 'locked') throw new GatewayError('claim_attempts_exceeded', 'Too many wrong codes: this link is locked.', { retryAfter: lockedFor(claim, now) });
  if (state !== 'pending') throw new GatewayError('invalid_request', 'This claim has ended; reload the page.');
  if (!(await holdsTicket(claim, getCookie(c, TICKET_COOKIE)))) throw new GatewayError('invalid_request', 'Enter the code from the agent first; reload the page.');
  if (needsEmailCode(claim)) throw new GatewayError('invalid_request', 'Enter the code from the email first; reload the page.');
  return claim;
}

/** `POST /claim/<id>/passkey/options` (JSON, CSRF header): the passkey registration's options. */
export async function passkeyOptions(c: Context<AppEnv>): Promise<Response> {
  const now = Date.now();
  await readJsonPost(c, OptionsBody);
  const claim = await passkeyClaim(c, now);
  return c.json(await registrationOptions(c.env, relyingParty(c), claim, now), 200, { 'Cache-Control': 'no-store' });
}

/**
 * `POST /claim/<id>/passkey/verify` (JSON, CSRF header): verifies the new passkey, stores it tied
 * to this claim, has the account's Durable Object approve the claim (only if it is still the
 * account's current claim and nobody holds the account) and starts the human's session. The
 * passkey is stored first so a claimed account always has a way in, but it signs in only once
 * its claim is the approved one; when the approval is refused it is removed again.
 */
export async function passkeyVerify(c: Context<AppEnv>): Promise<Response> {
  const now = Date.now();
  const body = await readJsonPost(c, RegistrationBody);
  const claim = await passkeyClaim(c, now);
  const verified = await verifyRegistration(c.env, relyingParty(c), claim, registrationResponse(body), now);
  if (!verified.ok) throw new GatewayError('invalid_request', verified.message);
  const db = database(c.env);
  if (!(await insertPasskey(db, verified.passkey))) throw new GatewayError('invalid_request', 'This passkey is already registered; use another one.');
  if (!(await approveClaim(c.env, claim.id, now))) {
    await deletePasskey(db, claim.accountId, verified.passkey.id);
    throw new GatewayError('invalid_request', 'This claim has ended; reload the page.');
  }
  const holdsAccount = () => passkeyHoldsAccount(c.env, claim.accountId, claim.id);
  if (!(await startHumanSession(c, claim.accountId, holdsAccount, now))) throw new GatewayError('invalid_request', 'This claim has ended; reload the page.');
  deleteCookie(c, TICKET_COOKIE, { path: claimPath(claim), secure: isHttps(c) });
  return c.json({ redirect: '/dashboard' }, 200, { 'Cache-Control': 'no-store' });
}
