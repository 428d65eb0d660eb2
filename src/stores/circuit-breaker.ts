// After a Redis failure calls are skipped at once until a probe finds the backend answering again.
import { positive } from '../util/positive.js';

export interface CircuitBreakerOptions {
  /** Awaited to its end, so one probe in flight: replies come back in order anyway. */
  probe: () => Promise<boolean>;
  probeIntervalMs: number;
  onOpen?: (cause: unknown) => void;
  onClose?: () => void;
}

export class CircuitBreaker {
  readonly #options: CircuitBreakerOptions;
  #open = false;
  #probing = false;
  #disposed = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: CircuitBreakerOptions) {
    positive('probeIntervalMs', options.probeIntervalMs);
    this.#options = options;
  }

  get isOpen(): boolean {
    return this.#open;
  }

  trip(cause: unknown): void {
    if (this.#open || this.#disposed) return;
    this.#open = true;
    this.#options.onOpen?.(cause);
    this.probeNow();
  }

  /** E.g. when the connection has just come back. */
  probeNow(): void {
    if (!this.#open || this.#probing || this.#disposed) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    void this.#probe();
  }

  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #probe(): Promise<void> {
    this.#probing = true;
    let answered: boolean;
    try {
      answered = await this.#options.probe();
    } catch {
      answered = false;
    } finally {
      this.#probing = false;
    }
    if (this.#disposed || !this.#open) return;
    if (answered) {
      this.#open = false;
      this.#options.onClose?.();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.probeNow();
    }, this.#options.probeIntervalMs);
    // An outage must not keep a stopping process alive.
    this.#timer.unref();
  }
}
