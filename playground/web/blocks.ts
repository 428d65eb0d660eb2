// Block Kit drawn as Slack draws it: every block and element the gateway sends, in messages, modals
// and the Home tab. What is not known here is drawn as a visible placeholder naming its type.
import type { ElementValue } from '../protocol.js';
import { h } from './dom.js';
import { emojiFor } from './emoji.js';
import { renderMarkdown } from './markdown.js';
import { isSafeUrl, type MrkdwnNode, parseMrkdwn } from './mrkdwn.js';
import { type DateReader, formatSlackDate } from './slack-dates.js';

type Json = Record<string, unknown>;

export interface BlockContext {
  surface: 'message' | 'modal' | 'home';
  /** A person's or a conversation's name, or a user group's handle, for mentions. */
  nameOf(id: string): string;
  /** Options for users_select and conversations_select. */
  people: Array<{ id: string; name: string }>;
  conversations: Array<{ id: string; name: string }>;
  /** A click or a pick in an interactive element. */
  act(blockId: string, actionId: string, element: ElementValue): void;
  /** Inputs register how to read their value for view.state.values. */
  register(blockId: string, actionId: string, read: () => ElementValue): void;
  /** Values typed before the view was redrawn, by block and action id. */
  previous(blockId: string, actionId: string): ElementValue | undefined;
  /** Inline errors from response_action: errors, by block_id. */
  errors: Record<string, string>;
  /** Asks before a click that carries a confirm dialog. */
  confirm(dialog: Json, then: () => void): void;
  /** An uploaded image's data URL, by its file id. */
  fileImage(id: string): string | undefined;
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function renderBlocks(blocks: unknown[], context: BlockContext): HTMLElement {
  return h('div', { class: 'blocks' }, ...blocks.map((block) => renderBlock(block, context)));
}

function unknownThing(what: string, type: string): HTMLElement {
  return h('div', { class: 'unknown', 'data-unknown': type }, `Unsupported ${what}: ${type || '(no type)'}`);
}

function renderBlock(block: unknown, context: BlockContext): HTMLElement {
  if (!isJson(block)) return unknownThing('block', typeof block);
  const type = str(block.type);
  const blockId = str(block.block_id);
  const attributes = { class: `block block-${type}`, 'data-block-id': blockId || undefined };
  switch (type) {
    case 'section': {
      const main = h('div', { class: 'section-main' });
      if (block.text !== undefined) main.append(renderText(block.text, context));
      if (block.fields !== undefined) {
        main.append(
          h(
            'div',
            { class: 'fields' },
            ...list(block.fields).map((f) => h('div', { class: 'field' }, renderText(f, context))),
          ),
        );
      }
      const accessory =
        block.accessory === undefined ? undefined : renderElement(block.accessory, blockId, context);
      return h('div', attributes, main, accessory && h('div', { class: 'accessory' }, accessory));
    }
    case 'context':
      return h(
        'div',
        attributes,
        ...list(block.elements).map((element) =>
          isJson(element) && element.type === 'image'
            ? renderImageElement(element, 'context-image', context)
            : renderText(element, context),
        ),
      );
    case 'divider':
      return h('hr', attributes);
    case 'header':
      return h('div', attributes, renderText(block.text, context));
    case 'image':
      return h(
        'div',
        attributes,
        isJson(block.title)
          ? h('div', { class: 'image-title' }, renderText(block.title, context))
          : undefined,
        renderImageElement(block, 'image', context),
      );
    case 'actions':
    case 'context_actions':
      return h(
        'div',
        attributes,
        ...list(block.elements).map((element) => renderElement(element, blockId, context)),
      );
    case 'markdown':
      return h('div', attributes, renderMarkdown(str(block.text)));
    case 'rich_text':
      return h(
        'div',
        attributes,
        ...list(block.elements).map((element) => renderRichTextPart(element, context)),
      );
    case 'table':
      return renderTable(block, attributes, context);
    case 'input':
      return renderInput(block, blockId, context);
    default:
      return unknownThing('block', type);
  }
}

/** A text object: mrkdwn, or plain_text with its emoji shortcodes drawn when `emoji` is not false. */
export function renderText(text: unknown, context: Pick<BlockContext, 'nameOf'>): HTMLElement {
  if (!isJson(text)) return unknownThing('text', typeof text);
  if (text.type === 'plain_text') {
    const value = str(text.text);
    const shown =
      text.emoji === false
        ? value
        : value.replace(/:([a-z0-9_+'-]+):/g, (whole, name: string) => emojiFor(name) ?? whole);
    return h('span', { class: 'plain' }, shown);
  }
  if (text.type === 'mrkdwn') {
    return h(
      'span',
      { class: 'mrkdwn' },
      ...(text.verbatim === true ? [str(text.text)] : drawMrkdwn(parseMrkdwn(str(text.text)), context)),
    );
  }
  return unknownThing('text object', str(text.type));
}

export function renderMrkdwn(text: string, context: Pick<BlockContext, 'nameOf'>): HTMLElement {
  return h('span', { class: 'mrkdwn' }, ...drawMrkdwn(parseMrkdwn(text), context));
}

function drawMrkdwn(nodes: MrkdwnNode[], context: Pick<BlockContext, 'nameOf'>): Node[] {
  return nodes.map((node): Node => {
    switch (node.kind) {
      case 'text':
        return document.createTextNode(node.text);
      case 'bold':
        return h('b', {}, ...drawMrkdwn(node.children, context));
      case 'italic':
        return h('i', {}, ...drawMrkdwn(node.children, context));
      case 'strike':
        return h('s', {}, ...drawMrkdwn(node.children, context));
      case 'code':
        return h('code', {}, node.text);
      case 'preformatted':
        return h('pre', {}, node.text);
      case 'quote':
        return h('blockquote', {}, ...drawMrkdwn(node.children, context));
      case 'break':
        return h('br');
      case 'link':
        return link(node.url, drawMrkdwn(node.children, context));
      case 'user':
        return h('span', { class: 'mention' }, `@${node.label ?? context.nameOf(node.id)}`);
      case 'channel':
        return h('span', { class: 'mention' }, `#${node.label ?? context.nameOf(node.id)}`);
      case 'usergroup':
        return h('span', { class: 'mention' }, `@${node.label ?? context.nameOf(node.id)}`);
      case 'broadcast':
        return h('span', { class: 'mention broadcast' }, node.name);
      case 'date':
        return h(
          'span',
          { class: 'slack-date', title: node.fallback },
          formatSlackDate(node.epoch, node.format, { ...dateReader, now: new Date() }) ?? node.fallback,
        );
      case 'emoji': {
        const emoji = emojiFor(node.name);
        return emoji === undefined
          ? document.createTextNode(`:${node.name}:`)
          : h('span', { class: 'emoji', title: `:${node.name}:` }, emoji);
      }
      default:
        return unknownThing('mrkdwn', 'node');
    }
  });
}

/**
 * A link opens in a new tab; other schemes are text. A permalink of the workspace opens its message
 * here, as Slack's client does, so the person stays who they are.
 */
function link(url: string, children: Node[]): HTMLElement {
  if (!isSafeUrl(url) && !url.startsWith('/'))
    return h('span', { class: 'unsafe-link', title: url }, ...children);
  const permalink = permalinkHash(url);
  if (permalink !== undefined) return h('a', { href: permalink, class: 'permalink' }, ...children);
  return h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, ...children);
}

/** The workspace's web address (the snapshot's team url): its permalinks open in the page. */
let workspaceUrl: string | undefined;

export function setWorkspaceUrl(url: string): void {
  workspaceUrl = url;
}

/** Who reads the page: Slack draws its date tokens in their zone and language. */
let dateReader: Omit<DateReader, 'now'> = { timeZone: 'UTC', locale: 'en-US' };

export function setDateReader(reader: Omit<DateReader, 'now'>): void {
  dateReader = reader;
}

/** `#C123/1700000000.000100` for a permalink to this workspace; undefined for any other link. */
function permalinkHash(url: string): string | undefined {
  if (workspaceUrl === undefined || !url.startsWith(`${workspaceUrl}/archives/`)) return undefined;
  const match = /\/archives\/([A-Z0-9]+)\/p(\d+)(\d{6})$/.exec(url);
  return match ? `#${match[1]}/${match[2]}.${match[3]}` : undefined;
}

/** Images from other hosts are not loaded: the page reaches nothing but 127.0.0.1. */
function renderImageElement(
  image: Json,
  className: string,
  context: Pick<BlockContext, 'fileImage'>,
): HTMLElement {
  const alt = str(image.alt_text);
  // A Slack file is drawn from its upload, which the stand-in already checked is shared.
  const file = isJson(image.slack_file) ? context.fileImage(str(image.slack_file.id)) : undefined;
  if (file) return h('img', { class: className, src: file, alt });
  const url = str(image.image_url);
  const local = /^https?:\/\/(?:127\.0\.0\.1|localhost)(?::\d+)?\//.test(url) || url.startsWith('/');
  if (local) return h('img', { class: className, src: url, alt });
  return h(
    'div',
    { class: `${className} remote-image`, title: url, role: 'img', 'aria-label': alt },
    h('span', { class: 'remote-image-icon' }, '🖼'),
    h('span', { class: 'remote-image-alt' }, alt || 'image'),
    className === 'image' ? h('span', { class: 'remote-image-url' }, url) : undefined,
  );
}

function optionValue(option: unknown): { text: unknown; value: string } | null {
  return isJson(option) ? { text: option.text, value: str(option.value) } : null;
}

function renderElement(element: unknown, blockId: string, context: BlockContext): HTMLElement {
  if (!isJson(element)) return unknownThing('element', typeof element);
  const type = str(element.type);
  const actionId = str(element.action_id);
  const act = (value: ElementValue) => {
    const go = () => context.act(blockId, actionId, value);
    if (isJson(element.confirm)) context.confirm(element.confirm, go);
    else go();
  };
  switch (type) {
    case 'button': {
      const style = str(element.style);
      const button = h(
        'button',
        {
          class: `button ${style ? `button-${style}` : ''}`,
          type: 'button',
          'data-action-id': actionId,
          onclick: () => {
            if (typeof element.url === 'string' && isSafeUrl(element.url))
              window.open(element.url, '_blank', 'noopener');
            act({ type: 'button', value: typeof element.value === 'string' ? element.value : null });
          },
        },
        renderText(element.text, context),
      );
      return button;
    }
    case 'feedback_buttons': {
      // As Slack draws its rating element: two small pill buttons side by side, the chosen one marked.
      const sides = [
        { side: 'positive', button: element.positive_button },
        { side: 'negative', button: element.negative_button },
      ].filter((entry): entry is { side: string; button: Json } => isJson(entry.button));
      const group = h('span', { class: 'feedback-buttons', role: 'group', 'data-action-id': actionId });
      for (const { side, button } of sides) {
        const label = str(button.accessibility_label) || plainOf(button.text);
        const drawn = h(
          'button',
          {
            class: `feedback-button feedback-${side}`,
            type: 'button',
            'aria-label': label,
            'aria-pressed': 'false',
            title: label,
            onclick: () => {
              for (const other of group.querySelectorAll('button'))
                other.setAttribute('aria-pressed', 'false');
              drawn.setAttribute('aria-pressed', 'true');
              act({
                type: 'feedback_buttons',
                value: str(button.value),
                ...(isJson(button.text) ? { text: { type: 'plain_text', text: plainOf(button.text) } } : {}),
              });
            },
          },
          renderText(button.text, context),
        );
        group.append(drawn);
      }
      return group;
    }
    case 'icon_button':
      return h(
        'button',
        {
          class: 'button button-icon',
          type: 'button',
          title: str(element.icon),
          onclick: () => act({ type: 'icon_button', value: str(element.value) }),
        },
        renderText(element.text, context),
      );
    case 'image':
      return renderImageElement(element, 'accessory-image', context);
    case 'overflow': {
      const select = h(
        'select',
        {
          class: 'overflow',
          'aria-label': 'More actions',
          onchange: () => {
            const option = list(element.options)[select.selectedIndex - 1];
            select.selectedIndex = 0;
            act({ type: 'overflow', selected_option: optionValue(option) });
          },
        },
        h('option', {}, '⋮'),
        ...list(element.options).map((option) => h('option', {}, isJson(option) ? plainOf(option.text) : '')),
      );
      return select;
    }
    case 'static_select':
    case 'multi_static_select':
    case 'users_select':
    case 'multi_users_select':
    case 'conversations_select':
    case 'channels_select':
    case 'multi_conversations_select':
    case 'multi_channels_select':
      return renderSelect(element, type, blockId, actionId, context, act);
    case 'datepicker':
    case 'timepicker':
    case 'datetimepicker':
    case 'plain_text_input':
    case 'email_text_input':
    case 'url_text_input':
    case 'number_input':
    case 'rich_text_input':
    case 'radio_buttons':
    case 'checkboxes':
      return renderField(element, type, blockId, actionId, context, act);
    default:
      return unknownThing('element', type);
  }
}

function plainOf(text: unknown): string {
  return isJson(text) ? str(text.text) : '';
}

type Options = Array<{ text: unknown; value: string }>;

function optionsOf(element: Json, type: string, context: BlockContext): Options {
  if (type.includes('users'))
    return context.people.map((person) => ({
      text: { type: 'plain_text', text: person.name },
      value: person.id,
    }));
  if (type.includes('conversations') || type.includes('channels')) {
    return context.conversations.map((c) => ({ text: { type: 'plain_text', text: c.name }, value: c.id }));
  }
  const grouped = list(element.option_groups).flatMap((group) => (isJson(group) ? list(group.options) : []));
  return [...list(element.options), ...grouped].flatMap((option) => {
    const value = optionValue(option);
    return value ? [value] : [];
  });
}

function renderSelect(
  element: Json,
  type: string,
  blockId: string,
  actionId: string,
  context: BlockContext,
  act: (value: ElementValue) => void,
): HTMLElement {
  const multiple = type.startsWith('multi_');
  const options = optionsOf(element, type, context);
  const previous = context.previous(blockId, actionId);
  const initial = new Set<string>(
    previous
      ? [previous.selected_option?.value, ...(previous.selected_options ?? []).map((o) => o.value)].filter(
          (v): v is string => v !== undefined,
        )
      : [
          str(isJson(element.initial_option) ? element.initial_option.value : ''),
          ...list(element.initial_options).map((o) => (isJson(o) ? str(o.value) : '')),
          // The multi pickers' initial ids, as Slack preselects them.
          ...[element.initial_users, element.initial_conversations, element.initial_channels].flatMap((ids) =>
            list(ids).map(str),
          ),
          str(element.initial_user),
          str(element.initial_conversation),
          str(element.initial_channel),
        ].filter((v) => v !== ''),
  );
  const select = h(
    'select',
    {
      class: 'select',
      multiple,
      'aria-label': plainOf(element.placeholder) || 'Select an option',
      'data-action-id': actionId,
    },
    multiple ? undefined : h('option', { value: '' }, plainOf(element.placeholder) || 'Select an option'),
    ...options.map((option) =>
      h('option', { value: option.value, selected: initial.has(option.value) }, plainOf(option.text)),
    ),
  );
  const kind = type.replace(/^multi_/, '');
  const valueKey =
    kind === 'users_select' ? 'user' : kind === 'conversations_select' ? 'conversation' : 'channel';
  const read = (): ElementValue => {
    const chosen = options.filter((option) =>
      [...select.selectedOptions].some((selected) => selected.value === option.value),
    );
    if (type === 'static_select' || type === 'multi_static_select') {
      return multiple ? { type, selected_options: chosen } : { type, selected_option: chosen[0] ?? null };
    }
    // People and conversation pickers carry ids, as Slack's do (selected_user, selected_conversations…).
    const ids = chosen.map((option) => option.value);
    return multiple
      ? { type, [`selected_${valueKey}s`]: ids }
      : { type, [`selected_${valueKey}`]: ids[0] ?? null };
  };
  context.register(blockId, actionId, read);
  select.addEventListener('change', () => {
    if (context.surface !== 'modal' || element.dispatch_action === true) act(read());
  });
  return select;
}

function renderField(
  element: Json,
  type: string,
  blockId: string,
  actionId: string,
  context: BlockContext,
  act: (value: ElementValue) => void,
): HTMLElement {
  const previous = context.previous(blockId, actionId);
  const placeholder = plainOf(element.placeholder);
  switch (type) {
    case 'radio_buttons':
    case 'checkboxes': {
      const options = optionsOf(element, 'static_select', context);
      const chosen = new Set<string>(
        previous
          ? [
              previous.selected_option?.value,
              ...(previous.selected_options ?? []).map((o) => o.value),
            ].filter((v): v is string => v !== undefined)
          : [
              str(isJson(element.initial_option) ? element.initial_option.value : ''),
              ...list(element.initial_options).map((o) => (isJson(o) ? str(o.value) : '')),
            ],
      );
      const name = `${blockId}/${actionId}`;
      const inputs = options.map((option) =>
        h('input', {
          type: type === 'radio_buttons' ? 'radio' : 'checkbox',
          name,
          value: option.value,
          checked: chosen.has(option.value),
        }),
      );
      const read = (): ElementValue => {
        const picked = options.filter((_option, index) => inputs[index]?.checked === true);
        return type === 'radio_buttons'
          ? { type, selected_option: picked[0] ?? null }
          : { type, selected_options: picked };
      };
      context.register(blockId, actionId, read);
      const group = h(
        'div',
        { class: 'choices', role: type === 'radio_buttons' ? 'radiogroup' : 'group' },
        ...options.map((option, index) =>
          h('label', { class: 'choice' }, inputs[index], ' ', renderText(option.text, context)),
        ),
      );
      group.addEventListener('change', () => {
        if (context.surface !== 'modal' || element.dispatch_action === true) act(read());
      });
      return group;
    }
    case 'datepicker':
    case 'timepicker':
    case 'datetimepicker': {
      const inputType = type === 'datepicker' ? 'date' : type === 'timepicker' ? 'time' : 'datetime-local';
      const initial =
        type === 'datepicker'
          ? (previous?.selected_date ?? str(element.initial_date))
          : type === 'timepicker'
            ? (previous?.selected_time ?? str(element.initial_time))
            : '';
      const input = h('input', {
        type: inputType,
        class: 'picker',
        value: initial ?? '',
        'aria-label': placeholder || type,
        'data-action-id': actionId,
      });
      const read = (): ElementValue =>
        type === 'datepicker'
          ? { type, selected_date: input.value || null }
          : type === 'timepicker'
            ? { type, selected_time: input.value || null }
            : { type, value: input.value || null };
      context.register(blockId, actionId, read);
      input.addEventListener('change', () => {
        if (context.surface !== 'modal' || element.dispatch_action === true) act(read());
      });
      return input;
    }
    default: {
      const multiline = element.multiline === true || type === 'rich_text_input';
      // A field the person cleared (null) stays clear when the view is drawn again, as in Slack.
      const initial = previous ? (previous.value ?? '') : str(element.initial_value);
      const attributes = {
        class: 'text-input',
        placeholder,
        'aria-label': placeholder || actionId,
        'data-action-id': actionId,
        maxlength: typeof element.max_length === 'number' ? String(element.max_length) : undefined,
      };
      const input = multiline
        ? h('textarea', { ...attributes, rows: '5' }, initial ?? '')
        : h('input', {
            ...attributes,
            type:
              type === 'email_text_input'
                ? 'email'
                : type === 'url_text_input'
                  ? 'url'
                  : type === 'number_input'
                    ? 'number'
                    : 'text',
            value: initial ?? '',
          });
      context.register(blockId, actionId, () => ({ type, value: input.value === '' ? null : input.value }));
      return input;
    }
  }
}

let labelCounter = 0;

function renderInput(block: Json, blockId: string, context: BlockContext): HTMLElement {
  const error = context.errors[blockId];
  labelCounter += 1;
  const labelId = `input-label-${labelCounter}`;
  const element = renderElement(block.element, blockId, context);
  // The label names the element, so a screen reader (and a test) finds the field by its label.
  element.setAttribute('aria-labelledby', labelId);
  return h(
    'div',
    { class: `block block-input${error ? ' has-error' : ''}`, 'data-block-id': blockId },
    h(
      'label',
      { class: 'input-label', id: labelId },
      renderText(block.label, context),
      block.optional === true ? h('span', { class: 'optional' }, ' (optional)') : undefined,
    ),
    element,
    isJson(block.hint) ? h('div', { class: 'hint' }, renderText(block.hint, context)) : undefined,
    error ? h('div', { class: 'input-error', role: 'alert' }, error) : undefined,
  );
}

function renderTable(
  block: Json,
  attributes: Record<string, string | undefined>,
  context: BlockContext,
): HTMLElement {
  const rows = list(block.rows);
  const cell = (value: unknown, tag: 'th' | 'td') => {
    if (isJson(value) && value.type === 'raw_text') return h(tag, {}, ...unbrokenTokens(str(value.text)));
    if (isJson(value) && value.type === 'rich_text') return h(tag, {}, renderBlock(value, context));
    return h(tag, {}, unknownThing('table cell', isJson(value) ? str(value.type) : typeof value));
  };
  const [head, ...body] = rows;
  return h(
    'div',
    attributes,
    h(
      'table',
      { class: 'table' },
      head ? h('thead', {}, h('tr', {}, ...list(head).map((value) => cell(value, 'th')))) : undefined,
      h('tbody', {}, ...body.map((row) => h('tr', {}, ...list(row).map((value) => cell(value, 'td'))))),
    ),
  );
}

/**
 * A cell's text with each date, time or number-like token (`2026-11-20`, `14:03`, `1,204`) kept on one
 * line: browsers otherwise break after a hyphen, leaving `2026-11-` above `20` in a narrow column.
 */
function unbrokenTokens(text: string): Array<string | HTMLElement> {
  return text
    .split(/(\S*\d[-/:.,]\d\S*)/)
    .filter((part) => part !== '')
    .map((part) => (/\d[-/:.,]\d/.test(part) ? h('span', { class: 'unbroken' }, part) : part));
}

/** rich_text: what people type (and what apps may send), sections, lists, quotes and code. */
function renderRichTextPart(part: unknown, context: BlockContext): HTMLElement {
  if (!isJson(part)) return unknownThing('rich text', typeof part);
  const elements = list(part.elements);
  switch (part.type) {
    case 'rich_text_section':
      return h('div', { class: 'rt-section' }, ...elements.map((e) => renderRichTextElement(e, context)));
    case 'rich_text_preformatted':
      return h('pre', {}, ...elements.map((e) => renderRichTextElement(e, context)));
    case 'rich_text_quote':
      return h('blockquote', {}, ...elements.map((e) => renderRichTextElement(e, context)));
    case 'rich_text_list': {
      const tag = part.style === 'ordered' ? 'ol' : 'ul';
      return h(tag, {}, ...elements.map((item) => h('li', {}, renderRichTextPart(item, context))));
    }
    default:
      return unknownThing('rich text', str(part.type));
  }
}

function renderRichTextElement(element: unknown, context: BlockContext): Node {
  if (!isJson(element)) return unknownThing('rich text element', typeof element);
  const style = isJson(element.style) ? element.style : {};
  let node: Node;
  switch (element.type) {
    case 'text':
      node = document.createTextNode(str(element.text));
      break;
    case 'link':
      node = link(str(element.url), [document.createTextNode(str(element.text) || str(element.url))]);
      break;
    case 'user':
      node = h('span', { class: 'mention' }, `@${context.nameOf(str(element.user_id))}`);
      break;
    case 'channel':
      node = h('span', { class: 'mention' }, `#${context.nameOf(str(element.channel_id))}`);
      break;
    case 'usergroup':
      node = h('span', { class: 'mention' }, `@${context.nameOf(str(element.usergroup_id))}`);
      break;
    case 'broadcast':
      node = h('span', { class: 'mention broadcast' }, `@${str(element.range)}`);
      break;
    case 'emoji':
      node = document.createTextNode(emojiFor(str(element.name)) ?? `:${str(element.name)}:`);
      break;
    default:
      return unknownThing('rich text element', str(element.type));
  }
  if (style.code === true) node = h('code', {}, node);
  if (style.bold === true) node = h('b', {}, node);
  if (style.italic === true) node = h('i', {}, node);
  if (style.strike === true) node = h('s', {}, node);
  return node;
}
