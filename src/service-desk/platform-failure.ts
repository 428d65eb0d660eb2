// The kind of a failed platform call, for any error the desk's operations catch.
import { isPlatformError, type PlatformFailureKind, platformFailureKind } from '../platform/errors.js';

/** Anything but the client's own errors is told as the platform answering with an error. */
export function platformFailureReason(error: unknown): PlatformFailureKind {
  return isPlatformError(error) ? platformFailureKind(error) : 'unavailable';
}
