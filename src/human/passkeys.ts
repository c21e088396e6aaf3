import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Context } from 'hono';
import { database } from '../db';
import type { ClaimRow } from '../db/claims';
import { insertChallenge, passkeyById, passkeysOf, recordPasskeyUse, takeChallenge, type PasskeyRow } from '../db/passkeys';
import type { AppEnv } from '../env';
import { publicBaseUrl } from '../urls';
import { passkeyHoldsAccount } from './claims';

/**
 * @simplewebauthn/server with its certificate parsers (@peculiar/x509, asn1js) runs several
 * milliseconds of set-up when evaluated; loaded on the first passkey step, not at every cold start
 * of the Worker (issue #25). The bundle keeps it, evaluated lazily.
 */
const webauthn = () => import('@simplewebauthn/server');
const base64url = async () => (await import('@simplewebauthn/server/helpers')).isoBase64URL;

/**
 * Passkeys (WebAuthn, through @simplewebauthn/server): a claim ends by registering one for the
 * account, and the human signs in again with it (a discoverable credential, so no user name is
 * typed: the credential id finds the account). Each ceremony's challenge is stored in D1 and
 * taken once, so a response cannot be replayed; user verification (PIN, biometrics) is required.
 */

/** How long a browser has to answer a ceremony. */
const CHALLENGE_MS = 5 * 60_000;

export interface RelyingParty {
  /** The RP ID: the public base's host name (a passkey works on that host only). */
  id: string;
  origin: string;
  name: string;
}

export function relyingParty(c: Context<AppEnv>): RelyingParty {
  const base = new URL(publicBaseUrl(c));
  return { id: base.hostname, origin: base.origin, name: 'AI Gateway' };
}

export type PasskeyResult<T> = ({ ok: true } & T) | { ok: false; message: string };

/** Options for the claim's passkey, its challenge bound to the claim. */
export async function registrationOptions(env: Env, rp: RelyingParty, claim: ClaimRow, now: number): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const db = database(env);
  const shortId = claim.accountId.slice(0, 8);
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: `account-${shortId}`,
    userDisplayName: `AI Gateway account ${shortId}`,
    // The account id as the user handle: a second passkey on the same authenticator replaces the first.
    userID: uuidBytes(claim.accountId),
    attestationType: 'none',
    excludeCredentials: (await passkeysOf(db, claim.accountId)).map((key) => ({ id: key.id, transports: key.transports ?? undefined })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: CHALLENGE_MS,
  });
  await insertChallenge(db, { challenge: options.challenge, purpose: 'register', claimId: claim.id, createdAt: now, expiresAt: now + CHALLENGE_MS });
  return options;
}

/** Verifies the browser's new credential for the claim; the passkey to store when it holds. */
export async function verifyRegistration(
  env: Env,
  rp: RelyingParty,
  claim: ClaimRow,
  response: RegistrationResponseJSON,
  now: number,
): Promise<PasskeyResult<{ passkey: PasskeyRow }>> {
  const db = database(env);
  try {
    const { verifyRegistrationResponse } = await webauthn();
    const isoBase64URL = await base64url();
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: async (challenge) => {
        const issued = await takeChallenge(db, challenge, now);
        return issued?.purpose === 'register' && issued.claimId === claim.id;
      },
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
    if (!verification.verified) return { ok: false, message: 'The passkey could not be verified.' };
    const { credential } = verification.registrationInfo;
    return {
      ok: true,
      passkey: {
        id: credential.id,
        accountId: claim.accountId,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? null,
        createdAt: now,
        lastUsedAt: null,
        claimId: claim.id,
      },
    };
  } catch (err) {
    return { ok: false, message: refusal(err) };
  }
}

/** Options to sign in with any passkey of this site (discoverable: the authenticator offers its own). */
export async function authenticationOptions(env: Env, rp: RelyingParty, now: number): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required', timeout: CHALLENGE_MS });
  await insertChallenge(database(env), { challenge: options.challenge, purpose: 'signin', claimId: null, createdAt: now, expiresAt: now + CHALLENGE_MS });
  return options;
}

/**
 * Verifies a sign-in: the account of the passkey used, its counter and last use recorded. Refused
 * unless the passkey's claim is the one whose human holds the account (an unclaimed account, a
 * superseded claim's passkey, or one from before an operator reset never signs in).
 */
export async function verifyAuthentication(
  env: Env,
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
  now: number,
): Promise<PasskeyResult<{ accountId: string; passkeyId: string; claimId: string | null }>> {
  const db = database(env);
  const passkey = await passkeyById(db, response.id);
  if (!passkey) return { ok: false, message: NOT_REGISTERED };
  try {
    const { verifyAuthenticationResponse } = await webauthn();
    const isoBase64URL = await base64url();
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: async (challenge) => (await takeChallenge(db, challenge, now))?.purpose === 'signin',
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.id,
        publicKey: isoBase64URL.toBuffer(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports ?? undefined,
      },
      requireUserVerification: true,
    });
    if (!verification.verified) return { ok: false, message: 'The passkey could not be verified.' };
    if (!(await passkeyHoldsAccount(env, passkey.accountId, passkey.claimId))) return { ok: false, message: NOT_REGISTERED };
    await recordPasskeyUse(db, passkey.id, verification.authenticationInfo.newCounter, now);
    return { ok: true, accountId: passkey.accountId, passkeyId: passkey.id, claimId: passkey.claimId };
  } catch (err) {
    return { ok: false, message: refusal(err) };
  }
}

const NOT_REGISTERED = 'This passkey is not registered with this gateway.';

/** What a person is told when a ceremony fails: the library's reason is for the log. */
function refusal(err: unknown): string {
  console.log(JSON.stringify({ passkey: 'refused', reason: err instanceof Error ? err.message : String(err) }));
  return 'The passkey could not be verified; try again from the start of this page.';
}

function uuidBytes(uuid: string): Uint8Array<ArrayBuffer> {
  const hex = uuid.replaceAll('-', '');
  return Uint8Array.from({ length: hex.length / 2 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));
}
