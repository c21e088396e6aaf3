/**
 * `/assets/claim.js`: runs a page's passkey form (`data-passkey="register"` on the claim page,
 * `"signin"` on the sign-in page) with @simplewebauthn/browser (`/assets/webauthn.js`, loaded
 * first): asks our server for the ceremony's options, lets the browser talk to the authenticator,
 * posts the result back with the page's CSRF token, and follows the redirect it is given.
 */
export const PASSKEY_JS = `
(() => {
  const form = document.querySelector('form[data-passkey]');
  if (!form) return;
  const status = document.getElementById('passkey-status');
  const button = form.querySelector('button');
  const csrf = form.querySelector('input[name=csrf]').value;
  const say = (text, isError) => {
    status.textContent = text;
    status.className = isError ? 'status error' : 'status';
  };
  const post = async (url, body) => {
    const res = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
      body: JSON.stringify(body),
    });
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error((answer.error && answer.error.message) || 'The gateway answered ' + res.status + '.');
    return answer;
  };
  const explain = (err) => {
    // The browser's own refusals: the person closed the prompt, or it timed out.
    if (err && err.name === 'NotAllowedError') return 'The passkey prompt was closed or timed out. Try again.';
    if (err && err.name === 'InvalidStateError') return 'This device already has a passkey for this account.';
    return (err && err.message) || 'Something went wrong. Try again.';
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const lib = window.SimpleWebAuthnBrowser;
    if (!lib || !lib.browserSupportsWebAuthn()) {
      say('This browser cannot use passkeys.', true);
      return;
    }
    button.disabled = true;
    say('Waiting for your passkey…', false);
    try {
      const optionsJSON = await post(form.dataset.optionsUrl, {});
      const response = form.dataset.passkey === 'register'
        ? await lib.startRegistration({ optionsJSON })
        : await lib.startAuthentication({ optionsJSON });
      say('Checking…', false);
      const result = await post(form.dataset.verifyUrl, { response });
      say('Done. Opening your account…', false);
      window.location.assign(result.redirect);
    } catch (err) {
      say(explain(err), true);
      button.disabled = false;
    }
  });
})();
`;
