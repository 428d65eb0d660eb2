// The kind of a failed platform call, for any error the desk's operations catch.
import { isPlatformError, type PlatformFailureKind, platformFailureKind } from '../platform/errors.js';
import { CodedError } from '../util/coded-error.js';

/** The workspace asked has no platform account: nobody set one up, and the environment names none. */
export class NotSetUpError extends CodedError<'NOT_SET_UP'> {
  readonly code = 'NOT_SET_UP' as const;
  override readonly outside = true;
}

/** Why the desk could not read the platform: how it failed, or there is no account to read. */
export type DeskFailureKind = PlatformFailureKind | 'not_set_up';

/** Anything but the client's own errors is told as the platform answering with an error. */
export function platformFailureReason(error: unknown): DeskFailureKind {
  if (error instanceof NotSetUpError) return 'not_set_up';
  return isPlatformError(error) ? platformFailureKind(error) : 'unavailable';
}
