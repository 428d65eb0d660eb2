// A card's reports count at once, its message at most once an interval: chat.update is rate-limited.

/** Cards shown lately, remembered beyond this many only while they are within the interval. */
const REMEMBERED_CARDS = 1_000;

export class CardRefreshes<Scope> {
  readonly #everyMs: number;
  readonly #now: () => number;
  readonly #refresh: (cardId: string, scope: Scope) => Promise<void>;
  readonly #shownAt = new Map<string, number>();
  /** Cards with reports not shown yet, with the scope of the latest (its log fields). */
  readonly #due = new Map<string, { scope: Scope; timer: NodeJS.Timeout }>();

  constructor(options: {
    everyMs: number;
    now: () => number;
    /** Shows the card as stored now; its failures are its own to log. */
    refresh: (cardId: string, scope: Scope) => Promise<void>;
  }) {
    this.#everyMs = options.everyMs;
    this.#now = options.now;
    this.#refresh = options.refresh;
  }

  /** True when the card may be shown now; otherwise false, and one refresh is due at the interval's end. */
  mayShowNow(cardId: string, scope: Scope): boolean {
    const shownAt = this.#shownAt.get(cardId);
    const wait = shownAt === undefined ? 0 : shownAt + this.#everyMs - this.#now();
    if (wait <= 0) return true;
    const due = this.#due.get(cardId);
    if (due) {
      due.scope = scope;
      return false;
    }
    const timer = setTimeout(() => void this.#run(cardId), wait);
    // A refresh due must not keep a stopping process alive: a stop runs them at once (flush).
    timer.unref();
    this.#due.set(cardId, { scope, timer });
    return false;
  }

  /** The card's message now shows what is stored: nothing is due for it. */
  shown(cardId: string): void {
    const now = this.#now();
    this.#shownAt.delete(cardId);
    this.#shownAt.set(cardId, now);
    const due = this.#due.get(cardId);
    if (due) {
      clearTimeout(due.timer);
      this.#due.delete(cardId);
    }
    if (this.#shownAt.size > REMEMBERED_CARDS) {
      // Oldest first (a Map keeps insertion order, and a card shown again moves to the end).
      for (const [id, at] of this.#shownAt) {
        if (this.#shownAt.size <= REMEMBERED_CARDS || now - at < this.#everyMs) break;
        this.#shownAt.delete(id);
      }
    }
  }

  /** Runs every refresh that is due, now (a stop: no card is left showing less than was counted). */
  async flush(): Promise<void> {
    await Promise.all([...this.#due.keys()].map((cardId) => this.#run(cardId)));
  }

  async #run(cardId: string): Promise<void> {
    const due = this.#due.get(cardId);
    if (!due) return;
    clearTimeout(due.timer);
    this.#due.delete(cardId);
    await this.#refresh(cardId, due.scope);
  }
}
