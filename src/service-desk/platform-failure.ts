// What a person is told about a platform call that failed, read from the client's error family: the
// platform said no to the request, answered with an error, or could not be reached at all.
import { isPlatformError, type PlatformFailureKind, platformFailureKind } from '../platform/errors.js';

/**
 * `refused`: the platform answered "no" to this request (a code, or a request the spec forbids);
 * `unavailable`: it answered, with an error (an HTTP error, a body that is not the spec's);
 * `unreachable`: no answer came (no connection, a timeout, a reset).
 */
export type PlatformFailureReason = 'refused' | 'unavailable' | 'unreachable';

export function platformFailureReason(error: unknown): PlatformFailureReason {
  if (!isPlatformError(error)) return 'unavailable';
  return DESK_REASONS[platformFailureKind(error)];
}

/** A body not of the spec is the platform answering with an error; a timeout is it not answering. */
const DESK_REASONS: Record<PlatformFailureKind, PlatformFailureReason> = {
  refused: 'refused',
  unavailable: 'unavailable',
  malformed: 'unavailable',
  timeout: 'unreachable',
  unreachable: 'unreachable',
};
