// A time limit that does not cancel the work: whoever waits on it stops waiting when the limit passes.
export const EXPIRED: unique symbol = Symbol('expired');

export class Deadline {
  /** Epoch ms when it passes. */
  readonly at: number;
  readonly #expired: Promise<typeof EXPIRED>;
  #timer: NodeJS.Timeout | undefined;

  constructor(ms: number) {
    this.at = Date.now() + ms;
    this.#expired = new Promise((resolve) => {
      this.#timer = setTimeout(resolve, ms, EXPIRED);
    });
  }

  /** `work` goes on either way. */
  race<T>(work: Promise<T>): Promise<T | typeof EXPIRED> {
    // The race subscribes to `work`, so its late failure is not an unhandled rejection.
    return Promise.race([work, this.#expired]);
  }

  clear(): void {
    clearTimeout(this.#timer);
  }
}

/** `work` goes on either way, and no timer is left behind. */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | typeof EXPIRED> {
  const deadline = new Deadline(Math.max(0, ms));
  try {
    return await deadline.race(work);
  } finally {
    deadline.clear();
  }
}
