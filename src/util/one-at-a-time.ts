// One call in flight per key: a caller meanwhile shares its promise, forgotten once it settles.
export class OneAtATime<T> {
  readonly #inFlight = new Map<string, Promise<T>>();

  run(key: string, start: () => Promise<T>): Promise<T> {
    let running = this.#inFlight.get(key);
    if (!running) {
      running = start().finally(() => this.#inFlight.delete(key));
      this.#inFlight.set(key, running);
    }
    return running;
  }
}
