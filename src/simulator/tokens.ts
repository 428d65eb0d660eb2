import { randomBytes } from 'node:crypto';

export class TokenStore {
  private readonly issued = new Map<string, number>();

  constructor(
    private readonly staticToken: string,
    private readonly now: () => Date,
  ) {}

  issue(ttlSeconds: number): string {
    // Credentials, not seed data: random so two simulators never share one.
    const token = randomBytes(20).toString('hex');
    this.issued.set(token, this.now().getTime() + ttlSeconds * 1000);
    return token;
  }

  isValid(token: string): boolean {
    if (token === this.staticToken) return true;
    const expiresAt = this.issued.get(token);
    return expiresAt !== undefined && this.now().getTime() < expiresAt;
  }

  expireAll(): void {
    for (const token of this.issued.keys()) this.issued.set(token, Number.NEGATIVE_INFINITY);
  }
}
