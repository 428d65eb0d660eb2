import { escapeMrkdwn } from '../../answer-html/mrkdwn.js';
import type { People } from '../../conversation/channel-settings.js';
import { splitMrkdwn, truncateMrkdwn } from './limits.js';

/** Untrusted text, at most `max` units without cutting an entity. */
export function escapedLine(text: string, max: number): string {
  return truncateMrkdwn(escapeMrkdwn(text.replace(/\s+/g, ' ').trim()), max);
}

export function shortenMrkdwn(text: string, max: number): string {
  if (text.length <= max) return text;
  const [first = ''] = splitMrkdwn(text, max - 1);
  return `${first}…`;
}

/** One that would break out of the code span is shown plain. */
export function code(id: string): string {
  const escaped = escapeMrkdwn(id);
  return /[`\n\r]/.test(id) ? escaped : `\`${escaped}\``;
}

export function tidy(text: string): string {
  return text.replace(/ {2,}/g, ' ').trim();
}

/** Schema-checked ids as mentions; `first: 'groups'` where a cut list should keep the groups. */
export function peopleMentions(people: People, separator: string, first: 'users' | 'groups'): string {
  const users = people.users.map((id) => `<@${id}>`);
  const groups = people.groups.map((id) => `<!subteam^${id}>`);
  return (first === 'users' ? [...users, ...groups] : [...groups, ...users]).join(separator);
}
