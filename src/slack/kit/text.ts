// Small mrkdwn text helpers for renderers: untrusted text on one line, ids in code, Slack's date
// token, shortening at a clean break.
import { escapeMrkdwn } from '../../answer-html/mrkdwn.js';
import { splitMrkdwn, truncateMrkdwn } from './limits.js';

/** Untrusted text on one line, escaped for mrkdwn, at most `max` units without cutting an entity. */
export function escapedLine(text: string, max: number): string {
  return truncateMrkdwn(escapeMrkdwn(text.replace(/\s+/g, ' ').trim()), max);
}

/** Mrkdwn shortened at a clean break, its formatting closed, with '…' when anything was left out. */
export function shortenMrkdwn(text: string, max: number): string {
  if (text.length <= max) return text;
  const [first = ''] = splitMrkdwn(text, max - 1);
  return `${first}…`;
}

/** An id in code formatting, escaped; one that would break out of the code span is shown plain. */
export function code(id: string): string {
  const escaped = escapeMrkdwn(id);
  return /[`\n\r]/.test(id) ? escaped : `\`${escaped}\``;
}

/** Collapses the gap an empty placeholder (no date) leaves. */
export function tidy(text: string): string {
  return text.replace(/ {2,}/g, ' ').trim();
}
