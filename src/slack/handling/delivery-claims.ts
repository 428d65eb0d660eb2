// Slack retries deliveries and has sent one message under two event ids: a message is claimed first.
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import type { OnceStore } from './stores.js';

export interface DeliveryClaims {
  claim(key: string, logger: Logger): Promise<boolean>;
  /** Nothing reached the user: Slack's retry is answered, not dropped. */
  release(key: string): Promise<void>;
  /** Remembered for as long as Slack may retry it. */
  keep(key: string, logger: Logger): Promise<void>;
}

export function deliveryClaims(
  store: OnceStore,
  settings: {
    /** Far shorter than rememberSeconds, so a retry of a delivery whose process died is answered. */
    handlingLeaseSeconds: number;
    rememberSeconds: number;
  },
): DeliveryClaims {
  return {
    async claim(key, logger) {
      try {
        return await store.claim(key, settings.handlingLeaseSeconds);
      } catch (error) {
        // Answer rather than drop the question.
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
