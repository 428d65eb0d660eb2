// Small polling and timeout helpers shared by the fakes and the e2e suites.

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface WaitForOptions {
  timeoutMs?: number | undefined;
  intervalMs?: number | undefined;
  /** Appended to the timeout error; a function so it can describe the state at the moment of failure. */
  message?: string | (() => string) | undefined;
}

/** Polls `check` until it returns something other than undefined/false, and returns that value. */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  { timeoutMs = 3_000, intervalMs = 10, message }: WaitForOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() >= deadline) {
      const detail = typeof message === 'function' ? message() : message;
      throw new Error(`waitFor: condition not met within ${timeoutMs}ms${detail ? `: ${detail}` : ''}`);
    }
    await sleep(intervalMs);
  }
}

/** Rejects with `message` if `promise` has not settled within `ms`; the timer never keeps the process alive. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} (timed out after ${ms}ms)`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
