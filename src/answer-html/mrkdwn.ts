// The robot's answer HTML (often mixed with raw newlines and bare URLs) turned into Slack mrkdwn.
import type TurndownService from 'turndown';
import { truncate } from '../util/truncate.js';
import { misleadingLabelDestination, withoutUrlCredentials } from './deceptive-links.js';
import { replaceEmoticons } from './emoticons.js';
import { type DomNode, parseAnswerHtml } from './parse.js';
import {
  addStyleRule,
  createBaseService,
  LINE_BREAK,
  orderedItemNumber,
  SENTINELS,
} from './turndown-base.js';

export type AnswerSegment = { kind: 'text'; mrkdwn: string } | { kind: 'image'; url: string; alt: string };

export interface ConvertOptions {
  /** 'links' writes images as <url|alt> links, for when Slack refuses to fetch an image block. */
  images?: 'segments' | 'links';
}

// Slack's image block limit: a longer URL is shown by its alt text instead.
const IMAGE_ALT_MAX = 2000;
const IMAGE_URL_MAX = 3000;

/** Cut before parsing: more would take dozens of messages, and turndown slows down. */
export const ANSWER_HTML_MAX = 100_000;

const ZWSP = '\u200B';
// Private-use characters mark what only the post-pass can decide (see SENTINELS in turndown-base.ts).
const IMAGE_OPEN = '\uE000';
const IMAGE_CLOSE = '\uE001';
/** Becomes a zero-width space when the character before is a word character. */
const GUARD_BEFORE = '\uE002';
/** Becomes a zero-width space when the character after is a word character. */
const GUARD_AFTER = '\uE003';
const CELL_END = '\uE004';
const IMAGE_TOKEN = /\uE000(\d+)\uE001/g;

/** Only Slack's three reserved characters; everything else is shown as written. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Emoticon codes become emoji; bare URLs lose credentials that would disguise their host. */
function escapeAnswerText(text: string): string {
  return escapeMrkdwn(replaceEmoticons(withoutUrlCredentials(text)));
}

function isVisible(text: string): boolean {
  // \p{Cf} covers zero-width spaces and joiners, soft hyphens and the BOM; the rest are blank letters.
  return /[^\s\p{Cf}\u2800\u3164\u115F\u1160\uFFA0]/u.test(text);
}

/** Never throws. */
export function convertAnswer(html: string, options: ConvertOptions = {}): AnswerSegment[] {
  const input = truncate(html, ANSWER_HTML_MAX);
  if (input.trim() === '') return [];
  const images: { url: string; alt: string }[] = [];
  let marked: string;
  try {
    marked = createService(images, options.images ?? 'segments').turndown(parseAnswerHtml(input).root);
  } catch {
    // Deep nesting overflows turndown's recursion: still show something readable.
    const plain = input
      .replace(SENTINELS, '')
      .replace(/\r\n?/g, '\n')
      .replace(/<[^>]*>/g, ' ');
    marked = escapeAnswerText(decodeBasicEntities(plain));
  }
  return toSegments(resolveGuards(marked).replaceAll(LINE_BREAK, '\n'), images);
}

/** Fallback path only, where no parser decoded the entities; &amp; goes last. */
function decodeBasicEntities(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** For places that cannot show images. */
export function answerToMrkdwn(html: string): string {
  return convertAnswer(html, { images: 'links' })
    .map((segment) => (segment.kind === 'text' ? segment.mrkdwn : ''))
    .filter((text) => text !== '')
    .join('\n\n');
}

/** For the notification `text`: &amp; &lt; &gt; stay escaped because Slack parses `text` too. */
export function toPlainText(mrkdwn: string): string {
  const boundary = '(^|[\\s\\u200B\\p{P}\\p{S}])';
  const after = '(?=$|[\\s\\u200B\\p{P}\\p{S}])';
  let text = mrkdwn;
  for (const marker of ['\\*', '_', '~', '`']) {
    const pair = new RegExp(`${boundary}${marker}(?=\\S)([^\\n]*?\\S)${marker}${after}`, 'gu');
    text = text.replace(pair, (_match, before: string, inner: string) => `${before}${inner}`);
  }
  return text
    .replace(/^```$/gm, '')
    .replace(/<([^<>|]*)\|([^<>]*)>/g, (_match, _url: string, label: string) => label)
    .replace(/<(?:mailto:)?([^<>]*)>/g, '$1')
    .replace(/\u200B/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function createService(
  images: { url: string; alt: string }[],
  imageMode: 'segments' | 'links',
): TurndownService {
  // Markdown escaping would put backslashes into the answer; Slack only reserves &, < and >.
  const service = createBaseService({ br: '', hr: '──────────', headingStyle: 'atx' }, escapeAnswerText);
  const strongTags = ['b', 'strong', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
  addStyleRule(service, 'strong', strongTags, (content) => emphasize(content, '*'));
  addStyleRule(service, 'emphasis', ['em', 'i', 'cite', 'var'], (content) => emphasize(content, '_'));
  addStyleRule(service, 'strike', ['s', 'del', 'strike'], (content) => emphasize(content, '~'));
  service.addRule('heading', {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement: (content) => `\n\n${emphasize(flatten(content), '*')}\n\n`,
  });
  service.addRule('inlineCode', {
    filter: (node) => node.nodeName === 'CODE' && node.parentNode?.nodeName !== 'PRE',
    replacement: (_content, node: DomNode) => {
      const code = (node.textContent ?? '').replace(/\s*\n\s*/g, ' ').trim();
      if (code === '') return '';
      // Slack has no way to escape a backtick inside inline code: show such code as plain text.
      if (code.includes('`')) return escapeMrkdwn(code);
      return `${GUARD_BEFORE}\`${escapeMrkdwn(code)}\`${GUARD_AFTER}`;
    },
  });
  service.addRule('preformatted', {
    filter: 'pre',
    replacement: (_content, node: DomNode) => {
      const code = (node.textContent ?? '').replace(/^\n+|\s+$/g, '');
      return code === '' ? '' : `\n\n\`\`\`\n${escapeMrkdwn(code)}\n\`\`\`\n\n`;
    },
  });
  service.addRule('link', {
    filter: 'a',
    replacement: (content, node: DomNode) => renderLink(content, node),
  });
  service.addRule('image', {
    filter: 'img',
    replacement: (_content, node: DomNode) => {
      const url = httpUrl(node.getAttribute?.('src'));
      const rawAlt = (node.getAttribute?.('alt') ?? '').replace(/\s+/g, ' ').trim();
      const alt = replaceEmoticons(withoutUrlCredentials(rawAlt));
      if (!url || url.length > IMAGE_URL_MAX) return alt ? escapeMrkdwn(alt) : '';
      if (imageMode === 'links') {
        // As a link the alt text is a label like any other, and may not pose as another address.
        const shown = misleadingLabelDestination(alt, url) ?? (alt || 'image');
        return `<${slackLinkTarget(url)}|${escapeMrkdwn(shown)}>`;
      }
      images.push({ url, alt: truncate(alt || 'image', IMAGE_ALT_MAX) });
      return `${IMAGE_OPEN}${images.length - 1}${IMAGE_CLOSE}`;
    },
  });
  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node: DomNode) => {
      const body = content.replace(/^[\s\uE005]+|[\s\uE005]+$/g, '').replace(/\n{2,}/g, '\n');
      return body === '' ? '' : `${listPrefix(node)}${body}\n`;
    },
  });
  service.addRule('table', { filter: 'table', replacement: (content) => `\n\n${content}\n\n` });
  service.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content });
  service.addRule('tableCaption', { filter: 'caption', replacement: (content) => `\n${content.trim()}\n` });
  service.addRule('tableRow', {
    filter: 'tr',
    replacement: (content) => {
      const cells = content
        .split(CELL_END)
        .map((cell) => cell.trim())
        .filter((cell) => cell !== '');
      return cells.length === 0 ? '' : `${cells.join(' | ')}\n`;
    },
  });
  service.addRule('tableCell', {
    filter: ['td', 'th'],
    replacement: (content, node: DomNode) => {
      const cell = flatten(content);
      const shown = node.nodeName === 'TH' && cell !== '' ? emphasize(cell, '*') : cell;
      return `${shown}${CELL_END}`;
    },
  });
  return service;
}

function flatten(content: string): string {
  return content.replace(/[\s\uE005]+/g, ' ').trim();
}

/** Per line and per piece between images: Slack emphasis cannot span lines. */
function emphasize(content: string, marker: string): string {
  return content
    .split(/(\n|\uE005|\uE000\d+\uE001)/)
    .map((piece) => {
      if (piece === '\n' || piece === LINE_BREAK || piece.startsWith(IMAGE_OPEN)) return piece;
      const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(piece);
      const inner = match?.[2] ?? '';
      if (inner.replace(/[\uE002\uE003\u200B]/g, '') === '') return piece;
      return `${match?.[1] ?? ''}${GUARD_BEFORE}${marker}${inner}${marker}${GUARD_AFTER}${match?.[3] ?? ''}`;
    })
    .join('');
}

function renderLink(content: string, node: DomNode): string {
  const href = node.getAttribute?.('href') ?? '';
  const target = linkTarget(href);
  if (!target) return content;
  const images = content.match(IMAGE_TOKEN)?.join('') ?? '';
  const label = flatten(content.replace(IMAGE_TOKEN, ' '));
  if (label === '') return images;
  const text = (node.textContent ?? '').trim();
  // A misleading label shows the real destination instead: Slack links the label's own URL too.
  const destination = misleadingLabelDestination(text, target);
  if (destination !== undefined) return `${images}<${slackLinkTarget(target)}|${escapeMrkdwn(destination)}>`;
  if (text === href.trim()) return `${images}<${slackLinkTarget(target)}>`;
  return `${images}<${slackLinkTarget(target)}|${label}>`;
}

/** Only absolute http(s) or mailto; javascript:, data: and the rest are not linked. */
function linkTarget(href: string): string | undefined {
  const trimmed = href.replace(/[\t\r\n]/g, '').trim();
  return /^mailto:[^\s@]+@[^\s@]+$/i.test(trimmed) ? trimmed : httpUrl(trimmed);
}

function httpUrl(value: string | null | undefined): string | undefined {
  const trimmed = (value ?? '').replace(/[\t\r\n]/g, '').trim();
  return /^https?:\/\//i.test(trimmed) && URL.canParse(trimmed) ? trimmed : undefined;
}

/** Percent-encodes the characters that end <url|label>. */
function slackLinkTarget(url: string): string {
  return url
    .replace(/ /g, '%20')
    .replace(/\|/g, '%7C')
    .replace(/</g, '%3C')
    .replace(/>/g, '%3E')
    .replace(/&/g, '&amp;');
}

function listPrefix(node: DomNode): string {
  const list = node.parentNode;
  let depth = 0;
  for (let parent = list?.parentNode; parent; parent = parent.parentNode) {
    if (parent.nodeName === 'UL' || parent.nodeName === 'OL') depth += 1;
  }
  const indent = '    '.repeat(depth);
  if (list?.nodeName !== 'OL') return `${indent}${depth % 2 === 0 ? '•' : '◦'} `;
  return `${indent}${orderedItemNumber(node)}. `;
}

/** Where a marker touches a word character, so Slack sees a word boundary (CJK). */
function resolveGuards(text: string): string {
  // An array: reading the last character of a growing string would flatten it every time.
  const output: string[] = [];
  let previous: string | undefined;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] ?? '';
    if (char === GUARD_BEFORE) {
      if (isWordChar(previous)) output.push(ZWSP);
    } else if (char === GUARD_AFTER) {
      let next = index + 1;
      while (text[next] === GUARD_AFTER) next += 1;
      // Two emphases back to back ("*a**b*") need a boundary between them as well.
      if (text[next] === GUARD_BEFORE || isWordChar(text[next])) output.push(ZWSP);
    } else {
      output.push(char);
      previous = char;
    }
  }
  return output.join('');
}

function isWordChar(char: string | undefined): boolean {
  if (char === undefined || char === '' || char === ZWSP) return false;
  // Whitespace, ASCII punctuation and our own sentinels already count as boundaries for Slack.
  return !/[\s!-/:-@[-`{-~\uE000-\uE0FF]/.test(char);
}

function toSegments(marked: string, images: { url: string; alt: string }[]): AnswerSegment[] {
  const segments: AnswerSegment[] = [];
  const pushText = (raw: string) => {
    const mrkdwn = raw
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .replace(/^\s+|\s+$/g, '');
    if (isVisible(mrkdwn)) segments.push({ kind: 'text', mrkdwn });
  };
  let last = 0;
  for (const match of marked.matchAll(IMAGE_TOKEN)) {
    pushText(marked.slice(last, match.index));
    const image = images[Number(match[1])];
    if (image) segments.push({ kind: 'image', ...image });
    last = match.index + match[0].length;
  }
  pushText(marked.slice(last));
  return segments;
}
