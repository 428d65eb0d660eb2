// The OAuth `state`: signed with SLACK_STATE_SECRET, good for ten minutes, and good once on any replica
// (a replayed state is refused even with its cookie), as InstallProvider's own state store is not.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type InstallURLOptions, InvalidStateError, type StateStore } from '@slack/oauth';

const STATE_SECONDS = 600;
/** A state from a clock a little ahead is still this replica's own. */
const SKEW_MS = 60_000;

interface OnceClaims {
  claim(key: string, ttlSeconds: number): Promise<boolean>;
}

export class OnceStates implements StateStore {
  readonly #secret: string;
  readonly #claims: OnceClaims;
  readonly #installOptions: InstallURLOptions;

  constructor(secret: string, claims: OnceClaims, installOptions: InstallURLOptions) {
    this.#secret = secret;
    this.#claims = claims;
    this.#installOptions = installOptions;
  }

  async generateStateParam(_options: InstallURLOptions, now: Date): Promise<string> {
    const signed = `${randomBytes(18).toString('base64url')}.${now.getTime()}`;
    return `${signed}.${this.#mac(signed)}`;
  }

  async verifyStateParam(now: Date, state: string): Promise<InstallURLOptions> {
    const [nonce, issuedAt, mac, extra] = state.split('.');
    const expected = Buffer.from(this.#mac(`${nonce}.${issuedAt}`));
    const given = Buffer.from(mac ?? '');
    const shaped = nonce && issuedAt && extra === undefined && /^\d{1,15}$/.test(issuedAt);
    if (!shaped || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new InvalidStateError('the state is not one this app made');
    }
    const age = now.getTime() - Number(issuedAt);
    if (age > STATE_SECONDS * 1000 || age < -SKEW_MS) throw new InvalidStateError('the state has expired');
    if (!(await this.#claims.claim(`state:${nonce}`, STATE_SECONDS))) {
      throw new InvalidStateError('the state was already used');
    }
    return this.#installOptions;
  }

  #mac(text: string): string {
    return createHmac('sha256', this.#secret).update(text).digest('base64url');
  }
}
