// Slack's mrkdwn read into a small tree, as Slack's clients read it: *bold*, _italic_, ~strike~,
// `code`, ```blocks```, > quotes, <links|labels>, <@user> and <#channel> mentions, <!here>, &-entities
// and :emoji:. Pure (no DOM), so it is tested in Node; the page draws the tree.

export type MrkdwnNode =
  | { kind: 'text'; text: string }
  | { kind: 'bold' | 'italic' | 'strike'; children: MrkdwnNode[] }
  | { kind: 'code'; text: string }
  | { kind: 'preformatted'; text: string }
  | { kind: 'quote'; children: MrkdwnNode[] }
  | { kind: 'break' }
  | { kind: 'link'; url: string; children: MrkdwnNode[] }
  | { kind: 'user'; id: string; label: string | undefined }
  | { kind: 'channel'; id: string; label: string | undefined }
  /** `<!subteam^S…>`: a user group, drawn as Slack draws it, by its @handle. */
  | { kind: 'usergroup'; id: string; label: string | undefined }
  | { kind: 'broadcast'; name: string }
  /** `<!date^1700000000^{date_short_pretty} {time}|fallback>`: drawn in the reader's zone. */
  | { kind: 'date'; epoch: number; format: string; fallback: string }
  | { kind: 'emoji'; name: string };

const STYLE_MARKERS: Record<string, 'bold' | 'italic' | 'strike'> = {
  '*': 'bold',
  _: 'italic',
  '~': 'strike',
};
const FENCE = '```';

/** Decodes the three entities Slack escapes (and numeric ones a converter may leave). */
function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#(\d+);/g, (_whole, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, '&');
}

export function parseMrkdwn(source: string): MrkdwnNode[] {
  const nodes: MrkdwnNode[] = [];
  let rest = source;
  while (rest !== '') {
    const open = rest.indexOf(FENCE);
    const close = open < 0 ? -1 : rest.indexOf(FENCE, open + FENCE.length);
    if (open < 0 || close < 0) {
      nodes.push(...parseLines(rest));
      break;
    }
    if (open > 0) nodes.push(...parseLines(rest.slice(0, open).replace(/\n$/, '')));
    nodes.push({
      kind: 'preformatted',
      text: decodeEntities(rest.slice(open + FENCE.length, close).replace(/^\n/, '')),
    });
    rest = rest.slice(close + FENCE.length).replace(/^\n/, '');
  }
  return nodes;
}

/** Lines outside code blocks: runs of `>` lines become quotes, the rest inline text with breaks. */
function parseLines(text: string): MrkdwnNode[] {
  const nodes: MrkdwnNode[] = [];
  const lines = text.split('\n');
  let plain: string[] = [];
  let quoted: string[] = [];
  const flushPlain = () => {
    if (plain.length > 0) {
      if (nodes.length > 0 && nodes.at(-1)?.kind !== 'quote') nodes.push({ kind: 'break' });
      nodes.push(...parseInline(plain.join('\n')));
    }
    plain = [];
  };
  const flushQuote = () => {
    if (quoted.length > 0) nodes.push({ kind: 'quote', children: parseInline(quoted.join('\n')) });
    quoted = [];
  };
  for (const line of lines) {
    const quote = /^(?:&gt;|>)\s?(.*)$/.exec(line);
    if (quote) {
      flushPlain();
      quoted.push(quote[1] ?? '');
    } else {
      flushQuote();
      plain.push(line);
    }
  }
  flushPlain();
  flushQuote();
  return nodes;
}

function isBoundary(char: string | undefined): boolean {
  return char === undefined || /[\s\u200B\p{P}\p{S}]/u.test(char);
}

function isSpace(char: string | undefined): boolean {
  return char === undefined || /\s/.test(char);
}

/** Where the marker opened at `start` closes on the same line, skipping links and code; -1 if it does not. */
function closingMarker(text: string, start: number, marker: string): number {
  for (let index = start + 1; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\n') return -1;
    if (char === '<' || char === '`') {
      const end = text.indexOf(char === '<' ? '>' : '`', index + 1);
      if (end > index) index = end;
      continue;
    }
    if (
      char === marker &&
      !isSpace(text[index - 1]) &&
      index - 1 > start - 1 &&
      isBoundary(text[index + 1])
    ) {
      return index;
    }
  }
  return -1;
}

function parseInline(text: string): MrkdwnNode[] {
  const nodes: MrkdwnNode[] = [];
  let buffer = '';
  const flush = () => {
    if (buffer !== '') nodes.push(...linkify(decodeEntities(buffer)));
    buffer = '';
  };
  let index = 0;
  while (index < text.length) {
    const char = text[index] ?? '';
    if (char === '\n') {
      flush();
      nodes.push({ kind: 'break' });
      index += 1;
      continue;
    }
    if (char === '<') {
      const end = text.indexOf('>', index + 1);
      if (end > index + 1 && !text.slice(index + 1, end).includes('\n')) {
        flush();
        nodes.push(angleToken(text.slice(index + 1, end)));
        index = end + 1;
        continue;
      }
    }
    if (char === '`') {
      const end = text.indexOf('`', index + 1);
      if (end > index + 1 && !text.slice(index + 1, end).includes('\n')) {
        flush();
        nodes.push({ kind: 'code', text: decodeEntities(text.slice(index + 1, end)) });
        index = end + 1;
        continue;
      }
    }
    const style = STYLE_MARKERS[char];
    if (style && isBoundary(text[index - 1]) && !isSpace(text[index + 1])) {
      const end = closingMarker(text, index + 1, char);
      if (end > index + 1) {
        flush();
        nodes.push({ kind: style, children: parseInline(text.slice(index + 1, end)) });
        index = end + 1;
        continue;
      }
    }
    if (char === ':') {
      const emoji = /^:([a-z0-9_+'-]+(?:::skin-tone-\d)?):/.exec(text.slice(index));
      if (emoji?.[1]) {
        flush();
        nodes.push({ kind: 'emoji', name: emoji[1] });
        index += emoji[0].length;
        continue;
      }
    }
    buffer += char;
    index += 1;
  }
  flush();
  return nodes;
}

/** A bare URL, as Slack's clients spot one in text: up to a space, without trailing punctuation. */
const BARE_URL = /https?:\/\/[^\s<>]*[^\s<>.,;:!?)\]'"，。；：！？）]/g;

/** Text with its bare URLs made links, as Slack shows them. */
function linkify(text: string): MrkdwnNode[] {
  const nodes: MrkdwnNode[] = [];
  let last = 0;
  for (const match of text.matchAll(BARE_URL)) {
    const start = match.index;
    if (start > last) nodes.push({ kind: 'text', text: text.slice(last, start) });
    nodes.push({ kind: 'link', url: match[0], children: [{ kind: 'text', text: match[0] }] });
    last = start + match[0].length;
  }
  if (last < text.length) nodes.push({ kind: 'text', text: text.slice(last) });
  return nodes;
}

/** What is inside `<…>`: a mention, a broadcast, or a link with an optional label. */
function angleToken(inner: string): MrkdwnNode {
  const bar = inner.indexOf('|');
  const target = bar < 0 ? inner : inner.slice(0, bar);
  const label = bar < 0 ? undefined : inner.slice(bar + 1);
  if (target.startsWith('@'))
    return { kind: 'user', id: target.slice(1), label: label && decodeEntities(label) };
  if (target.startsWith('#'))
    return { kind: 'channel', id: target.slice(1), label: label && decodeEntities(label) };
  if (target.startsWith('!')) {
    const name = target.slice(1);
    if (name.startsWith('date^') && label !== undefined) {
      const [, epoch = '', format = ''] = name.split('^');
      return {
        kind: 'date',
        epoch: Number(epoch),
        format: decodeEntities(format),
        fallback: decodeEntities(label),
      };
    }
    if (name.startsWith('subteam^')) {
      const id = name.slice('subteam^'.length);
      // An old-style label carries the @ itself (`<!subteam^S1|@it-oncall>`).
      return { kind: 'usergroup', id, label: label ? decodeEntities(label).replace(/^@/, '') : undefined };
    }
    return { kind: 'broadcast', name: `@${name}` };
  }
  const url = decodeEntities(target);
  return {
    kind: 'link',
    url,
    children: label === undefined ? [{ kind: 'text', text: url }] : parseInline(label),
  };
}

/** Whether a link may be opened from the page: the web's and mail's schemes only. */
export function isSafeUrl(url: string): boolean {
  return /^(?:https?:|mailto:)/i.test(url);
}
