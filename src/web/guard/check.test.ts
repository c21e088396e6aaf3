import { describe, expect, it } from 'vitest';
import { checkUrl } from './check';
import type { GuardOptions } from './options';

const PUBLIC_V4 = '93.184.215.14';
const PUBLIC_V6 = '2606:2800:21f:cb07:6820:80da:af6b:3c96';

/** Resolves every name to public addresses, so a refusal can only come from the URL itself. */
const everythingPublic: GuardOptions = {
  allowHosts: [],
  ownHosts: ['gateway.example.net'],
  resolve: async () => [PUBLIC_V4, PUBLIC_V6],
};

function withDns(records: Record<string, string[]>, extra: Partial<GuardOptions> = {}): GuardOptions {
  return {
    allowHosts: [],
    ownHosts: [],
    resolve: async (name) => {
      const addresses = records[name];
      if (!addresses) throw new Error(`unexpected lookup of ${name}`);
      return addresses;
    },
    ...extra,
  };
}

async function reasonFor(url: string, options: GuardOptions = everythingPublic): Promise<string> {
  const verdict = await checkUrl(url, options);
  if (verdict.ok) throw new Error(`${url} was accepted as ${verdict.url.href}`);
  return verdict.reason;
}

describe('checkUrl: scheme, syntax and credentials', () => {
  it.each(['ftp://example.com/', 'file:///etc/passwd', 'gopher://example.com/', 'ws://example.com/', 'data:text/plain,hi', 'javascript:alert(1)', 'blob:https://example.com/x'])(
    'refuses %s (not http or https)',
    async (url) => {
      expect(await reasonFor(url)).toMatch(/only http and https/);
    },
  );

  it.each(['', 'example.com', '/relative/path', 'http://', 'http://exa mple.com/', 'http://[::1/'])('refuses %j as not a URL', async (url) => {
    expect(await reasonFor(url)).toMatch(/not a valid absolute URL/);
  });

  it.each(['http://user:pass@example.com/', 'https://user@example.com/', 'http://:secret@example.com/', 'http://user:pass@127.0.0.1/'])(
    'refuses credentials in %s',
    async (url) => {
      expect(await reasonFor(url)).toMatch(/credentials/);
    },
  );
});

describe('checkUrl: IPv4 literals in every spelling', () => {
  it.each([
    ['dotted loopback', 'http://127.0.0.1/', '127.0.0.1'],
    ['loopback with a port', 'http://127.0.0.1:8787/admin', '127.0.0.1'],
    ['decimal', 'http://2130706433/', '127.0.0.1'],
    ['octal', 'http://0177.0.0.1/', '127.0.0.1'],
    ['hex', 'http://0x7f.0.0.1/', '127.0.0.1'],
    ['whole hex', 'http://0x7f000001/', '127.0.0.1'],
    ['short', 'http://127.1/', '127.0.0.1'],
    ['short with two parts', 'http://10.1/', '10.0.0.1'],
    ['mixed octal and hex', 'http://0300.0xa8.1.1/', '192.168.1.1'],
    ['trailing dot', 'http://127.0.0.1./', '127.0.0.1'],
    ['percent-encoded', 'http://%31%32%37.0.0.1/', '127.0.0.1'],
    ['full-width digits', 'http://\uff11\uff12\uff17.\uff10.\uff10.\uff11/', '127.0.0.1'],
    ['upper-case hex', 'http://0X7F.1/', '127.0.0.1'],
    ['zero-padded octal parts', 'http://127.000.000.001/', '127.0.0.1'],
    ['a lone zero', 'http://0/', '0.0.0.0'],
  ])('refuses the %s form %s', async (_, url, host) => {
    expect(await reasonFor(url)).toMatch(new RegExp(`^The host ${host.replaceAll('.', '\\.')} is (a loopback|a private|a "this network") address`));
  });

  it.each([
    ['0.0.0.0', '"this network"'],
    ['0.1.2.3', '"this network"'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'IETF protocol assignment'],
    ['192.0.2.1', 'documentation'],
    ['192.168.0.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'broadcast'],
  ])('refuses %s (%s)', async (ip, kind) => {
    expect(await reasonFor(`http://${ip}/`)).toContain(kind);
  });

  it.each(['8.8.8.8', '1.1.1.1', PUBLIC_V4, '100.63.255.255', '100.128.0.0', '172.15.255.255', '172.32.0.0', '192.169.0.1', '198.20.0.1', '223.255.255.255'])(
    'accepts the public address %s without a lookup',
    async (ip) => {
      const verdict = await checkUrl(`https://${ip}/`, withDns({}));
      expect(verdict).toEqual({ ok: true, url: new URL(`https://${ip}/`) });
    },
  );
});

describe('checkUrl: IPv6 literals', () => {
  it.each([
    ['loopback', 'http://[::1]/'],
    ['loopback, long form', 'http://[0:0:0:0:0:0:0:1]/'],
    ['unspecified', 'http://[::]/'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped loopback, hex', 'http://[::ffff:7f00:1]/'],
    ['IPv4-mapped metadata', 'http://[::ffff:169.254.169.254]/'],
    ['IPv4-mapped private', 'http://[::ffff:10.0.0.1]/'],
    ['IPv4-compatible loopback', 'http://[::127.0.0.1]/'],
    ['IPv4-compatible private', 'http://[::c0a8:101]/'],
    ['IPv4-compatible public (deprecated form)', 'http://[::8.8.8.8]/'],
    ['NAT64 loopback', 'http://[64:ff9b::127.0.0.1]/'],
    ['NAT64 metadata', 'http://[64:ff9b::a9fe:a9fe]/'],
    ['local-use NAT64', 'http://[64:ff9b:1::8.8.8.8]/'],
    ['6to4 of loopback', 'http://[2002:7f00:1::]/'],
    ['6to4 of a private address', 'http://[2002:c0a8:101::1]/'],
    ['unique-local fc00::/7', 'http://[fc00::1]/'],
    ['unique-local fd00::/8', 'http://[fd12:3456:789a::1]/'],
    ['link-local', 'http://[fe80::1]/'],
    ['link-local, upper end', 'http://[febf::1]/'],
    ['site-local', 'http://[fec0::1]/'],
    ['multicast', 'http://[ff02::1]/'],
    ['multicast, global scope', 'http://[ff0e::1]/'],
    ['documentation 2001:db8::/32', 'http://[2001:db8::1]/'],
    ['documentation 3fff::/20', 'http://[3fff::1]/'],
    ['Teredo', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/'],
    ['benchmarking', 'http://[2001:2::1]/'],
    ['discard-only', 'http://[100::1]/'],
    ['reserved, outside 2000::/3', 'http://[4000::1]/'],
    ['with a port', 'http://[::1]:8080/'],
  ])('refuses %s: %s', async (_, url) => {
    expect(await reasonFor(url)).toMatch(/^The host \[.*\] is .*; only public web addresses can be fetched\.$/);
  });

  it.each([`http://[${PUBLIC_V6}]/`, 'http://[2001:4860:4860::8888]/', 'http://[::ffff:8.8.8.8]/', 'http://[64:ff9b::8.8.8.8]/', 'http://[2002:808:808::1]/'])(
    'accepts the public address %s',
    async (url) => {
      expect((await checkUrl(url, withDns({}))).ok).toBe(true);
    },
  );

  it('names the embedded IPv4 address in the reason', async () => {
    expect(await reasonFor('http://[::ffff:7f00:1]/')).toContain('IPv4-mapped 127.0.0.1, a loopback address');
    expect(await reasonFor('http://[2002:a9fe:a9fe::]/')).toContain('6to4 for 169.254.169.254, a link-local address');
  });
});

describe('checkUrl: host names', () => {
  it.each([
    'http://localhost/',
    'http://LOCALHOST:3000/',
    'http://localhost./',
    'http://localhost../',
    'http://api.localhost/',
    'http://api.localhost./',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://printer.local/',
    'http://nas.localdomain/',
    'http://router.home.arpa/',
    'http://db.corp/',
    'http://intranet/',
    'http://metadata/',
    'http://wpad./',
    'http://%6c%6f%63%61%6c%68%6f%73%74/',
  ])('refuses %s without looking it up', async (url) => {
    const lookups: string[] = [];
    const resolve = async (name: string) => {
      lookups.push(name);
      return [PUBLIC_V4];
    };
    expect(await reasonFor(url, { allowHosts: [], ownHosts: [], resolve })).toMatch(/ is a (private-network|single-label) name/);
    expect(lookups).toEqual([]);
  });

  it('says why a single-label name is refused', async () => {
    expect(await reasonFor('http://metadata/')).toContain('single-label');
    expect(await reasonFor('http://localhost./')).toContain('private-network name (.localhost)');
  });

  it.each(['https://gateway.example.net/v1/models', 'https://GATEWAY.example.net./', 'http://gateway.example.net:8443/'])(
    "refuses the gateway's own host: %s",
    async (url) => {
      expect(await reasonFor(url)).toContain('is this gateway');
    },
  );

  it("matches an own host given with a port on that port only", async () => {
    const options = withDns({}, { ownHosts: ['127.0.0.1:8787'], allowHosts: ['127.0.0.1'] });
    expect(await reasonFor('http://127.0.0.1:8787/v1/chat', options)).toContain('is this gateway');
    expect(await reasonFor('http://0x7f.1:8787/', options)).toContain('is this gateway');
    expect((await checkUrl('http://127.0.0.1:9000/', options)).ok).toBe(true);
  });

  it('accepts an ordinary public name whose addresses are all public', async () => {
    const options = withDns({ 'example.com': [PUBLIC_V4, PUBLIC_V6] });
    const verdict = await checkUrl('https://Example.COM/path?q=1#frag', options);
    expect(verdict).toEqual({ ok: true, url: new URL('https://example.com/path?q=1#frag') });
  });

  it.each(['https://example.com./', 'https://www.example.co.uk/', 'http://xn--bcher-kva.example/'])('accepts %s', async (url) => {
    const options: GuardOptions = { ...everythingPublic, ownHosts: [] };
    expect((await checkUrl(url, options)).ok).toBe(true);
  });

  it('looks the name up without its trailing dot', async () => {
    const options = withDns({ 'example.com': [PUBLIC_V4] });
    expect((await checkUrl('https://example.com./', options)).ok).toBe(true);
  });

  it.each([
    ['a private address', ['10.0.0.5']],
    ['loopback', ['127.0.0.1']],
    ['the metadata address', ['169.254.169.254']],
    ['IPv6 loopback', ['::1']],
    ['an IPv4-mapped private address', ['::ffff:192.168.0.1']],
    ['one public and one private address', [PUBLIC_V4, '192.168.1.1']],
    ['a public IPv4 and a unique-local IPv6 address', [PUBLIC_V4, 'fd00::1']],
    ['something that is no address', ['not-an-ip']],
  ])('refuses a name resolving to %s', async (_, addresses) => {
    const options = withDns({ 'rebind.example.com': addresses });
    expect(await reasonFor('https://rebind.example.com/', options)).toMatch(/^The host rebind\.example\.com resolves to /);
  });

  it('refuses a name that does not resolve', async () => {
    expect(await reasonFor('https://nothing.example.com/', withDns({ 'nothing.example.com': [] }))).toContain('does not resolve');
  });

  it('refuses a name whose lookup fails', async () => {
    expect(await reasonFor('https://flaky.example.com/', withDns({}))).toContain('could not be resolved');
  });
});

describe('checkUrl: allowHosts', () => {
  const options = withDns({}, { allowHosts: ['localhost', '127.0.0.1', '::1', 'upstream.internal:9000'] });

  it.each(['http://localhost:8788/page', 'http://localhost./', 'http://127.0.0.1:9999/', 'http://2130706433/', 'http://[::1]:8080/', 'http://upstream.internal:9000/x'])(
    'exempts %s from the address checks',
    async (url) => {
      expect((await checkUrl(url, options)).ok).toBe(true);
    },
  );

  it('still requires http or https and no credentials', async () => {
    expect(await reasonFor('ftp://localhost/', options)).toMatch(/only http and https/);
    expect(await reasonFor('http://u:p@localhost/', options)).toMatch(/credentials/);
  });

  it('exempts only the listed hosts (and the listed port)', async () => {
    expect((await checkUrl('http://127.0.0.2/', options)).ok).toBe(false);
    expect((await checkUrl('http://upstream.internal:9001/', options)).ok).toBe(false);
    expect((await checkUrl('http://sub.localhost/', options)).ok).toBe(false);
  });
});

describe('checkUrl: the gateway itself, whatever the allow-list says', () => {
  const local = (allowHosts: string[], ownHosts = ['127.0.0.1:8787']): GuardOptions => ({ allowHosts, ownHosts, resolve: async () => [PUBLIC_V4] });

  it.each([
    'http://127.0.0.1:8787/health',
    'http://localhost:8787/health',
    'http://LOCALHOST.:8787/v1/models',
    'http://127.0.0.2:8787/',
    'http://[::1]:8787/',
    'http://0.0.0.0:8787/',
    'http://app.localhost:8787/',
  ])('refuses %s when the gateway answers on 127.0.0.1:8787 and localhost is allowed without a port', async (url) => {
    expect(await reasonFor(url, local(['localhost', '127.0.0.1', '::1', '0.0.0.0', '127.0.0.2', 'app.localhost']))).toMatch(/this gateway/);
  });

  it('still fetches another port of an allowed local host', async () => {
    expect((await checkUrl('http://localhost:9000/page', local(['localhost']))).ok).toBe(true);
  });

  it('refuses the public host of PUBLIC_BASE_URL even on an allow-list', async () => {
    expect(await reasonFor('https://gateway.example.net/health', local(['gateway.example.net'], ['gateway.example.net']))).toMatch(/this gateway/);
  });
});
