// Runs tasks one after another per key (one user's questions are answered in the order asked),
// while different keys run concurrently. Idle keys are dropped, so memory follows the work in flight.

export class KeyedQueue {
  readonly #tails = new Map<string, Promise<void>>();

  /** Whether the key has work queued or running. */
  has(key: string): boolean {
    return this.#tails.has(key);
  }

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    // The chain must continue whether the task succeeded or not.
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Resolves when every queued task has settled. */
  async drain(): Promise<void> {
    while (this.#tails.size > 0) {
      await Promise.all(this.#tails.values());
    }
  }
}
