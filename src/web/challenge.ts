/**
 * Anti-bot interstitials, recognised by the markup their vendors serve instead of the page. A
 * page that matches is "blocked": `stealth: auto` escalates, and nothing is billed for it (D1).
 */
const CHALLENGE_MARKERS: { vendor: string; pattern: RegExp }[] = [
  { vendor: 'cloudflare', pattern: /<title>\s*(Just a moment\.\.\.|Attention Required! \| Cloudflare)\s*<\/title>|cf-browser-verification|challenges\.cloudflare\.com\/cdn-cgi\/challenge-platform|window\._cf_chl_opt|cf_chl_prog/i },
  { vendor: 'datadome', pattern: /captcha-delivery\.com|geo\.captcha-delivery|dd\.datadome/i },
  { vendor: 'perimeterx', pattern: /_pxCaptcha|px-captcha|perimeterx\.net|window\._pxAppId/i },
  { vendor: 'akamai', pattern: /<title>\s*Access Denied\s*<\/title>[\s\S]*Reference\s*#[\d.a-f]+|_abck|ak_bmsc.*sensor_data/i },
  { vendor: 'imperva', pattern: /_Incapsula_Resource|Incapsula incident ID|imperva/i },
  { vendor: 'sucuri', pattern: /sucuri_cloudproxy_js|Sucuri WebSite Firewall - Access Denied/i },
  { vendor: 'aws-waf', pattern: /awswaf\.com|aws-waf-token|AwsWafIntegration/i },
  { vendor: 'kasada', pattern: /ips\.js\?|KPSDK/i },
  { vendor: 'generic-captcha', pattern: /<title>[^<]*(captcha|are you a robot|verify you are human|bot check)[^<]*<\/title>/i },
];

/** Statuses that mean "not for you": escalate rather than bill a block page. */
const BLOCK_STATUSES = new Set([401, 403, 429, 503]);

/** Only the head of a page is searched: interstitials are small, real pages can be megabytes. */
const SCAN_BYTES = 64 * 1024;

export function challengeVendor(html: string): string | null {
  const head = html.slice(0, SCAN_BYTES);
  return CHALLENGE_MARKERS.find(({ pattern }) => pattern.test(head))?.vendor ?? null;
}

/** Whether the standard rail's answer is a block: a refusing status, or a challenge page. */
export function isBlocked(status: number, html: string): boolean {
  return BLOCK_STATUSES.has(status) || challengeVendor(html) !== null;
}
