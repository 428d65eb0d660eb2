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

export function hasAncestor(node: DomNode, test: (ancestor: DomNode) => boolean): boolean {
  for (let parent = node.parentNode; parent; parent = parent.parentNode) {
    if (test(parent)) return true;
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
