import { describe, expect, it } from 'vitest';
import { classifyAddress, parseIPv4, parseIPv6 } from './ip';

const hex = (bytes: Uint8Array | null) => (bytes ? Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('') : null);

describe('parseIPv6', () => {
  it.each([
    ['::', '00000000000000000000000000000000'],
    ['::1', '00000000000000000000000000000001'],
    ['[::1]', '00000000000000000000000000000001'],
    ['fe80::', 'fe800000000000000000000000000000'],
    ['2001:db8:0:0:1:0:0:1', '20010db8000000000001000000000001'],
    ['2001:db8::1:0:0:1', '20010db8000000000001000000000001'],
    ['::ffff:127.0.0.1', '00000000000000000000ffff7f000001'],
    ['64:ff9b::192.0.2.33', '0064ff9b0000000000000000c0000221'],
    ['FFFF::', 'ffff0000000000000000000000000000'],
  ])('reads %s', (text, expected) => {
    expect(hex(parseIPv6(text))).toBe(expected);
  });

  it.each(['', ':', ':::', '1::2::3', '1:2:3:4:5:6:7', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7::8', '12345::', 'g::', '::1.2.3', '::256.0.0.1', 'fe80::1%eth0', '1.2.3.4'])(
    'refuses %j',
    (text) => {
      expect(parseIPv6(text)).toBeNull();
    },
  );
});

describe('parseIPv4', () => {
  it.each(['1.2.3', '1.2.3.4.5', '256.1.1.1', '1.2.3.-4', 'a.b.c.d', '1..2.3', ' 1.2.3.4'])('refuses %j', (text) => {
    expect(parseIPv4(text)).toBeNull();
  });
});

describe('classifyAddress', () => {
  it('is undefined for text that is no address', () => {
    expect(classifyAddress('example.com')).toBeUndefined();
  });

  it.each(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:3c96', '2a00:1450:4001:80b::200e'])('is null for the public address %s', (ip) => {
    expect(classifyAddress(ip)).toBeNull();
  });

  it('reads DNS answers in either spelling of an IPv4-mapped address', () => {
    expect(classifyAddress('::ffff:10.1.2.3')).toContain('IPv4-mapped 10.1.2.3, a private address');
    expect(classifyAddress('::ffff:a01:203')).toContain('IPv4-mapped 10.1.2.3, a private address');
  });
});
