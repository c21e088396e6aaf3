/**
 * Loop detection for the gateway's own fetches, in the spirit of `Via` (RFC 9110 §7.6.3) and
 * `CDN-Loop` (RFC 8586): every guarded fetch carries `SELF_FETCH_HEADER`, the gateway refuses any
 * request that carries it and marks that answer with `SELF_REFUSAL_HEADER`, and the guard treats
 * such an answer as "this is the gateway". It holds whatever name or address reached us: a
 * spoofed `Host`, an allow-listed private host, a DNS name pointing back at us.
 */
export const SELF_FETCH_HEADER = 'X-Service-Fetcher';
export const SELF_FETCH_TOKEN = 'ai-gateway';
export const SELF_REFUSAL_HEADER = 'X-Service-Self-Fetch';
