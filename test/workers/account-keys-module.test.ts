import { describe, expect, it } from 'vitest';
import { NOW, rows, withAccountModules } from './account-modules';

describe('the keys module', () => {
  it.each([
    ['a key this account does not have', {}, 'b'.repeat(64), undefined, { ok: false, reason: 'invalid_key' }],
    ['a revoked key', { revoked: true }, undefined, undefined, { ok: false, reason: 'revoked' }],
    ['a key expiring now', { expiresAt: NOW }, undefined, undefined, { ok: false, reason: 'expired' }],
    ['a key expiring a moment later', { expiresAt: NOW + 1 }, undefined, undefined, { ok: true }],
    ['a model outside the allowlist', { allowedModels: ['openai/gpt-4o-mini'] }, undefined, 'openai/gpt-4o', { ok: false, reason: 'model_not_allowed', model: 'openai/gpt-4o' }],
    ['a model on the allowlist', { allowedModels: ['openai/gpt-4o-mini'] }, undefined, 'openai/gpt-4o-mini', { ok: true }],
    ['a route without a model, whatever the allowlist', { allowedModels: [] }, undefined, undefined, { ok: true }],
  ])('answers %s', (_, patch, otherHash, model, expected) =>
    withAccountModules({}, (modules) => {
      modules.keys.update(modules.keyId, patch, NOW - 1);
      expect(modules.keys.check(otherHash ?? modules.keyHash, model, NOW)).toMatchObject(expected);
    }));

  it.each([
    ['a route class outside allowed_routes', ['chat'], 'web', { ok: false, reason: 'route_not_allowed', route: 'web' }],
    ['a route class on allowed_routes', ['chat', 'web'], 'web', { ok: true }],
    ['a billed call that names no route class, to a key limited to some', ['chat'], 'unclassified', { ok: false, reason: 'route_not_allowed', route: 'unclassified' }],
    ['a free read, whatever allowed_routes', ['chat'], undefined, { ok: true }],
    ['any route class to a key without allowed_routes', null, 'uploads', { ok: true }],
  ] as const)('answers %s', (_, allowedRoutes, route, expected) =>
    withAccountModules({}, (modules) => {
      modules.keys.update(modules.keyId, { allowedRoutes: allowedRoutes === null ? null : [...allowedRoutes] }, NOW - 1);
      expect(modules.keys.check(modules.keyHash, undefined, NOW, route)).toMatchObject(expected);
    }));

  it('refuses every key once the account is gone, without reading storage', () =>
    withAccountModules({}, (modules) => {
      modules.memory.clear();
      rows(modules.storage, 'DROP TABLE api_keys');
      expect(modules.keys.check(modules.keyHash, undefined, NOW)).toEqual({ ok: false, reason: 'invalid_key' });
    }));

  it('answers from its cache until the key is changed through it', () =>
    withAccountModules({}, (modules) => {
      expect(modules.keys.check(modules.keyHash, undefined, NOW)).toMatchObject({ ok: true });
      // This object is the keys' only writer, so a write behind the module's back goes unseen...
      rows(modules.storage, 'UPDATE api_keys SET revoked_at = 1');
      expect(modules.keys.check(modules.keyHash, undefined, NOW)).toMatchObject({ ok: true });
      // ...while a change through it applies from the next check.
      modules.keys.update(modules.keyId, { name: 'renamed' }, NOW);
      expect(modules.keys.check(modules.keyHash, undefined, NOW)).toEqual({ ok: false, reason: 'revoked' });
    }));

  it('lists keys oldest first without their hashes, and revokes and restores them', () =>
    withAccountModules({}, (modules) => {
      const second = modules.keys.create({ hash: 'c'.repeat(64), hint: 'ak-…cccc', name: 'second', dailyLimitMicros: 5 }, NOW + 1);
      expect(second).toMatchObject({ name: 'second', createdAt: NOW + 1, dailyLimitMicros: 5, revokedAt: null });
      expect(second).not.toHaveProperty('hash');
      expect(modules.keys.update(second.id, { revoked: true }, NOW + 2)).toMatchObject({ revokedAt: NOW + 2 });
      expect(modules.keys.update(second.id, { revoked: false }, NOW + 3)).toMatchObject({ revokedAt: null });
      expect(modules.keys.list().map((k) => [k.name, 'hash' in k])).toEqual([
        ['test', false],
        ['second', false],
      ]);
    }));

  it('finds no key to update under an unknown id', () =>
    withAccountModules({}, (modules) => {
      expect(modules.keys.update('key_unknown', { name: 'x' }, NOW)).toBeNull();
    }));
});
