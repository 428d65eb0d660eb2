// A time limit on one piece of work that does not cancel it: the work goes on, but whoever waits
// on it stops waiting when the limit passes.

export const EXPIRED: unique symbol = Symbol('expired');

export class Deadline {
  readonly #expired: Promise<typeof EXPIRED>;
  #timer: NodeJS.Timeout | undefined;

  constructor(ms: number) {
    this.#expired = new Promise((resolve) => {
      this.#timer = setTimeout(resolve, ms, EXPIRED);
    });
  }

  /** What `work` gives, or EXPIRED when the deadline passes first; `work` goes on either way. */
  race<T>(work: Promise<T>): Promise<T | typeof EXPIRED> {
    // The race subscribes to `work`, so its late failure is not an unhandled rejection.
    return Promise.race([work, this.#expired]);
  }

  /** The work is over: the timer need not keep running. */
  clear(): void {
    clearTimeout(this.#timer);
  }
}

/** What `work` gives, or EXPIRED after `ms`; `work` goes on either way, and no timer is left behind. */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | typeof EXPIRED> {
  const deadline = new Deadline(Math.max(0, ms));
  try {
    return await deadline.race(work);
  } finally {
    deadline.clear();
  }
}
