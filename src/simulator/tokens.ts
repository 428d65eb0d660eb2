// Access tokens of the simulator: one static configured token plus fetched tokens that expire.
import { randomBytes } from 'node:crypto';

export class TokenStore {
  private readonly issued = new Map<string, number>();
  issuedCount = 0;

  constructor(
    private readonly staticToken: string,
    private readonly now: () => Date,
  ) {}

  /** A fresh 40-character token valid for `ttlSeconds` of simulated time. */
  issue(ttlSeconds: number): string {
    // Tokens are credentials, not seed data: random on purpose, so two simulators never share one.
    const token = randomBytes(20).toString('hex');
    this.issued.set(token, this.now().getTime() + ttlSeconds * 1000);
    this.issuedCount += 1;
    return token;
  }

  isValid(token: string): boolean {
    if (token === this.staticToken) return true;
    const expiresAt = this.issued.get(token);
    return expiresAt !== undefined && this.now().getTime() < expiresAt;
  }

  /** Expires every fetched token; the configured static token keeps working. */
  expireAll(): void {
    for (const token of this.issued.keys()) this.issued.set(token, Number.NEGATIVE_INFINITY);
  }
}
