// One user's questions are answered in the order asked; idle keys are dropped with their work.
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<void>>();

  /** Whether any key has work queued or running. */
  get busy(): boolean {
    return this.#tails.size > 0;
  }

  has(key: string): boolean {
    return this.#tails.has(key);
  }

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
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

  async drain(): Promise<void> {
    while (this.#tails.size > 0) await Promise.all(this.#tails.values());
  }
}
