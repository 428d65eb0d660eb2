// The turndown rules both dialects (Slack mrkdwn, the editor's Markdown) share.
import type { DominoNode as DomNode } from '@mixmark-io/domino';
import TurndownService from 'turndown';

/** The parse strips these from the answer, so every one in a dialect's output is its own. */
export const SENTINELS = /[\uE000-\uE00F]/g;
/** A <br>: turndown merges adjacent newlines, and two <br> in a row are a blank line the author meant. */
export const LINE_BREAK = '\uE005';

/** Dropped with their content. */
const NON_CONTENT_ELEMENTS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'title',
  'meta',
  'link',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
]);

export function createBaseService(
  options: TurndownService.Options,
  escapeText: (text: string) => string,
): TurndownService {
  const service = new TurndownService(options);
  // Turndown calls this for text nodes outside <code> only.
  service.escape = escapeText;
  service.remove((node) => NON_CONTENT_ELEMENTS.has(node.nodeName.toLowerCase()));
  service.addRule('lineBreak', { filter: 'br', replacement: () => LINE_BREAK });
  service.addRule('list', {
    filter: ['ul', 'ol'],
    replacement: (content, node: DomNode) =>
      node.parentNode?.nodeName === 'LI' ? `\n${content}\n` : `\n\n${content}\n\n`,
  });
  return service;
}

/** An inline style: inside another of its elements the content is already styled, so it is kept as is. */
export function addStyleRule(
  service: TurndownService,
  name: string,
  tags: readonly string[],
  style: (content: string, node: DomNode) => string,
): void {
  const names = tags.map((tag) => tag.toUpperCase());
  service.addRule(name, {
    filter: (node) => names.includes(node.nodeName),
    replacement: (content, node: DomNode) => (hasAncestor(node, names) ? content : style(content, node)),
  });
}

function hasAncestor(node: DomNode, names: readonly string[]): boolean {
  for (let parent = node.parentNode; parent; parent = parent.parentNode) {
    if (names.includes(parent.nodeName)) return true;
  }
  return false;
}

/** `start` is 1 when absent or not a number. */
export function orderedItemNumber(item: DomNode): number {
  let index = 0;
  for (let sibling = item.previousSibling; sibling; sibling = sibling.previousSibling) {
    if (sibling.nodeName === 'LI') index += 1;
  }
  const start = Number.parseInt(item.parentNode?.getAttribute?.('start') ?? '1', 10);
  return (Number.isFinite(start) ? start : 1) + index;
}
