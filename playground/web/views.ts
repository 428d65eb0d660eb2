// Modals and the Home tab: a view's blocks with the values typed into it, read back as Slack's
// view.state.values on submit, and kept when the app updates the view with the same ids.
import type { ElementValue, PlaygroundView, StateValues } from '../protocol.js';
import { type BlockContext, renderBlocks, renderText } from './blocks.js';
import { h } from './dom.js';
import type { PageWords } from './words.js';

type Json = Record<string, unknown>;

export type ViewContextBase = Omit<BlockContext, 'surface' | 'register' | 'previous' | 'errors'>;

/** The readers of a drawn view's inputs, to collect its state. */
export class ViewState {
  readonly #readers = new Map<string, () => ElementValue>();

  register(blockId: string, actionId: string, read: () => ElementValue): void {
    this.#readers.set(`${blockId}\u0000${actionId}`, read);
  }

  values(): StateValues {
    const values: StateValues = {};
    for (const [key, read] of this.#readers) {
      const [blockId = '', actionId = ''] = key.split('\u0000');
      values[blockId] = { ...values[blockId], [actionId]: read() };
    }
    return values;
  }
}

function plain(text: unknown): string {
  return typeof text === 'object' && text !== null && 'text' in text && typeof text.text === 'string'
    ? text.text
    : '';
}

export interface ModalHandlers {
  submit(view: PlaygroundView, values: StateValues): void;
  close(view: PlaygroundView): void;
}

/** Draws a modal; `previous` holds what was typed into the view it replaces. */
export function renderModal(
  view: PlaygroundView,
  base: ViewContextBase,
  previous: StateValues,
  said: Pick<PageWords, 'cancel' | 'close'>,
  handlers: ModalHandlers,
): { element: HTMLElement; state: ViewState } {
  const state = new ViewState();
  const context: BlockContext = {
    ...base,
    surface: 'modal',
    errors: view.errors,
    register: (blockId, actionId, read) => state.register(blockId, actionId, read),
    previous: (blockId, actionId) => previous[blockId]?.[actionId],
  };
  const json: Json = view.view;
  const blocks = Array.isArray(json.blocks) ? json.blocks : [];
  const submit = json.submit === undefined ? undefined : plain(json.submit);
  const close = json.close === undefined ? said.cancel : plain(json.close);
  const form = h(
    'form',
    {
      class: 'modal',
      role: 'dialog',
      'aria-modal': 'true',
      'aria-label': plain(json.title),
      'data-view-id': view.id,
      'data-callback-id': typeof json.callback_id === 'string' ? json.callback_id : undefined,
      onsubmit: (event) => {
        event.preventDefault();
        handlers.submit(view, state.values());
      },
    },
    h(
      'header',
      { class: 'modal-header' },
      h('h2', {}, renderText(json.title, base)),
      h(
        'button',
        { type: 'button', class: 'modal-x', 'aria-label': said.close, onclick: () => handlers.close(view) },
        '×',
      ),
    ),
    h('div', { class: 'modal-body' }, renderBlocks(blocks, context)),
    h(
      'footer',
      { class: 'modal-footer' },
      h('button', { type: 'button', class: 'button', onclick: () => handlers.close(view) }, close),
      submit === undefined
        ? undefined
        : h('button', { type: 'submit', class: 'button button-primary' }, submit),
    ),
  );
  return { element: h('div', { class: 'modal-layer' }, form), state };
}

export function renderHome(
  view: PlaygroundView | undefined,
  base: ViewContextBase,
  said: Pick<PageWords, 'homeEmpty'>,
): HTMLElement {
  if (!view) return h('div', { class: 'home-empty' }, said.homeEmpty);
  const json: Json = view.view;
  const state = new ViewState();
  const context: BlockContext = {
    ...base,
    surface: 'home',
    errors: {},
    register: (blockId, actionId, read) => state.register(blockId, actionId, read),
    previous: () => undefined,
  };
  return h(
    'div',
    { class: 'home', 'data-view-id': view.id },
    renderBlocks(Array.isArray(json.blocks) ? json.blocks : [], context),
  );
}
