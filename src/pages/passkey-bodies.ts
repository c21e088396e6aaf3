import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';

/**
 * What the pages' script posts after a passkey ceremony: @simplewebauthn/browser's JSON, checked
 * for shape and size here; its content is checked by @simplewebauthn/server.
 */

/** Asking for a ceremony's options: nothing to send but the CSRF header. */
export const OptionsBody = z.object({});

const base64url = z.string().max(16_384).regex(/^[A-Za-z0-9_-]*$/, 'base64url');
const common = {
  id: base64url.min(1).max(1024),
  rawId: base64url.min(1).max(1024),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional(),
};

export const RegistrationBody = z.object({
  response: z.object({
    ...common,
    response: z.object({
      clientDataJSON: base64url,
      attestationObject: base64url,
      authenticatorData: base64url.optional(),
      transports: z.array(z.string().max(32)).max(10).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: base64url.optional(),
    }),
  }),
});

export const AuthenticationBody = z.object({
  response: z.object({
    ...common,
    response: z.object({
      clientDataJSON: base64url,
      authenticatorData: base64url,
      signature: base64url,
      userHandle: base64url.optional(),
    }),
  }),
});

/** Extension outputs are not used: the server is given none, so nothing unchecked reaches it. */
export function registrationResponse(body: z.infer<typeof RegistrationBody>): RegistrationResponseJSON {
  return { ...body.response, clientExtensionResults: {} };
}

export function authenticationResponse(body: z.infer<typeof AuthenticationBody>): AuthenticationResponseJSON {
  return { ...body.response, clientExtensionResults: {} };
}
