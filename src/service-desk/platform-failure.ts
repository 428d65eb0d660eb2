// What a person is told about a platform call that failed, read from the client's error family: the
// platform said no to the request, answered with an error, or could not be reached at all.
import { isPlatformError } from '../platform/errors.js';

/**
 * `refused`: the platform answered "no" to this request (a code, or a request the spec forbids);
 * `unavailable`: it answered, with an error (an HTTP error, a body that is not the spec's);
 * `unreachable`: no answer came (no connection, a timeout, a reset).
 */
export type PlatformFailureReason = 'refused' | 'unavailable' | 'unreachable';

export function platformFailureReason(error: unknown): PlatformFailureReason {
  if (!isPlatformError(error)) return 'unavailable';
  switch (error.code) {
    case 'PLATFORM_CODE':
    case 'PLATFORM_REQUEST_INVALID':
      return 'refused';
    case 'PLATFORM_TRANSPORT':
      return 'unreachable';
    case 'PLATFORM_TOKEN':
      // The token endpoint not answering is the platform not answering.
      return isPlatformError(error.cause) && error.cause.code === 'PLATFORM_TRANSPORT'
        ? 'unreachable'
        : 'unavailable';
    case 'PLATFORM_HTTP_STATUS':
    case 'PLATFORM_MALFORMED_RESPONSE':
      return 'unavailable';
  }
}
