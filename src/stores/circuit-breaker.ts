// The circuit breaker in front of the Redis connection: after a failure, calls are skipped at once
// until a probe finds the backend answering again.

export interface CircuitBreakerOptions {
  /**
   * Resolves true when the backend answers. Awaited to its end, so at most one probe is ever in
   * flight: replies come back in order, so a second one could not answer before the first anyway.
   */
  probe: () => Promise<boolean>;
  /** Pause after a failed probe before the next one. */
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
    if (!(options.probeIntervalMs > 0)) {
      throw new RangeError(`probeIntervalMs must be positive, got ${options.probeIntervalMs}`);
    }
    this.#options = options;
  }

  /** True while calls should be skipped. */
  get isOpen(): boolean {
    return this.#open;
  }

  /** A call failed for want of the backend: skip calls from now on and start probing. */
  trip(cause: unknown): void {
    if (this.#open || this.#disposed) return;
    this.#open = true;
    this.#options.onOpen?.(cause);
    this.probeNow();
  }

  /** Probes at once instead of after the pause, e.g. when the connection has just come back. */
  probeNow(): void {
    if (!this.#open || this.#probing || this.#disposed) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    void this.#probe();
  }

  /** Stops probing for good; the owner is closing the backend. */
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
