import { describe, expect, it } from 'vitest';
import { accountIdOfApiKey, accountIdOfClaimToken, accountIdOfKeyId, hashesEqual, newApiKey, newClaimToken, newKeyId, randomBase62, sha256Hex } from './credentials';

describe('API keys (D12)', () => {
  it('are ak- plus 45 base62 characters, 48 in all', () => {
    const key = newApiKey(crypto.randomUUID());
    expect(key).toHaveLength(48);
    expect(key).toMatch(/^ak-[A-Za-z0-9]{45}$/);
  });

  it('carry their account id', () => {
    for (const id of [crypto.randomUUID(), '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff']) {
      expect(accountIdOfApiKey(newApiKey(id))).toBe(id);
    }
  });

  it('differ for the same account', () => {
    const id = crypto.randomUUID();
    expect(newApiKey(id)).not.toBe(newApiKey(id));
  });

  it.each([
    ['another prefix', `sk-${'a'.repeat(45)}`],
    ['too short', `ak-${'a'.repeat(44)}`],
    ['too long', `ak-${'a'.repeat(46)}`],
    ['a non-base62 character', `ak-${'a'.repeat(44)}-`],
    ['an account part above 2^128', `ak-${'z'.repeat(45)}`],
  ])('refuse %s', (_, key) => {
    expect(accountIdOfApiKey(key)).toBeNull();
  });
});

describe('claim tokens', () => {
  it('start with act_ and carry their account id', () => {
    const id = crypto.randomUUID();
    const token = newClaimToken(id);
    expect(token).toMatch(/^act_[A-Za-z0-9]{54}$/);
    expect(accountIdOfClaimToken(token)).toBe(id);
    expect(accountIdOfClaimToken(newApiKey(id))).toBeNull();
  });
});

describe('key ids', () => {
  it('are key_ plus 34 base62 characters and name their account', () => {
    for (const id of [crypto.randomUUID(), '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff']) {
      const keyId = newKeyId(id);
      expect(keyId).toMatch(/^key_[A-Za-z0-9]{34}$/);
      expect(accountIdOfKeyId(keyId)).toBe(id);
    }
  });

  it('fall back to the random format for an account id that is not a UUID', () => {
    expect(newKeyId('acct_test')).toMatch(/^key_[A-Za-z0-9]{20}$/);
  });

  it.each([
    ['a key id of the older random format', `key_${'a'.repeat(20)}`],
    ['an API key', newApiKey(crypto.randomUUID())],
    ['an account part above 2^128', `key_${'z'.repeat(34)}`],
    ['a non-base62 character', `key_${'a'.repeat(33)}-`],
  ])('name no account for %s', (_, text) => {
    expect(accountIdOfKeyId(text)).toBeNull();
  });
});

describe('hashing', () => {
  it('is SHA-256 in lowercase hex', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('compares hashes by value', async () => {
    const a = await sha256Hex('one');
    expect(hashesEqual(a, a)).toBe(true);
    expect(hashesEqual(a, await sha256Hex('two'))).toBe(false);
    expect(hashesEqual(a, a.slice(1))).toBe(false);
  });

  it('draws every base62 character', () => {
    expect(new Set(randomBase62(5000)).size).toBe(62);
  });
});
