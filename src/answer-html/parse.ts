// The robot's answer HTML, parsed once for every reading; raw newlines become <br> here, except
// next to a block tag, where they are layout.
import { createDocument, type DominoDocument, type DominoNode } from '@mixmark-io/domino';
import { SENTINELS } from './turndown-base.js';

export type DomNode = DominoNode;

/** Readers convert or read it, never change it. */
export interface AnswerDocument {
  readonly root: DomNode;
}

const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
const COMMENT_NODE = 8;

/** Never throws on any input, however malformed or deeply nested. */
export function parseAnswerHtml(html: string): AnswerDocument {
  // The dialects' post-passes use private-use characters: none may come from the answer itself.
  const input = html.replace(SENTINELS, '').replace(/\r\n?/g, '\n');
  // Wrapped as turndown wraps a string, so whatever the answer starts with (a <td>) lands in one element.
  const document = createDocument(`<x-answer id="answer-root">${input}</x-answer>`);
  const root = document.getElementById('answer-root');
  if (root === null) throw new Error('the parsed answer has lost its root element');
  if (input.includes('\n')) rawNewlinesAsBreaks(document, root);
  return { root };
}

export function answerDocumentOf(answer: string | AnswerDocument): AnswerDocument {
  return typeof answer === 'string' ? parseAnswerHtml(answer) : answer;
}

/** Not inside elements `enter` refuses; any order; iterative, as deep nesting overflows recursion. */
function* descendants(root: DomNode, enter = (_element: DomNode) => true): Generator<DomNode> {
  const pending: DomNode[] = [root];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === ELEMENT_NODE && enter(child)) pending.push(child);
      yield child;
    }
  }
}

export function descendantElements(root: DomNode): DomNode[] {
  return [...descendants(root)].filter((node) => node.nodeType === ELEMENT_NODE);
}

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
// A newline in their content is already shown as one (or not at all).
const RAW_TEXT_TAGS = new Set(['pre', 'textarea', 'script', 'style', 'xmp', 'listing']);

/** Not U+00A0: `&nbsp;` is spacing put there on purpose (an indented second line). */
const SPACE_AROUND_NEWLINE = /[^\S\n\u00A0]*\n[^\S\n\u00A0]*/;
const EDGES = /^([^\S\u00A0]*)([\s\S]*?)([^\S\u00A0]*)$/;

const BREAK = Symbol('line break');
type Piece = string | typeof BREAK;

/** Neighbours are read as parsed: a text node's sibling, or its parent (not the root) when it has none. */
function rawNewlinesAsBreaks(document: DominoDocument, root: DomNode): void {
  const changes: { text: DomNode; pieces: Piece[] }[] = [];
  // All decided before any is changed, so each text node sees its neighbours as parsed.
  for (const child of descendants(root, (element) => !RAW_TEXT_TAGS.has(element.localName ?? ''))) {
    if (child.nodeType !== TEXT_NODE || !(child.nodeValue ?? '').includes('\n')) continue;
    const parent = child.parentNode === root ? null : child.parentNode;
    const pieces = breakPieces(
      child.nodeValue ?? '',
      isInline(child.previousSibling ?? parent),
      isInline(child.nextSibling ?? parent),
    );
    if (pieces !== undefined) changes.push({ text: child, pieces });
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

/** A comment counts as inline: it is written inside the text it sits in. */
function isInline(node: DomNode | null): boolean {
  if (node === null) return false;
  if (node.nodeType === COMMENT_NODE) return true;
  return node.nodeType === ELEMENT_NODE && !BLOCK_TAGS.has(node.localName ?? '');
}

/** Undefined when the text keeps no newline. */
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

/** Turndown escapes node by node, and the editor's escapes read a node's start as a line's start. */
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
