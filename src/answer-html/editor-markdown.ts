// The answer as an operator edits it: the robot's HTML as Markdown in a plain-text input (Slack's
// rich-text input cannot hold images), back to HTML on save; `unsupportedMarkup` names what is lost.
import { Marked, type Token, type TokenizerExtensionFunction, type Tokens } from 'marked';
import type TurndownService from 'turndown';
import {
  type AnswerDocument,
  answerDocumentOf,
  type DomNode,
  descendantElements,
  TEXT_NODE,
} from './parse.js';
import { addStyleRule, createBaseService, LINE_BREAK, orderedItemNumber } from './turndown-base.js';

/** Slack's plain_text_input limit. */
export const EDITABLE_MARKUP_MAX = 3000;

/** Counted in UTF-16 units, the stricter count. */
export function fitsEditor(markup: string): boolean {
  return markup.length <= EDITABLE_MARKUP_MAX;
}

// Same link and image rules as the Slack renderer (mrkdwn.ts), so the editor and the message agree.
const SAFE_LINK = /^(?:https?:|mailto:)/i;
const SAFE_IMAGE = /^https?:/i;

const turndown = createTurndown();

/** The answer as the operator edits it; throws when the answer is nested too deep to convert. */
export function htmlToMarkup(answer: string | AnswerDocument): string {
  return turndown
    .turndown(answerDocumentOf(answer).root)
    .replaceAll(LINE_BREAK, '\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function createTurndown(): TurndownService {
  const service = createBaseService(
    { headingStyle: 'atx', hr: '---', codeBlockStyle: 'fenced' },
    escapeMarkdown,
  );
  addStyleRule(service, 'strong', ['b', 'strong'], (content) => wrap(content, '**'));
  // `_` cannot open or close inside a word: next to a letter or digit only `*` makes italics.
  const italic = (content: string, node: DomNode) => wrap(content, touchesWord(node) ? '*' : '_');
  addStyleRule(service, 'emphasis', ['i', 'em'], italic);
  addStyleRule(service, 'strike', ['del', 's', 'strike'], (content) => wrap(content, '~~'));
  service.addRule('heading', {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement: (content, node: DomNode) => {
      const text = content.replace(/[\s\uE005]+/g, ' ').trim();
      return text === '' ? '' : `\n\n${'#'.repeat(Number(node.nodeName.charAt(1)))} ${text}\n\n`;
    },
  });
  service.addRule('link', {
    filter: 'a',
    replacement: (content, node: DomNode) => {
      const href = (node.getAttribute?.('href') ?? '').trim();
      if (href === '') return content;
      const label = content.replace(/[ \t]*\n\s*/g, LINE_BREAK).replace(/^[\s\uE005]+|[\s\uE005]+$/g, '');
      return `[${label}](${destination(href)})`;
    },
  });
  service.addRule('image', {
    filter: 'img',
    replacement: (_content, node: DomNode) => {
      const src = (node.getAttribute?.('src') ?? '').trim();
      if (src === '') return '';
      const alt = (node.getAttribute?.('alt') ?? '').replace(/\s+/g, ' ').trim();
      return `![${escapeMarkdown(alt)}](${destination(src)})`;
    },
  });
  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node: DomNode) => {
      const prefix = listPrefix(node);
      // CommonMark keeps a line in the item when it is indented as far as the item's text.
      const indent = ' '.repeat(prefix.length);
      const body = content.replace(/^[\s\uE005]+|[\s\uE005]+$/g, '').replace(/\n|\uE005/g, `$&${indent}`);
      return `${prefix}${body}\n`;
    },
  });
  service.addRule('blockquote', {
    filter: 'blockquote',
    replacement: (content) => {
      const body = content.replace(/^[\s\uE005]+|[\s\uE005]+$/g, '').replace(/\n|\uE005/g, '$&> ');
      return body === '' ? '' : `\n\n> ${body}\n\n`;
    },
  });
  service.addRule('preformatted', {
    filter: 'pre',
    replacement: (_content, node: DomNode) => {
      const code = preformattedText(node).replace(/^\n/, '').trimEnd();
      if (code === '') return '';
      const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
      const fence = '`'.repeat(Math.max(3, longest + 1));
      return `\n\n${fence}\n${code}\n${fence}\n\n`;
    },
  });
  return service;
}

/** After a list-like line start: CommonMark reads no list and no `\` shows; saving restores the space. */
const MARK_SPACE = '\u00A0';
const MARK_SPACED = /^(\d{1,9}[.)]|[-+])\u00A0/;

/** Turndown calls this per text node and a line always starts one, so `^` is the start of a line. */
function escapeMarkdown(text: string): string {
  return (
    text
      .replace(/[\\`*~[\]]/g, '\\$&')
      // Between two ASCII letters or digits `_` can neither open nor close: URLs and names stay readable.
      .replace(/_/g, (match, offset: number, whole: string) =>
        /[A-Za-z0-9]/.test(whole.charAt(offset - 1)) && /[A-Za-z0-9]/.test(whole.charAt(offset + 1))
          ? match
          : '\\_',
      )
      .replace(/<(?=[A-Za-z/!?])/g, '\\<')
      .replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&')
      .replace(/^(\d{1,9}[.)]|[-+]) /, `$1${MARK_SPACE}`)
      .replace(/^(\d{1,9})([.)])(?=\t|$)/, '$1\\$2')
      // A line of only - + = would be a rule or a heading's underline; > always opens a quote.
      .replace(/^[-+=](?=[-+=]*[ \t]*$)|^[-+](?=\t)|^>/, '\\$&')
      .replace(/^#(?=#{0,5}(?:[ \t]|$))/, '\\#')
  );
}

/** <…> may hold spaces and parentheses. */
function destination(url: string): string {
  const target = url.replace(/[\r\n]/g, '');
  return /[\s<>()\\]/.test(target) ? `<${target.replace(/[\\<>]/g, '\\$&')}>` : target;
}

/** Wraps each run of the content in the delimiter: emphasis cannot span a blank line or a block. */
function wrap(content: string, delimiter: string): string {
  return content
    .split(/((?:[ \t]*(?:\n|\uE005(?:[ \t]*\uE005)+)[ \t]*)+)/)
    .map((piece, index) => {
      if (index % 2 === 1) return piece;
      // Spaces and line breaks at the edges stay outside: `** x**` would not be bold.
      const match = /^([\s\uE005]*)([\s\S]*?)([\s\uE005]*)$/.exec(piece);
      const inner = match?.[2] ?? '';
      if (inner === '') return piece;
      return `${match?.[1] ?? ''}${delimiter}${inner}${delimiter}${match?.[3] ?? ''}`;
    })
    .join('');
}

function touchesWord(node: DomNode): boolean {
  const before = node.previousSibling?.textContent ?? '';
  const after = node.nextSibling?.textContent ?? '';
  return /[A-Za-z0-9_]$/.test(before) || /^[A-Za-z0-9_]/.test(after);
}

function listPrefix(node: DomNode): string {
  const list = node.parentNode;
  if (list?.nodeName !== 'OL') return '- ';
  return `${orderedItemNumber(node)}. `;
}

function preformattedText(node: DomNode): string {
  return Array.from(node.childNodes, (child) => {
    if (child.nodeType === TEXT_NODE) return child.nodeValue ?? '';
    if (child.nodeName === 'BR') return '\n';
    return child.nodeType === 1 ? preformattedText(child) : '';
  }).join('');
}

function escapeAll(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** An entity the operator typed stays one, as CommonMark reads it. */
function escapeText(text: string): string {
  return text
    .replace(/&(?!#\d{1,7};|#[Xx][0-9A-Fa-f]{1,6};|[A-Za-z][A-Za-z0-9]{1,31};)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

interface InlineLexer {
  lexer: { inlineTokens(src: string): Token[] };
}
interface InlineParser {
  parser: { parseInline(tokens: Token[]): string };
}

/** Emphasis by delimiters alone: CommonMark's flanking rules refuse `**注意：**请…`, as Chinese answers write. */
function delimited(name: string, delimiter: string, tag: string, pattern: RegExp, wordStart = false) {
  const tokenizer: TokenizerExtensionFunction = function (this: InlineLexer, src, tokens) {
    // `_` after a letter or digit is part of a word (snake_case), never an opening.
    if (wordStart && /[A-Za-z0-9_]$/.test(tokens.at(-1)?.raw ?? '')) return undefined;
    const match = pattern.exec(src);
    if (!match?.[1]) return undefined;
    return { type: name, raw: match[0], tokens: this.lexer.inlineTokens(match[1]) };
  };
  return {
    name,
    level: 'inline' as const,
    start: (src: string) => {
      const index = src.indexOf(delimiter);
      return index < 0 ? undefined : index;
    },
    tokenizer,
    renderer(this: InlineParser, token: Tokens.Generic) {
      return `<${tag}>${this.parser.parseInline(token.tokens ?? [])}</${tag}>`;
    },
  };
}

const markdown = new Marked({
  gfm: true,
  breaks: true,
  // Nothing the operator types becomes something the answer cannot hold, or vanishes:
  tokenizer: {
    // a bare URL stays text, as the robot writes them;
    url: () => undefined,
    table: () => undefined,
    html: () => undefined,
    def: () => undefined,
    code: () => undefined,
  },
  extensions: [
    delimited(
      'strongDelimited',
      '**',
      'strong',
      /^\*\*(?![\s*])((?:\\[\s\S]|[^\\*]|\*(?!\*))+?)(?<!\s)\*\*(?!\*)/,
    ),
    delimited('delDelimited', '~~', 'del', /^~~(?![\s~])((?:\\[\s\S]|[^\\~]|~(?!~))+?)(?<!\s)~~(?!~)/),
    delimited('emUnderscore', '_', 'em', /^_(?![\s_])((?:\\[\s\S]|[^\\_])+?)(?<!\s)_(?![A-Za-z0-9_])/, true),
    delimited('emAsterisk', '*', 'em', /^\*(?![\s*])((?:\\[\s\S]|[^\\*])+?)(?<!\s)\*(?!\*)/),
  ],
  renderer: {
    // The operator edits text, not tags: HTML typed into the answer is shown as typed.
    html({ text }: Tokens.HTML | Tokens.Tag): string {
      return escapeAll(text).replace(/\n/g, '<br>');
    },
    text(this: InlineParser, token: Tokens.Text | Tokens.Escape): string {
      if ('tokens' in token && token.tokens) return this.parser.parseInline(token.tokens);
      // Escaped even when marked calls it raw (after a typed <pre>): it is still the operator's text.
      return escapeText(token.text.replace(MARK_SPACED, '$1 '));
    },
    codespan({ text }: Tokens.Codespan): string {
      return `<code>${escapeAll(text)}</code>`;
    },
    code({ text }: Tokens.Code): string {
      return `<pre><code>${escapeAll(text)}</code></pre>`;
    },
    checkbox({ checked }: Tokens.Checkbox): string {
      return checked ? '[x] ' : '[ ] ';
    },
    link(this: InlineParser, token: Tokens.Link): string {
      const label = this.parser.parseInline(token.tokens);
      const href = token.href.trim();
      return SAFE_LINK.test(href) ? `<a href="${escapeAll(href)}">${label}</a>` : label;
    },
    image(token: Tokens.Image): string {
      const alt = plainText(token.tokens ?? [])
        .replace(/\s+/g, ' ')
        .trim();
      const src = token.href.trim();
      return SAFE_IMAGE.test(src) ? `<img src="${escapeAll(src)}" alt="${escapeAll(alt)}">` : escapeText(alt);
    },
  },
});

function plainText(tokens: Token[]): string {
  return tokens
    .map((token) => {
      if ('tokens' in token && Array.isArray(token.tokens)) return plainText(token.tokens);
      return 'text' in token && typeof token.text === 'string' ? token.text : '';
    })
    .join('');
}

export function markupToHtml(markup: string): string {
  const html = markdown.parse(markup.replace(/\r\n?/g, '\n'), { async: false });
  // Compact: newlines between blocks would read as line breaks to the robot's clients.
  return html
    .split(/(<pre><code>[\s\S]*?<\/code><\/pre>)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/\n/g, '')))
    .join('')
    .trim();
}

/** Elements whose meaning the round trip keeps. */
const KEPT_ELEMENTS = new Set([
  'p',
  'div',
  'br',
  'b',
  'strong',
  'i',
  'em',
  'del',
  's',
  'strike',
  'a',
  'img',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'code',
  'hr',
]);
const FRAME_ELEMENTS = new Set(['html', 'head', 'body', 'meta', 'link', 'base', 'title', 'wbr']);
const TABLE_PARTS = new Set([
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
  'caption',
  'colgroup',
  'col',
]);
const PRESENTATION_ATTRIBUTES = new Set([
  'style',
  'class',
  'color',
  'bgcolor',
  'face',
  'size',
  'align',
  'valign',
  'width',
  'height',
  'border',
]);
/** Tag names a changed answer would lose, and `style` for presentation attributes on kept elements. */
export function unsupportedMarkup(answer: string | AnswerDocument): string[] {
  const lost = new Set<string>();
  for (const element of descendantElements(answerDocumentOf(answer).root)) {
    const tag = element.localName ?? '';
    const name = TABLE_PARTS.has(tag) ? 'table' : tag;
    if (FRAME_ELEMENTS.has(name)) continue;
    const attributes = attributesOf(element);
    if (!KEPT_ELEMENTS.has(name)) {
      // A bare <span> carries nothing; with attributes it carries the colour or font that is lost.
      if (name !== 'span' || attributes.size > 0) lost.add(name);
      continue;
    }
    if ([...attributes.keys()].some((attribute) => PRESENTATION_ATTRIBUTES.has(attribute))) lost.add('style');
    if (name === 'a' && attributes.has('href') && !SAFE_LINK.test(attributes.get('href') ?? ''))
      lost.add('a');
    if (name === 'img' && !SAFE_IMAGE.test(attributes.get('src') ?? '')) lost.add('img');
  }
  return [...lost].sort();
}

function attributesOf(element: DomNode): Map<string, string> {
  return new Map(
    Array.from(element.attributes ?? [], ({ name, value }) => [name.toLowerCase(), value.trim()] as const),
  );
}
