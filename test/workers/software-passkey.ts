import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator for whole-request tests: an ES256 (P-256) key pair made with
 * WebCrypto, answering the gateway's registration and sign-in options as a browser with a
 * resident, user-verifying passkey would (attestation `none`). Each instance is one credential.
 */
export class SoftwarePasskey {
  readonly #keys: Promise<CryptoKeyPair>;
  readonly credentialId = crypto.getRandomValues(new Uint8Array(16));
  #counter = 0;

  constructor(
    readonly origin = 'https://gateway.test',
    readonly rpId = 'gateway.test',
  ) {
    this.#keys = crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
  }

  get id(): string {
    return isoBase64URL.fromBuffer(this.credentialId);
  }

  /** The body `POST /claim/<id>/passkey/verify` takes, answering registration `options`. */
  async register(options: { challenge: string }): Promise<{ response: Record<string, unknown> }> {
    const jwk = (await crypto.subtle.exportKey('jwk', (await this.#keys).publicKey)) as JsonWebKey;
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, isoBase64URL.toBuffer(jwk.x!)],
      [-3, isoBase64URL.toBuffer(jwk.y!)],
    ]);
    const idLength = new Uint8Array([this.credentialId.length >> 8, this.credentialId.length & 0xff]);
    // Flags: user present, user verified, attested credential data.
    const authData = concat(await this.#rpIdHash(), new Uint8Array([0x45]), counterBytes(this.#counter), new Uint8Array(16), idLength, this.credentialId, isoCBOR.encode(cose));
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as Parameters<typeof isoCBOR.encode>[0]);
    return {
      response: {
        id: this.id,
        rawId: this.id,
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: this.#clientData('webauthn.create', options.challenge),
          attestationObject: isoBase64URL.fromBuffer(attestationObject),
          transports: ['internal'],
        },
      },
    };
  }

  /** The body `POST /signin/verify` takes, answering sign-in `options`. */
  async signIn(options: { challenge: string }): Promise<{ response: Record<string, unknown> }> {
    this.#counter += 1;
    const authData = concat(await this.#rpIdHash(), new Uint8Array([0x05]), counterBytes(this.#counter));
    const clientDataJSON = this.#clientData('webauthn.get', options.challenge);
    const clientHash = new Uint8Array(await crypto.subtle.digest('SHA-256', isoBase64URL.toBuffer(clientDataJSON)));
    const raw = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, (await this.#keys).privateKey, concat(authData, clientHash)));
    return {
      response: {
        id: this.id,
        rawId: this.id,
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON,
          authenticatorData: isoBase64URL.fromBuffer(authData),
          signature: isoBase64URL.fromBuffer(derSignature(raw)),
        },
      },
    };
  }

  #clientData(type: string, challenge: string): string {
    return isoBase64URL.fromUTF8String(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  async #rpIdHash(): Promise<Uint8Array> {
    return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(this.rpId)));
  }
}

function counterBytes(n: number): Uint8Array {
  return new Uint8Array([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** WebCrypto's r||s as the ASN.1 DER sequence WebAuthn carries. */
function derSignature(raw: Uint8Array): Uint8Array<ArrayBuffer> {
  const integer = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i += 1;
    const trimmed = bytes.slice(i);
    const body = trimmed[0]! & 0x80 ? concat(new Uint8Array([0]), trimmed) : trimmed;
    return concat(new Uint8Array([0x02, body.length]), body);
  };
  const seq = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)));
  return concat(new Uint8Array([0x30, seq.length]), seq);
}
