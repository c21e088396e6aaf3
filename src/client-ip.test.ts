import { describe, expect, it } from 'vitest';
import { ipLimitKey, UNKNOWN_IP_KEY } from './client-ip';

describe('ipLimitKey', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['0.0.0.0', '0.0.0.0'],
    ['255.255.255.255', '255.255.255.255'],
    [' 198.51.100.1 ', '198.51.100.1'],
  ])('keeps the IPv4 address %j whole', (address, key) => {
    expect(ipLimitKey(address)).toBe(key);
  });

  it.each([
    ['2001:0db8:0001:0002:0000:0000:0000:0001', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::15', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::', '2001:db8:0:0::/64'],
    ['2001:db8::1:2:3:4', '2001:db8:0:0::/64'],
    ['2001:db8:1:2:3::', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0:0::/64'],
  ])('keys the IPv6 address %j by its /64', (address, key) => {
    expect(ipLimitKey(address)).toBe(key);
  });

  it('puts every address of one /64 under one key, and another /64 under another', () => {
    const keys = new Set(Array.from({ length: 15 }, (_, i) => ipLimitKey(`2001:db8:1:2::${(i + 1).toString(16)}`)));
    expect(keys).toEqual(new Set(['2001:db8:1:2::/64']));
    expect(ipLimitKey('2001:db8:1:3::1')).not.toBe(ipLimitKey('2001:db8:1:2::1'));
  });

  it.each([
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:198.51.100.1', '198.51.100.1'],
    ['0:0:0:0:0:ffff:203.0.113.7', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
  ])('counts the IPv4-mapped address %j as the IPv4 address', (address, key) => {
    expect(ipLimitKey(address)).toBe(key);
  });

  it.each([
    [undefined],
    [null],
    [''],
    ['local'],
    ['256.1.1.1'],
    ['1.2.3'],
    ['1.2.3.4.5'],
    ['1.2.3.-4'],
    ['2001:db8::1::2'],
    ['2001:db8:1:2:3:4:5:6:7'],
    ['2001:db8:1:2:3:4:5'],
    ['1:2:3:4:5:6:7::8'],
    ['2001:db8:1:2::g'],
    ['12345::1'],
    [':::'],
    ['::ffff:1.2.3.256'],
    ['1.2.3.4::'],
    ['<script>'],
    ['a'.repeat(2000)],
  ])('files the unreadable address %j under one shared key', (address) => {
    expect(ipLimitKey(address)).toBe(UNKNOWN_IP_KEY);
  });
});
