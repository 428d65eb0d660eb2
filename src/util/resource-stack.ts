// What the gateway has opened, closed from one stack: the last opened first, each once, whether
// start-up failed midway or the gateway is stopping. A close that fails or hangs is logged, never thrown.
import { errorFields } from '../logging/error-fields.js';
import type { Logger } from '../logging/logger.js';
import { EXPIRED, within } from './deadline.js';

interface OpenResource {
  name: string;
  close(): Promise<void>;
}

export class ResourceStack {
  readonly #logger: Logger;
  readonly #open: OpenResource[] = [];

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Registers how to close a resource just opened; `name` is what the log says when it will not close. */
  defer(name: string, close: () => Promise<void>): void {
    this.#open.push({ name, close });
  }

  /**
   * Closes every resource, the last opened first. Without `until` (epoch milliseconds) each close is
   * awaited to its end. With it, each may take its share of the time left, so one that hangs (a pool
   * waiting for a request in flight) neither keeps the others open nor outlasts `until`.
   * Resolves with the names of the resources still closing.
   */
  async closeAll(until?: number): Promise<string[]> {
    const stillClosing: string[] = [];
    for (let resource = this.#open.pop(); resource; resource = this.#open.pop()) {
      const closing = this.#close(resource);
      if (until === undefined) {
        await closing;
        continue;
      }
      const share = Math.max(0, until - Date.now()) / (this.#open.length + 1);
      if ((await within(closing, share)) === EXPIRED) stillClosing.push(resource.name);
    }
    return stillClosing;
  }

  async #close(resource: OpenResource): Promise<void> {
    try {
      await resource.close();
    } catch (error) {
      this.#logger.warn({ ...errorFields(error), resource: resource.name }, `${resource.name} did not close`);
    }
  }
}
