/** Response headers of billed routes (spec: chat, scrape, media). */
export const COST_HEADER = 'X-Service-Cost';
export const CREDITS_HEADER = 'X-Service-Credits-Remaining';
/** Chat: the model and the provider that served the answer (D34), fallbacks included. */
export const SERVICE_MODEL_HEADER = 'X-Service-Model';
export const SERVICE_PROVIDER_HEADER = 'X-Service-Provider';
/** Chat: the parameters a provider's group did not apply (spec "Provider parameter support"). */
export const UNSUPPORTED_HEADER = 'x-service-unsupported-params';

/**
 * The unsupported parameters as one header value. A name is the client's (an unknown body member),
 * and may hold what a header value cannot, a line break or a character beyond Latin-1: shown as a
 * JSON-style escape, where the runtime would otherwise throw after the upstream had answered.
 */
export function unsupportedHeaderValue(names: string[]): string {
  return names.map((name) => name.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)).join(', ');
}
