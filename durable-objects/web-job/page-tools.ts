// What a job's visit needs to load and read a page (HTML parsing, conversion, scrapers, link
// discovery): imported by the first visit, so a cold isolate does not evaluate it at startup.
export { parseHTML } from 'linkedom';
export { convertPage } from '../../src/web/convert';
export { findScraper } from '../../src/web/extract';
export { sameSiteLinks, siteOf } from '../../src/web/links';
export { loadPage } from '../../src/web/load-page';
export { admitUrl } from '../../src/web/policy';
