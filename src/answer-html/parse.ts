// The robot's answer HTML, parsed once. Every reading of an answer (Slack mrkdwn, the editor's
// Markdown, what an edit would lose) starts from this one DOM, so none of them parses it again.
// The answers also use raw newlines as line breaks, which HTML would read as spaces: they are read
// here, the same way for every reading. Next to a block tag a newline is layout, anywhere else it is
// a line break.
import { createDocument, type DominoDocument, type DominoNode } from '@mixmark-io/domino';
import { SENTINELS } from './turndown-base.js';

export type DomNode = DominoNode;

/** An answer parsed, its raw newlines already <br> elements. Readers convert or read it, never change it. */
export interface AnswerDocument {
  /** The element holding the answer's nodes. */
  readonly root: DomNode;
}

const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
const COMMENT_NODE = 8;

/** Parses the answer once. Never throws on any input, however malformed or deeply nested. */
export function parseAnswerHtml(html: string): AnswerDocument {
  // The dialects mark what only their post-passes decide with private-use characters: none may come
  // from the answer itself.
  const input = html.replace(SENTINELS, '').replace(/\r\n?/g, '\n');
  // Wrapped as turndown wraps a string it parses itself, so that whatever the answer starts with (a
  // <td>, a <meta>) its nodes land in one element, in order.
  const document = createDocument(`<x-answer id="answer-root">${input}</x-answer>`);
  const root = document.getElementById('answer-root');
  if (root === null) throw new Error('the parsed answer has lost its root element');
  // Most answers have no raw newline: no need to walk them.
  if (input.includes('\n')) rawNewlinesAsBreaks(document, root);
  return { root };
}

/** The answer as given, parsed when it is still a string. */
export function answerDocumentOf(answer: string | AnswerDocument): AnswerDocument {
  return typeof answer === 'string' ? parseAnswerHtml(answer) : answer;
}

/** Every element under `root`, in no particular order; iterative, as deep nesting overflows recursion. */
export function* descendantElements(root: DomNode): Generator<DomNode> {
  const pending: DomNode[] = [root];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType !== ELEMENT_NODE) continue;
      pending.push(child);
      yield child;
    }
  }
}

// Tags next to which a raw newline is layout, not a line break the author meant.
const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'br',
  'caption',
  'center',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'head',
  'header',
  'hr',
  'html',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'script',
  'section',
  'style',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'title',
  'tr',
  'ul',
]);
// Their content is text as written: a newline in it is already shown as one (or not shown at all).
const RAW_TEXT_TAGS = new Set(['pre', 'textarea', 'script', 'style', 'xmp', 'listing']);

/**
 * Whitespace around a raw newline, as the answer's authors indent. Not U+00A0: `&nbsp;` is spacing
 * put there on purpose (an indented second line), and the text node holds it decoded.
 */
const SPACE_AROUND_NEWLINE = /[^\S\n\u00A0]*\n[^\S\n\u00A0]*/;
const EDGES = /^([^\S\u00A0]*)([\s\S]*?)([^\S\u00A0]*)$/;

/** Where a line break goes, among the text pieces that replace a text node. */
const BREAK = Symbol('line break');
type Piece = string | typeof BREAK;

/**
 * Raw newlines become <br>. A newline that only separates block tags (`</p>\n<p>`, `<li>`
 * indentation) is layout. Neighbours are read as the source had them: a text node's sibling, or its
 * parent when it has none, except the root, before and after which the answer has nothing.
 */
function rawNewlinesAsBreaks(document: DominoDocument, root: DomNode): void {
  const changes: { text: DomNode; pieces: Piece[] }[] = [];
  const pending: DomNode[] = [root];
  // All decided before any is changed, so each text node sees its neighbours as parsed.
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === ELEMENT_NODE && !RAW_TEXT_TAGS.has(child.localName ?? '')) pending.push(child);
      if (child.nodeType !== TEXT_NODE || !(child.nodeValue ?? '').includes('\n')) continue;
      const parent = node === root ? null : node;
      const pieces = breakPieces(
        child.nodeValue ?? '',
        isInline(child.previousSibling ?? parent),
        isInline(child.nextSibling ?? parent),
      );
      if (pieces !== undefined) changes.push({ text: child, pieces });
    }
  }
  for (const { text, pieces } of changes) {
    const parent = text.parentNode;
    if (parent === null) continue;
    for (const piece of pieces) {
      const node = piece === BREAK ? document.createElement('br') : document.createTextNode(piece);
      parent.insertBefore(node, text);
    }
    parent.removeChild(text);
  }
}

/** A neighbour inside a line: an inline element, or a comment (written inside the text it sits in). */
function isInline(node: DomNode | null): boolean {
  if (node === null) return false;
  if (node.nodeType === COMMENT_NODE) return true;
  return node.nodeType === ELEMENT_NODE && !BLOCK_TAGS.has(node.localName ?? '');
}

/** The text with its meant newlines as breaks; undefined when it keeps none. */
function breakPieces(text: string, breaksBefore: boolean, breaksAfter: boolean): Piece[] | undefined {
  const match = EDGES.exec(text);
  const [lead, middle, trail] = [match?.[1] ?? '', match?.[2] ?? '', match?.[3] ?? ''];
  let pieces: Piece[];
  if (middle === '') {
    if (!breaksBefore || !breaksAfter) return undefined;
    pieces = toBreaks(text);
  } else {
    pieces = [
      ...(breaksBefore ? toBreaks(lead) : [lead]),
      ...toBreaks(middle),
      ...(breaksAfter ? toBreaks(trail) : [trail]),
    ];
  }
  return pieces.includes(BREAK) ? joinText(pieces) : undefined;
}

function toBreaks(text: string): Piece[] {
  return text
    .split(SPACE_AROUND_NEWLINE)
    .flatMap((part): Piece[] => [BREAK, part])
    .slice(1);
}

/**
 * Adjacent text joined into one node, empty text dropped: turndown escapes text node by node, and
 * the editor's Markdown escapes read the start of a node as the start of a line.
 */
function joinText(pieces: Piece[]): Piece[] {
  const joined: Piece[] = [];
  for (const piece of pieces) {
    const last = joined.at(-1);
    if (piece === '') continue;
    if (piece !== BREAK && typeof last === 'string') joined[joined.length - 1] = last + piece;
    else joined.push(piece);
  }
  return joined;
}
