import { vi } from 'vitest';
import { expect } from 'vitest';
import { Visitor, visitorPastCode } from './claim-helpers';
import { SoftwarePasskey } from './software-passkey';

/**
 * A person's passkey steps through the public pages, with a software passkey: finishing a claim
 * (options, then verify) and signing in (`/signin`).
 */

/** A visitor past the user code (and the mailed code, when `emailCode` is given), on the passkey step. */
export async function atPasskeyStep(path: string, userCode: string, emailCode?: string): Promise<Visitor> {
  const visitor = await visitorPastCode(path, userCode);
  if (emailCode !== undefined) expect((await visitor.post(`${path}/email`, { email_code: emailCode })).res.status).toBe(303);
  expect((await visitor.get(path)).html).toContain('Confirm with a passkey');
  return visitor;
}

/** The registration body for the claim at `path`: options asked (200) and answered by `passkey`. */
export async function registration(visitor: Visitor, path: string, passkey: SoftwarePasskey): Promise<{ response: Record<string, unknown> }> {
  const options = await visitor.postJson(`${path}/passkey/options`, {});
  expect(options.status).toBe(200);
  return passkey.register((await options.json()) as { challenge: string });
}

/** Sends the registration: the claim's last step. */
export function verify(visitor: Visitor, path: string, body: unknown): Promise<Response> {
  return visitor.postJson(`${path}/passkey/verify`, body);
}

/** A whole claim by a person with a new passkey; the verify answer, the passkey and the browser. */
export async function claimWithPasskey(path: string, userCode: string, emailCode?: string): Promise<{ res: Response; passkey: SoftwarePasskey; visitor: Visitor }> {
  const visitor = await atPasskeyStep(path, userCode, emailCode);
  const passkey = new SoftwarePasskey();
  const res = await verify(visitor, path, await registration(visitor, path, passkey));
  return { res, passkey, visitor };
}

/** Signs in with `passkey` in a new browser: the verify answer, and the browser (with its session cookie when it worked). */
export async function signInWith(passkey: SoftwarePasskey): Promise<{ res: Response; visitor: Visitor }> {
  const visitor = new Visitor();
  await visitor.get('/signin');
  const options = await visitor.postJson('/signin/options', {});
  expect(options.status).toBe(200);
  const res = await visitor.postJson('/signin/verify', await passkey.signIn((await options.json()) as { challenge: string }));
  return { res, visitor };
}

/** Codes the log sender mailed while `body` ran, newest last. */
export async function mailedCodes<T>(body: () => Promise<T>): Promise<{ result: T; codes: string[] }> {
  const log = vi.spyOn(console, 'log');
  try {
    const result = await body();
    const codes = log.mock.calls.map((args) => /enter this code on that page: (\d{6})/.exec(String(args[0]))?.[1]).filter((code): code is string => code !== undefined);
    return { result, codes };
  } finally {
    log.mockRestore();
  }
}
