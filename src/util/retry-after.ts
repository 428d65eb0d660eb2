// One reading of a Retry-After header (RFC 9110), for the platform's 429s and Slack's.

const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** Milliseconds to wait: delay-seconds (a fraction rounded up) or an HTTP-date; undefined when unreadable. */
export function retryAfterMs(header: string | null | undefined, nowMs: number): number | undefined {
  const text = header?.trim() ?? '';
  if (/^\d{1,9}(\.\d+)?$/.test(text)) return Math.ceil(Number(text)) * 1000;
  const date = IMF_FIXDATE.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
