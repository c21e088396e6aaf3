// @simplewebauthn/browser's UMD build, bundled as text by the Text rule for this one file in
// wrangler.toml (which the Vitest pool reads too) and served as /assets/webauthn.js. The package's
// `exports` do not list the file, hence the relative path; its type is in webauthn-browser.d.ts.
export { default } from '../../node_modules/@simplewebauthn/browser/dist/bundle/index.umd.min.js';
