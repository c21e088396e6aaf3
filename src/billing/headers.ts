/** Response headers of billed routes (spec: chat, scrape, media). */
export const COST_HEADER = 'X-Service-Cost';
export const CREDITS_HEADER = 'X-Service-Credits-Remaining';
/** Chat: the parameters a provider's group did not apply (spec "Provider parameter support"). */
export const UNSUPPORTED_HEADER = 'x-service-unsupported-params';
