// Slack retries a delivery it thinks was lost, and has delivered one message twice under different
// event ids: a message is answered once, across retries and replicas, by claiming it first.

import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import type { OnceStore } from './stores.js';

export interface DeliveryClaims {
  /** True for the first delivery of a key. */
  claim(key: string, logger: Logger): Promise<boolean>;
  /** Nothing reached the user: the delivery is given back, so Slack's retry is answered, not dropped. */
  release(key: string): Promise<void>;
  /** Answered: from now on the delivery is remembered for as long as Slack may retry it. */
  keep(key: string, logger: Logger): Promise<void>;
}

export function deliveryClaims(
  store: OnceStore,
  settings: {
    /**
     * How long a delivery being handled stays claimed before it is answered: longer than a handling
     * takes, far shorter than rememberSeconds, so Slack's retry of a delivery whose handling died with
     * its process is answered rather than dropped.
     */
    handlingLeaseSeconds: number;
    /** How long an answered delivery is remembered. */
    rememberSeconds: number;
  },
): DeliveryClaims {
  return {
    async claim(key, logger) {
      try {
        return await store.claim(key, settings.handlingLeaseSeconds);
      } catch (error) {
        // When the store is down, answer rather than drop the question.
        logger.warn(errorFields(error), 'de-duplication store unavailable; answering without it');
        return true;
      }
    },
    release: (key) => store.release(key).catch(() => undefined),
    keep: (key, logger) =>
      store
        .keep(key, settings.rememberSeconds)
        .catch((error: unknown) => logger.warn(errorFields(error), 'answered delivery not remembered')),
  };
}
