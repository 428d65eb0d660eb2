// A table of listeners behind one Bolt registration. Bolt runs every registration's matchers on every
// request (docs/decisions/005). So each kind of request (events, clicks, modal
// submissions) has one registration, and this table finds the listener by the event type, action id
// or callback id, exact ids by a map and patterns in the order given.

export type Route<Args> = readonly [match: string | RegExp, listener: (args: Args) => Promise<void>];

export class Routes<Args> {
  readonly #exact = new Map<string, (args: Args) => Promise<void>>();
  readonly #patterns: Array<readonly [RegExp, (args: Args) => Promise<void>]> = [];
  /** Matches every key the table routes, and nothing else: what Bolt's one registration takes. */
  readonly pattern: RegExp;

  constructor(routes: readonly Route<Args>[]) {
    const alternatives: string[] = [];
    for (const [match, listener] of routes) {
      if (typeof match === 'string') {
        if (this.#exact.has(match)) throw new Error(`two listeners for ${match}`);
        this.#exact.set(match, listener);
        alternatives.push(`^${match.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
      } else {
        this.#patterns.push([match, listener]);
        alternatives.push(`(?:${match.source})`);
      }
    }
    this.pattern = new RegExp(alternatives.join('|'));
  }

  /** How many routes the table holds. */
  get size(): number {
    return this.#exact.size + this.#patterns.length;
  }

  /** The listener of `key`, or undefined when none routes it. */
  find(key: string): ((args: Args) => Promise<void>) | undefined {
    return this.#exact.get(key) ?? this.#patterns.find(([pattern]) => pattern.test(key))?.[1];
  }
}
