// A Slack message's text made into the plain question the robot should see.

export interface QuestionTextOptions {
  /** The app's own user id: its mention is how the question was addressed, not part of it. */
  botUserId: string | undefined;
  resolveUser?: (userId: string) => string | undefined;
}

// Zero-width characters the robot would match on but no one typed. ZWJ (U+200D) stays: emoji need it.
const ZERO_WIDTH = /[\u200B\u200C\u2060\uFEFF]/g;
const CONTROL_SEQUENCE = /<([^<>\n]*)>/g;

const BARE_USER_MENTION = /<@([^<>|\s]+)>/g;

/** Users mentioned without a label (`<@U123>`, as Slack sends them), but the app: names to look up. */
export function unlabelledMentions(text: string, botUserId: string | undefined): string[] {
  const ids = new Set<string>();
  for (const match of text.matchAll(BARE_USER_MENTION)) {
    const userId = match[1];
    if (userId && userId !== botUserId) ids.add(userId);
  }
  return [...ids];
}

export function questionFromSlackText(text: string, options: QuestionTextOptions): string {
  let output = '';
  let last = 0;
  for (const match of text.matchAll(CONTROL_SEQUENCE)) {
    output += decodeEntities(text.slice(last, match.index));
    output += controlSequence(match[1] ?? '', options);
    last = match.index + match[0].length;
  }
  output += decodeEntities(text.slice(last));
  return tidy(output.replace(ZERO_WIDTH, ''));
}

/** One <...> sequence as the words a person would read there. */
function controlSequence(body: string, options: QuestionTextOptions): string {
  const bar = body.indexOf('|');
  const target = bar >= 0 ? body.slice(0, bar) : body;
  const label = bar >= 0 ? decodeEntities(body.slice(bar + 1)).trim() : '';

  if (target.startsWith('@')) {
    const userId = target.slice(1);
    if (options.botUserId && userId === options.botUserId) return '';
    const name = options.resolveUser?.(userId)?.trim() || label.replace(/^@/, '') || userId;
    return `@${name}`;
  }
  if (target.startsWith('#')) return `#${label.replace(/^#/, '') || target.slice(1)}`;
  if (target.startsWith('!')) return specialMention(target.slice(1), label);

  const url = decodeEntities(target);
  if (url.toLowerCase().startsWith('mailto:')) return label || url.slice('mailto:'.length);
  if (label === '' || label === url || sameWithoutScheme(label, url)) return label || url;
  return `${label} (${url})`;
}

function specialMention(command: string, label: string): string {
  if (command === 'here' || command === 'channel' || command === 'everyone') return `@${command}`;
  if (command.startsWith('subteam^')) return label ? `@${label.replace(/^@/, '')}` : `@${command.slice(8)}`;
  // <!date^...|fallback> and any future command: the fallback label is what people see.
  return label;
}

/** Slack links a typed "example.com" as <http://example.com|example.com>: the person typed the label. */
function sameWithoutScheme(label: string, url: string): boolean {
  return url.replace(/^https?:\/\//i, '').replace(/\/$/, '') === label.replace(/\/$/, '');
}

/** Slack encodes only &, < and >; &amp; goes last so "&amp;lt;" stays "&lt;" as typed. */
function decodeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
