// Slack's Block Kit limits, checked the way Slack checks them before it accepts a message or a view:
// the playground's stand-in for Slack and the tests' fake Slack refuse the same invalid payloads with
// the same errors (`invalid_blocks` for messages, `invalid_arguments` for views), each problem
// named by a JSON pointer as Slack names it.

import { BLOCK_KIT } from '../../src/slack/kit/block-kit-limits.js';

type Json = Record<string, unknown>;

/** One problem, worded as Slack's `response_metadata.messages` word it. */
type BlockKitProblem = string;

const MESSAGE_BLOCKS_MAX = BLOCK_KIT.message.blocks;
const VIEW_BLOCKS_MAX = BLOCK_KIT.view.blocks;
/** Slack truncates longer message text and refuses far longer with msg_too_long. */
const MESSAGE_TEXT_MAX = BLOCK_KIT.message.text;
const ID_MAX = BLOCK_KIT.id;

/** Block types Slack accepts in each surface (rich_text and the rest arrive from people too). */
const MESSAGE_BLOCK_TYPES = new Set([
  'section',
  'context',
  'divider',
  'header',
  'image',
  'actions',
  'markdown',
  'rich_text',
  'table',
  'file',
  'video',
  'context_actions',
]);
const VIEW_BLOCK_TYPES = new Set([...MESSAGE_BLOCK_TYPES, 'input']);

const INTERACTIVE_ELEMENTS = new Set([
  'button',
  'static_select',
  'external_select',
  'users_select',
  'conversations_select',
  'channels_select',
  'multi_static_select',
  'multi_users_select',
  'multi_conversations_select',
  'multi_channels_select',
  'overflow',
  'datepicker',
  'timepicker',
  'datetimepicker',
  'radio_buttons',
  'checkboxes',
  'plain_text_input',
  'email_text_input',
  'url_text_input',
  'number_input',
  'rich_text_input',
  'feedback_buttons',
  'icon_button',
  'workflow_button',
]);

class Checker {
  readonly problems: BlockKitProblem[] = [];

  fail(pointer: string, message: string): void {
    this.problems.push(`[ERROR] ${message} [json-pointer:${pointer}]`);
  }

  maxLength(value: unknown, max: number, pointer: string): void {
    if (typeof value === 'string' && value.length > max) {
      this.fail(pointer, `must be less than ${max + 1} characters`);
    }
  }

  maxItems(value: unknown, max: number, pointer: string): void {
    if (Array.isArray(value) && value.length > max) this.fail(pointer, `must be less than ${max + 1} items`);
  }

  /** A text object: `plain_text` only where Slack says so, and its text within `max`. */
  text(value: unknown, pointer: string, max: number, kinds: 'plain' | 'any' = 'any'): void {
    if (!isJson(value)) {
      this.fail(pointer, 'must provide an object');
      return;
    }
    const type = value.type;
    if (type !== 'plain_text' && type !== 'mrkdwn') {
      this.fail(`${pointer}/type`, 'must be a valid enum value');
      return;
    }
    if (kinds === 'plain' && type !== 'plain_text') {
      this.fail(`${pointer}/type`, 'must be one of the following: plain_text');
    }
    if (typeof value.text !== 'string') {
      this.fail(`${pointer}/text`, 'must provide a string');
      return;
    }
    if (value.text.length === 0) this.fail(`${pointer}/text`, 'must be more than 0 characters');
    this.maxLength(value.text, max, `${pointer}/text`);
  }

  confirm(value: unknown, pointer: string): void {
    if (value === undefined) return;
    if (!isJson(value)) {
      this.fail(pointer, 'must provide an object');
      return;
    }
    this.text(value.title, `${pointer}/title`, BLOCK_KIT.confirm.title, 'plain');
    this.text(value.text, `${pointer}/text`, BLOCK_KIT.confirm.text);
    this.text(value.confirm, `${pointer}/confirm`, BLOCK_KIT.confirm.button, 'plain');
    this.text(value.deny, `${pointer}/deny`, BLOCK_KIT.confirm.button, 'plain');
  }

  options(value: unknown, pointer: string, max: number): void {
    if (!Array.isArray(value)) {
      this.fail(pointer, 'must provide an array');
      return;
    }
    if (value.length === 0) this.fail(pointer, 'must provide at least 1 item');
    this.maxItems(value, max, pointer);
    value.forEach((option, index) => {
      const at = `${pointer}/${index}`;
      if (!isJson(option)) {
        this.fail(at, 'must provide an object');
        return;
      }
      this.text(option.text, `${at}/text`, BLOCK_KIT.option.text);
      this.maxLength(option.value, BLOCK_KIT.option.value, `${at}/value`);
      if (option.description !== undefined)
        this.text(option.description, `${at}/description`, BLOCK_KIT.option.description);
    });
  }

  element(value: unknown, pointer: string, actionIds: Set<string>): void {
    if (!isJson(value)) {
      this.fail(pointer, 'must provide an object');
      return;
    }
    const type = value.type;
    if (typeof type !== 'string' || !INTERACTIVE_ELEMENTS.has(type)) {
      if (type !== 'image') this.fail(`${pointer}/type`, 'must be a valid enum value');
      else this.image(value, pointer);
      return;
    }
    const actionId = value.action_id;
    if (actionId !== undefined) {
      this.maxLength(actionId, ID_MAX, `${pointer}/action_id`);
      if (typeof actionId === 'string') {
        if (actionIds.has(actionId)) this.fail(`${pointer}/action_id`, 'duplicate action_id');
        actionIds.add(actionId);
      }
    }
    this.confirm(value.confirm, `${pointer}/confirm`);
    if (value.placeholder !== undefined)
      this.text(value.placeholder, `${pointer}/placeholder`, BLOCK_KIT.placeholder, 'plain');
    switch (type) {
      case 'button':
        this.text(value.text, `${pointer}/text`, BLOCK_KIT.button.text, 'plain');
        this.maxLength(value.value, BLOCK_KIT.button.value, `${pointer}/value`);
        this.maxLength(value.url, BLOCK_KIT.button.url, `${pointer}/url`);
        if (value.style !== undefined && value.style !== 'primary' && value.style !== 'danger') {
          this.fail(`${pointer}/style`, 'must be a valid enum value');
        }
        break;
      case 'static_select':
      case 'multi_static_select':
        if (value.option_groups === undefined)
          this.options(value.options, `${pointer}/options`, BLOCK_KIT.staticSelect.options);
        break;
      case 'overflow':
        this.options(value.options, `${pointer}/options`, 5);
        break;
      case 'radio_buttons':
      case 'checkboxes':
        this.options(value.options, `${pointer}/options`, BLOCK_KIT.checkboxes.options);
        break;
      case 'plain_text_input':
        this.maxLength(value.initial_value, BLOCK_KIT.textInput.value, `${pointer}/initial_value`);
        if (typeof value.max_length === 'number' && value.max_length > BLOCK_KIT.textInput.maxLength) {
          this.fail(`${pointer}/max_length`, `must be less than ${BLOCK_KIT.textInput.maxLength + 1}`);
        }
        break;
      case 'feedback_buttons':
        this.feedbackButton(value.positive_button, `${pointer}/positive_button`);
        this.feedbackButton(value.negative_button, `${pointer}/negative_button`);
        break;
      case 'icon_button':
        if (typeof value.icon !== 'string' || value.icon === '')
          this.fail(`${pointer}/icon`, 'must provide a string');
        this.text(value.text, `${pointer}/text`, BLOCK_KIT.button.text, 'plain');
        this.maxLength(value.value, BLOCK_KIT.button.value, `${pointer}/value`);
        break;
      default:
        break;
    }
  }

  /** One side of a feedback_buttons element: both are required, each with plain text and a value. */
  feedbackButton(value: unknown, pointer: string): void {
    if (!isJson(value)) {
      this.fail(pointer, 'must provide an object');
      return;
    }
    this.text(value.text, `${pointer}/text`, BLOCK_KIT.feedbackButton.text, 'plain');
    if (typeof value.value !== 'string' || value.value === '')
      this.fail(`${pointer}/value`, 'must provide a string');
    this.maxLength(value.value, BLOCK_KIT.button.value, `${pointer}/value`);
    this.maxLength(
      value.accessibility_label,
      BLOCK_KIT.feedbackButton.text,
      `${pointer}/accessibility_label`,
    );
  }

  image(value: Json, pointer: string): void {
    if (value.image_url === undefined && value.slack_file === undefined) {
      this.fail(pointer, 'must provide image_url or slack_file');
    }
    this.maxLength(value.image_url, BLOCK_KIT.image.url, `${pointer}/image_url`);
    if (typeof value.alt_text !== 'string' || value.alt_text === '') {
      this.fail(`${pointer}/alt_text`, 'must provide a string');
    }
    this.maxLength(value.alt_text, BLOCK_KIT.image.altText, `${pointer}/alt_text`);
  }

  block(value: unknown, pointer: string, allowed: Set<string>, blockIds: Set<string>): void {
    if (!isJson(value)) {
      this.fail(pointer, 'must provide an object');
      return;
    }
    const type = value.type;
    if (typeof type !== 'string' || !allowed.has(type)) {
      this.fail(`${pointer}/type`, 'must be a valid enum value');
      return;
    }
    const blockId = value.block_id;
    if (blockId !== undefined) {
      this.maxLength(blockId, ID_MAX, `${pointer}/block_id`);
      if (typeof blockId === 'string') {
        if (blockIds.has(blockId)) this.fail(`${pointer}/block_id`, 'duplicate block_id');
        blockIds.add(blockId);
      }
    }
    const actionIds = new Set<string>();
    switch (type) {
      case 'section':
        if (value.text === undefined && value.fields === undefined) {
          this.fail(pointer, 'must provide either text or fields');
        }
        if (value.text !== undefined) this.text(value.text, `${pointer}/text`, BLOCK_KIT.section.text);
        if (value.fields !== undefined) {
          this.maxItems(value.fields, BLOCK_KIT.section.fields, `${pointer}/fields`);
          arrayOf(value.fields).forEach((field, index) => {
            this.text(field, `${pointer}/fields/${index}`, BLOCK_KIT.section.fieldText);
          });
        }
        if (value.accessory !== undefined) this.element(value.accessory, `${pointer}/accessory`, actionIds);
        break;
      case 'header':
        this.text(value.text, `${pointer}/text`, BLOCK_KIT.header.text, 'plain');
        break;
      case 'context':
        this.maxItems(value.elements, BLOCK_KIT.context.elements, `${pointer}/elements`);
        arrayOf(value.elements).forEach((element, index) => {
          const at = `${pointer}/elements/${index}`;
          if (isJson(element) && element.type === 'image') this.image(element, at);
          else this.text(element, at, BLOCK_KIT.context.text);
        });
        break;
      case 'actions':
      case 'context_actions':
        if (arrayOf(value.elements).length === 0)
          this.fail(`${pointer}/elements`, 'must provide at least 1 item');
        this.maxItems(
          value.elements,
          type === 'actions' ? BLOCK_KIT.actions.elements : BLOCK_KIT.contextActions.elements,
          `${pointer}/elements`,
        );
        arrayOf(value.elements).forEach((element, index) => {
          const at = `${pointer}/elements/${index}`;
          // Slack draws feedback and icon buttons only in a context_actions block, and nothing else there.
          const elementType = isJson(element) ? element.type : undefined;
          const contextual = elementType === 'feedback_buttons' || elementType === 'icon_button';
          if (contextual !== (type === 'context_actions'))
            this.fail(`${at}/type`, 'must be a valid enum value');
          else this.element(element, at, actionIds);
        });
        break;
      case 'image':
        this.image(value, pointer);
        if (value.title !== undefined)
          this.text(value.title, `${pointer}/title`, BLOCK_KIT.image.title, 'plain');
        break;
      case 'markdown':
        if (typeof value.text !== 'string') this.fail(`${pointer}/text`, 'must provide a string');
        this.maxLength(value.text, BLOCK_KIT.markdown.text, `${pointer}/text`);
        break;
      case 'input':
        this.text(value.label, `${pointer}/label`, BLOCK_KIT.input.label, 'plain');
        if (value.hint !== undefined) this.text(value.hint, `${pointer}/hint`, BLOCK_KIT.input.hint, 'plain');
        this.element(value.element, `${pointer}/element`, actionIds);
        break;
      case 'table':
        this.maxItems(value.rows, BLOCK_KIT.table.rows, `${pointer}/rows`);
        arrayOf(value.rows).forEach((row, index) => {
          this.maxItems(row, BLOCK_KIT.table.cells, `${pointer}/rows/${index}`);
        });
        break;
      default:
        break;
    }
  }

  blocks(value: unknown, pointer: string, max: number, allowed: Set<string>): void {
    if (!Array.isArray(value)) {
      this.fail(pointer, 'must provide an array');
      return;
    }
    this.maxItems(value, max, pointer);
    const blockIds = new Set<string>();
    value.forEach((block, index) => {
      this.block(block, `${pointer}/${index}`, allowed, blockIds);
    });
  }
}

/** The refusal Slack gives a message (chat.postMessage, chat.update, chat.postEphemeral, response_url). */
export interface Refusal {
  error: string;
  problems: BlockKitProblem[];
}

/**
 * Checks a message's `text` and `blocks` (already parsed from JSON) as Slack does; undefined when
 * Slack would take it. `blocks` may be absent; a message with neither is `no_text`.
 */
export function checkMessage(message: { text?: unknown; blocks?: unknown }): Refusal | undefined {
  const { text, blocks } = message;
  const hasBlocks = Array.isArray(blocks) && blocks.length > 0;
  if (!hasBlocks && (typeof text !== 'string' || text.trim() === ''))
    return { error: 'no_text', problems: [] };
  if (typeof text === 'string' && text.length > MESSAGE_TEXT_MAX)
    return { error: 'msg_too_long', problems: [] };
  if (blocks === undefined) return undefined;
  const checker = new Checker();
  checker.blocks(blocks, '/blocks', MESSAGE_BLOCKS_MAX, MESSAGE_BLOCK_TYPES);
  return checker.problems.length === 0 ? undefined : { error: 'invalid_blocks', problems: checker.problems };
}

/** Checks a modal or Home tab view as views.open/update/push/publish do. */
export function checkView(view: unknown): Refusal | undefined {
  const checker = new Checker();
  if (!isJson(view)) {
    checker.fail('/view', 'must provide an object');
    return { error: 'invalid_arguments', problems: checker.problems };
  }
  if (view.type !== 'modal' && view.type !== 'home') checker.fail('/view/type', 'must be a valid enum value');
  const isModal = view.type === 'modal';
  checker.blocks(
    view.blocks,
    '/view/blocks',
    VIEW_BLOCKS_MAX,
    isModal ? VIEW_BLOCK_TYPES : MESSAGE_BLOCK_TYPES,
  );
  if (isModal) {
    checker.text(view.title, '/view/title', BLOCK_KIT.view.title, 'plain');
    if (view.submit !== undefined) checker.text(view.submit, '/view/submit', BLOCK_KIT.view.submit, 'plain');
    if (view.close !== undefined) checker.text(view.close, '/view/close', BLOCK_KIT.view.close, 'plain');
    const hasInput = arrayOf(view.blocks).some((block) => isJson(block) && block.type === 'input');
    if (hasInput && view.submit === undefined) {
      checker.fail('/view/submit', 'must provide submit when the view has input blocks');
    }
  }
  checker.maxLength(view.private_metadata, BLOCK_KIT.view.privateMetadata, '/view/private_metadata');
  checker.maxLength(view.callback_id, ID_MAX, '/view/callback_id');
  checker.maxLength(view.external_id, ID_MAX, '/view/external_id');
  return checker.problems.length === 0
    ? undefined
    : { error: 'invalid_arguments', problems: checker.problems };
}

/** Slack's JSON for a refusal: the error, and the problems under response_metadata.messages. */
export function refusalResponse(refusal: Refusal): Json {
  return refusal.problems.length === 0
    ? { ok: false, error: refusal.error }
    : {
        ok: false,
        error: refusal.error,
        errors: refusal.problems,
        response_metadata: { messages: refusal.problems },
      };
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Methods whose message or view Slack checks, and where in the body it is. */
const CHECKED_MESSAGES = new Set(['chat.postMessage', 'chat.update', 'chat.postEphemeral', 'response_url']);
const CHECKED_VIEWS = new Set(['views.open', 'views.update', 'views.push', 'views.publish']);

/**
 * Slack's answer to a Web API call (or a response_url post) whose Block Kit it refuses; undefined when
 * it would take it. `body` is parsed: JSON-valued form fields already objects.
 */
export function blockKitRefusal(
  method: string,
  body: Record<string, unknown>,
): Record<string, unknown> | undefined {
  // Deleting the original message through a response_url sends no message to check.
  if (method === 'response_url' && (body.delete_original === true || body.delete_original === 'true')) {
    return undefined;
  }
  const refusal = CHECKED_MESSAGES.has(method)
    ? method === 'chat.update'
      ? checkUpdate(body)
      : checkMessage(body)
    : CHECKED_VIEWS.has(method)
      ? checkView(body.view)
      : undefined;
  return refusal && refusalResponse(refusal);
}

/** chat.update may leave the text as it was: only what it sends is checked. */
export function checkUpdate(body: Record<string, unknown>): Refusal | undefined {
  return body.blocks === undefined && body.text === undefined
    ? undefined
    : checkMessage({ text: body.text ?? ' ', blocks: body.blocks });
}
