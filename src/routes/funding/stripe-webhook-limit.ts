/** Webhook bodies are small; a larger one is not Stripe's. `app.ts` caps the route with `limitBody` (413 without reading more). */
export const STRIPE_WEBHOOK_MAX_BYTES = 1024 * 1024;
