/**
 * How the gateway mails a person (the claim's one-time code). Pluggable: production sends through
 * a Cloudflare `send_email` binding named `EMAIL` from the address in `EMAIL_FROM`. Without both,
 * a gateway served on a loopback or test address (`npm start`, the tests) writes the message to its log;
 * any other gateway has no sender, and a claim cannot be bound to an email (a code in a
 * production log would be readable by whoever reads the logs).
 */

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface EmailSender {
  send(message: EmailMessage): Promise<void>;
}

/** Sends through Cloudflare Email Service (the `send_email` binding). */
export function bindingSender(binding: SendEmail, from: string): EmailSender {
  return {
    async send(message) {
      await binding.send({ from, to: message.to, subject: message.subject, text: message.text });
    },
  };
}

/** Writes the message to the Worker's log: for local runs and tests, where no mail can leave. */
export const logSender: EmailSender = {
  async send(message) {
    console.log(`[email] to ${message.to}: ${message.subject}\n${message.text}`);
  },
};

/** The sender this deployment has: the binding when configured, the log on a loopback address, else none. */
export function emailSender(env: Env, publicBase: string): EmailSender | undefined {
  if (env.EMAIL && env.EMAIL_FROM) return bindingSender(env.EMAIL, env.EMAIL_FROM);
  return isLocal(new URL(publicBase).hostname) ? logSender : undefined;
}

/** A loopback address, or a name RFC 6761 reserves for local use and tests (`*.localhost`, `*.test`): never a public gateway. */
function isLocal(host: string): boolean {
  return host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || /(^|\.)(localhost|test)$/.test(host);
}
