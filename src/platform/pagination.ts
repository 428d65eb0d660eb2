// Long ticket-list ranges cut into windows of at most a month, as the platform allows one call.
import { MAX_TICKET_WINDOW_SECONDS } from './schemas.js';

export interface CreationWindow {
  createStartTime: number;
  createEndTime: number;
}

/** Seconds, both inclusive; the next window starts one second after the previous ends, so none overlap. */
export function splitCreationWindow(
  startSeconds: number,
  endSeconds: number,
  maxWindow: number = MAX_TICKET_WINDOW_SECONDS,
): CreationWindow[] {
  if (!Number.isInteger(startSeconds) || !Number.isInteger(endSeconds)) {
    throw new RangeError('window bounds must be whole seconds');
  }
  if (endSeconds < startSeconds) throw new RangeError('window end must not be before its start');
  if (!Number.isInteger(maxWindow) || maxWindow < 0)
    throw new RangeError('maxWindow must be a whole number >= 0');
  const windows: CreationWindow[] = [];
  let start = startSeconds;
  while (start <= endSeconds) {
    const end = Math.min(start + maxWindow, endSeconds);
    windows.push({ createStartTime: start, createEndTime: end });
    start = end + 1;
  }
  return windows;
}
