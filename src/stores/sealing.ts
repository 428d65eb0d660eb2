// Secrets at rest (bot tokens, a workspace's platform key): AES-256-GCM under SLACK_INSTALLATION_KEY,
// each sealed value bound to the key it is stored under, so a value moved to another key does not open.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { parseJsonWith } from '../util/json.js';
import type { Namespace } from './namespace.js';

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a person can do about a missing or unreadable key, in the one line start-up prints. */
export const MAKE_A_KEY = 'make one with `openssl rand -base64 32`';

export class Sealer {
  readonly #key: Buffer;
  /** Names the key in every sealed value, so a value sealed under another key is told apart from a forged one. */
  readonly keyId: string;

  private constructor(key: Buffer) {
    this.#key = key;
    this.keyId = createHash('sha256').update(key).digest('base64url').slice(0, 8);
  }

  /** Undefined unless `text` is base64 of exactly 32 bytes. */
  static fromBase64(text: string): Sealer | undefined {
    const trimmed = text.trim();
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) return undefined;
    const key = Buffer.from(trimmed, 'base64');
    return key.length === KEY_BYTES ? new Sealer(key) : undefined;
  }

  /** `binding`: where the value is stored (its namespace and key); opening elsewhere fails. */
  seal(plaintext: string, binding: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(`${VERSION}.${this.keyId}.${binding}`, 'utf8'));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, this.keyId, iv, cipher.getAuthTag(), sealed]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** Undefined for a value sealed under another key or binding, cut, or changed in any byte. */
  open(value: string, binding: string): string | undefined {
    const [version, keyId, iv, tag, sealed, extra] = value.split('.');
    if (version !== VERSION || keyId !== this.keyId || extra !== undefined) return undefined;
    if (iv === undefined || tag === undefined || sealed === undefined) return undefined;
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, ivBytes, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(`${VERSION}.${this.keyId}.${binding}`, 'utf8'));
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      return undefined;
    }
  }
}

/** Where sealed values are kept: a store namespace of strings. */
export type SealedValues = Pick<Namespace<string>, 'get' | 'set' | 'delete'>;

/** JSON values kept sealed; one that is absent, does not open or does not parse reads as undefined. */
export type SealedJson<T> = Pick<Namespace<T>, 'get' | 'set' | 'delete'>;

/** Each value bound to `namespace` and its key, so it opens under no other. */
export function sealedJson<T>(
  values: SealedValues,
  sealer: Sealer,
  namespace: string,
  schema: z.ZodType<T>,
): SealedJson<T> {
  const binding = (key: string) => `${namespace}:${key}`;
  return {
    async get(key) {
      const sealed = await values.get(key);
      return parseJsonWith(sealed === undefined ? undefined : sealer.open(sealed, binding(key)), schema);
    },
    set: (key, value, ttlSeconds) =>
      values.set(key, sealer.seal(JSON.stringify(value), binding(key)), ttlSeconds),
    delete: (key) => values.delete(key),
  };
}
