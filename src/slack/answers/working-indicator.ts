/**
 * The "working on it" message of one question. Shown only when the robot has not answered within
 * the delay: a fast answer then arrives as one message, so the notification carries the answer
 * rather than a placeholder, and Slack gets one call instead of two.
 */
export class WorkingIndicator {
  readonly #show: (replaceTs: string | undefined) => Promise<string | undefined>;
  #shown: Promise<string | undefined>;
  #timer: NodeJS.Timeout | undefined;

  /** `existingTs`: a message the answer replaces anyway (the failure whose Try again was clicked). */
  constructor(show: (replaceTs: string | undefined) => Promise<string | undefined>, existingTs?: string) {
    this.#show = show;
    this.#shown = Promise.resolve(existingTs);
  }

  /** Shows the indicator after `delayMs`; at once (and waits for it) when the delay is 0. */
  async start(delayMs: number): Promise<void> {
    if (delayMs <= 0) {
      await this.#display();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#display();
    }, delayMs);
  }

  /** The answer is ready: no indicator from now on. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** The message the answer should replace, once any post of the indicator in flight has settled. */
  shownTs(): Promise<string | undefined> {
    return this.#shown;
  }

  #display(): Promise<void> {
    const previous = this.#shown;
    this.#shown = previous.then((ts) => this.#show(ts)).catch(() => undefined);
    return this.#shown.then(() => undefined);
  }
}
