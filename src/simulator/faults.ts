// Injected failures: one active fault at a time, optionally limited to some actions and a number of requests.
export type Fault = (
  | { kind: 'http500' }
  | { kind: 'code'; code: string }
  | { kind: 'delay'; ms: number }
  | { kind: 'drop' }
  | { kind: 'malformed' }
  | { kind: 'expiredToken' }
) & { actions?: string[]; times?: number };

/** The token endpoint carries no action of its own. */
export const TOKEN_ACTION = 'getAccessToken';

export class Faults {
  private active: { fault: Fault; remaining: number | undefined } | undefined;

  /** The last one set wins. */
  set(fault: Fault): void {
    this.active = { fault: { ...fault }, remaining: fault.times };
  }

  clear(): void {
    this.active = undefined;
  }

  /** Counts it against `times` and clears itself when used up. */
  take(action: string): Fault | undefined {
    const active = this.active;
    if (!active) return undefined;
    const { fault } = active;
    if (fault.actions && !fault.actions.includes(action)) return undefined;
    if (fault.kind === 'expiredToken' && action === TOKEN_ACTION) return undefined;
    if (active.remaining !== undefined) {
      if (active.remaining <= 0) {
        this.active = undefined;
        return undefined;
      }
      active.remaining -= 1;
      if (active.remaining === 0) this.active = undefined;
    }
    return fault;
  }
}
