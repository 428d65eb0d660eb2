// What the gateway opened, closed last first, each once; a close that fails or hangs is logged, not thrown.
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

  /** `name` is what the log says when it will not close. */
  defer(name: string, close: () => Promise<void>): void {
    this.#open.push({ name, close });
  }

  /** With `until` each close gets its share of the time left, so one that hangs cannot hold the rest. */
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
