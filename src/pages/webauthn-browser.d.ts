/** The text of @simplewebauthn/browser's UMD build (see webauthn-browser.js). */
declare const source: string;
export default source;
