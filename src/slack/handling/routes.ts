// Listeners behind one Bolt registration per kind of request: Bolt runs every matcher on every request
// (docs/decisions/005).
export type Route<Args> = readonly [match: string | RegExp, listener: (args: Args) => Promise<void>];

export class Routes<Args> {
  readonly #exact = new Map<string, (args: Args) => Promise<void>>();
  readonly #patterns: Array<readonly [RegExp, (args: Args) => Promise<void>]> = [];
  /** What Bolt's one registration takes. */
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

  get size(): number {
    return this.#exact.size + this.#patterns.length;
  }

  find(key: string): ((args: Args) => Promise<void>) | undefined {
    return this.#exact.get(key) ?? this.#patterns.find(([pattern]) => pattern.test(key))?.[1];
  }
}
