/**
 * The URL guard: every outbound fetch of the web features (the user's URL, each redirect hop,
 * each crawled link, robots.txt) goes through `checkUrl` or `guardedFetch`.
 */
export { checkUrl, type GuardVerdict } from './check';
export { createDohResolver, DOH_ENDPOINT } from './dns';
export { guardFailureError } from './errors';
export { guardedFetch, MAX_REDIRECTS, type GuardedFetchFailure, type GuardedFetchOutcome, type GuardedFetchResult } from './fetch';
export { guardOptionsFromEnv, type GuardOptions } from './options';
export { SELF_FETCH_HEADER, SELF_FETCH_TOKEN, SELF_REFUSAL_HEADER } from './self-fetch';
