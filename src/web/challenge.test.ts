import { describe, expect, it } from 'vitest';
import { challengeVendor, isBlocked } from './challenge';

describe('anti-bot interstitials', () => {
  it.each([
    ['cloudflare', '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script>window._cf_chl_opt={cvId: "3"}</script></body></html>'],
    ['cloudflare', '<html><head><title>Attention Required! | Cloudflare</title></head></html>'],
    ['datadome', '<html><body><script src="https://ct.captcha-delivery.com/c.js"></script></body></html>'],
    ['perimeterx', '<html><body><div id="px-captcha"></div></body></html>'],
    ['imperva', '<html><body><iframe src="/_Incapsula_Resource?SWUDNSAI=1"></iframe></body></html>'],
    ['akamai', '<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>You don\'t have permission. Reference #18.2f1c2f17.1700000000.5e0</BODY></HTML>'],
    ['sucuri', '<html><title>Sucuri WebSite Firewall - Access Denied</title></html>'],
    ['generic-captcha', '<html><head><title>Please verify you are human</title></head></html>'],
  ])('recognises %s', (vendor, html) => {
    expect(challengeVendor(html)).toBe(vendor);
    expect(isBlocked(200, html)).toBe(true);
  });

  it('passes an ordinary article, even one that mentions Cloudflare', () => {
    const html = '<html><head><title>How Cloudflare challenges bots</title></head><body><article><h1>Bots</h1><p>Text.</p></article></body></html>';
    expect(challengeVendor(html)).toBeNull();
    expect(isBlocked(200, html)).toBe(false);
  });

  it.each([401, 403, 429, 503])('treats status %i as blocked', (status) => {
    expect(isBlocked(status, '<html><body>nope</body></html>')).toBe(true);
  });

  it('does not treat a 404 as a block', () => {
    expect(isBlocked(404, '<html><body>Not found</body></html>')).toBe(false);
  });
});
