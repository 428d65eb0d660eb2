// The handlings still running, so a stopping gateway can wait for them.
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';

export class InFlight {
  readonly #handlings = new Set<Promise<void>>();

  get size(): number {
    return this.#handlings.size;
  }

  /** Its failure is logged as `failure`, never thrown. */
  track(handling: { logger: Logger }, work: Promise<void>, failure: string): Promise<void> {
    const settled = work.catch((error: unknown) => handling.logger.error(errorFields(error), failure));
    this.#handlings.add(settled);
    void settled.finally(() => this.#handlings.delete(settled));
    return settled;
  }

  async drain(): Promise<void> {
    while (this.#handlings.size > 0) await Promise.all(this.#handlings);
  }
}
