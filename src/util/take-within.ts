// Taking a lock another replica may hold: tried again until a wait runs out.

/**
 * Tries `tryTake` until it succeeds or `waitMs` has passed, pausing about `pollMs` between tries
 * (jittered, so replicas waiting for the same lock do not retry in step); false when the wait ran out.
 */
export async function takeWithin(
  tryTake: () => boolean | Promise<boolean>,
  wait: { waitMs: number; pollMs: number },
): Promise<boolean> {
  const giveUpAt = Date.now() + wait.waitMs;
  for (;;) {
    if (await tryTake()) return true;
    if (Date.now() >= giveUpAt) return false;
    const pause = wait.pollMs * (0.75 + Math.random() / 2);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
