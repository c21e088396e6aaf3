import { describe, expect, it } from 'vitest';
import { chatStatusError, errorDetail, isTransient, upstreamError } from './upstream-errors';

describe('errorDetail: the one reader of provider error bodies', () => {
  it.each([
    ['fal (a string detail)', { detail: 'Image too large' }, 'Image too large'],
    ["fal (FastAPI's list)", { detail: [{ msg: 'field required' }, { msg: 'bad size' }] }, 'field required; bad size'],
    ['Replicate (title only)', { title: 'Invalid version' }, 'Invalid version'],
    ['ElevenLabs (detail.message)', { detail: { status: 'voice_not_found', message: 'A voice with that id was not found.' } }, 'A voice with that id was not found.'],
    ['OpenAI (error.message)', { error: { message: 'Invalid size', type: 'invalid_request_error' } }, 'Invalid size'],
    ['a plain error string', { error: 'runner_server_error' }, 'runner_server_error'],
    ['a text body', 'Bad Gateway', undefined],
    ['an empty object', {}, undefined],
  ])('reads %s', (_, body, detail) => {
    expect(errorDetail(body)).toBe(detail);
  });
});

describe("upstreamError: the media rails' status table", () => {
  it.each([
    [400, { detail: 'bad prompt' }, 'invalid_request', false],
    [422, { detail: [{ msg: 'bad' }] }, 'invalid_request', false],
    [401, { detail: 'bad key' }, 'provider_error', false],
    [404, { detail: 'no such request' }, 'provider_error', false],
    [429, {}, 'provider_unavailable', true],
    [503, 'Service Unavailable', 'provider_unavailable', true],
    [500, { error: 'runner_server_error' }, 'provider_error', false],
  ])('maps HTTP %i (%j) to %s, retried: %s', (status, body, code, retried) => {
    const error = upstreamError('fal', status, body);
    expect(error.code).toBe(code);
    expect(isTransient(error)).toBe(retried);
  });
});

describe("chatStatusError: chat's column, where a retry goes to the next route", () => {
  it.each([
    [400, 'invalid_request', false],
    [404, 'invalid_request', false],
    [413, 'invalid_request', false],
    [401, 'provider_error', false],
    [429, 'provider_unavailable', true],
    [500, 'provider_error', true],
    [503, 'provider_error', true],
  ])('maps HTTP %i to %s, tried on the next route: %s', (status, code, retryable) => {
    const outcome = chatStatusError(status, 'detail', new Headers());
    expect(outcome).toMatchObject({ ok: false, retryable });
    expect(outcome.error.code).toBe(code);
  });

  it("takes a 429's Retry-After", () => {
    expect(chatStatusError(429, 'slow down', new Headers({ 'retry-after': '7' })).error.options.retryAfter).toBe(7);
  });
});
