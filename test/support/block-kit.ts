// Checks that rendered Block Kit keeps within Slack's limits, and helpers to read what a renderer
// built (buttons, texts, a modal's inputs and their initial values).
import type { types } from '@slack/bolt';
import { expect } from 'vitest';
import {
  BLOCKS_PER_MESSAGE_MAX,
  BUTTON_TEXT_MAX,
  BUTTON_VALUE_MAX,
  FALLBACK_TEXT_MAX,
  SECTION_TEXT_MAX,
  SERIALIZED_BLOCKS_BUDGET,
} from '../../src/slack/kit/limits.js';

type KnownBlock = types.KnownBlock;
type ModalView = types.ModalView;
type InputBlock = types.InputBlock;
type Button = types.Button;

// ---------------------------------------------------------------- limit checks

interface Text {
  type: string;
  text: string;
}

function expectText(value: unknown, max: number): void {
  const text = value as Text;
  expect(typeof text.text).toBe('string');
  expect(text.text.length).toBeGreaterThan(0);
  expect(text.text.length).toBeLessThanOrEqual(max);
}

function expectButton(button: Button): void {
  expectText(button.text, BUTTON_TEXT_MAX);
  expect(button.value?.length ?? 0).toBeLessThanOrEqual(BUTTON_VALUE_MAX);
  expect(button.action_id?.length ?? 0).toBeLessThanOrEqual(255);
  if (button.confirm) {
    expectText(button.confirm.title, 100);
    expectText(button.confirm.text, 300);
    expectText(button.confirm.confirm, 30);
    expectText(button.confirm.deny, 30);
  }
}

/** Every limit Slack enforces on the blocks these builders use. */
function expectBlocksWithinLimits(blocks: KnownBlock[]): void {
  const blockIds = blocks.flatMap((block) => (block.block_id ? [block.block_id] : []));
  expect(new Set(blockIds).size).toBe(blockIds.length);
  for (const id of blockIds) expect(id.length).toBeLessThanOrEqual(255);
  for (const block of blocks) {
    switch (block.type) {
      case 'header':
        expectText(block.text, 150);
        break;
      case 'section':
        if (block.text) expectText(block.text, SECTION_TEXT_MAX);
        expect(block.fields?.length ?? 0).toBeLessThanOrEqual(10);
        for (const field of block.fields ?? []) expectText(field, 2000);
        if (block.accessory?.type === 'button') expectButton(block.accessory);
        break;
      case 'context':
        expect(block.elements.length).toBeLessThanOrEqual(10);
        for (const element of block.elements) expectText(element, SECTION_TEXT_MAX);
        break;
      case 'actions':
        expect(block.elements.length).toBeLessThanOrEqual(25);
        for (const element of block.elements) if (element.type === 'button') expectButton(element);
        break;
      case 'input':
        expectInput(block);
        break;
      default:
        throw new Error(`unexpected block ${block.type}`);
    }
  }
}

function expectInput(block: InputBlock): void {
  expectText(block.label, 2000);
  if (block.hint) expectText(block.hint, 2000);
  const element = block.element;
  expect(element.action_id?.length ?? 0).toBeLessThanOrEqual(255);
  switch (element.type) {
    case 'plain_text_input':
      expect(element.max_length ?? 3000).toBeLessThanOrEqual(3000);
      if (element.initial_value !== undefined) {
        expect(element.initial_value.length).toBeLessThanOrEqual(element.max_length ?? 3000);
      }
      break;
    case 'static_select':
    case 'radio_buttons': {
      const options = element.options ?? [];
      expect(options.length).toBeLessThanOrEqual(element.type === 'radio_buttons' ? 10 : 100);
      for (const option of options) {
        expectText(option.text, 75);
        expect(option.value?.length ?? 0).toBeLessThanOrEqual(150);
      }
      if (element.initial_option) expect(options).toContainEqual(element.initial_option);
      if (element.type === 'static_select' && element.placeholder) expectText(element.placeholder, 150);
      break;
    }
    case 'datepicker':
      if (element.initial_date !== undefined) expect(element.initial_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      break;
    case 'timepicker':
      if (element.initial_time !== undefined) expect(element.initial_time).toMatch(/^\d{2}:\d{2}$/);
      break;
    default:
      throw new Error(`unexpected input ${element.type}`);
  }
}

export function expectMessageWithinLimits(message: { text: string; blocks: KnownBlock[] }): void {
  expect(message.text.trim()).not.toBe('');
  expect(message.text.length).toBeLessThanOrEqual(FALLBACK_TEXT_MAX);
  expect(message.blocks.length).toBeGreaterThan(0);
  expect(message.blocks.length).toBeLessThanOrEqual(BLOCKS_PER_MESSAGE_MAX);
  expect(JSON.stringify(message.blocks).length).toBeLessThanOrEqual(SERIALIZED_BLOCKS_BUDGET);
  expectBlocksWithinLimits(message.blocks);
}

export function expectModalWithinLimits(view: ModalView): void {
  expectText(view.title, 24);
  if (view.submit) expectText(view.submit, 24);
  if (view.close) expectText(view.close, 24);
  expect(view.blocks.length).toBeLessThanOrEqual(100);
  expect(view.private_metadata?.length ?? 0).toBeLessThanOrEqual(3000);
  expectBlocksWithinLimits(view.blocks as KnownBlock[]);
}

// ---------------------------------------------------------------- helpers to read what was built

export const json = (value: unknown) => JSON.stringify(value);

export function buttonsOf(blocks: KnownBlock[]): Button[] {
  return blocks.flatMap((block) =>
    block.type === 'actions'
      ? block.elements.filter((element): element is Button => element.type === 'button')
      : [],
  );
}

export function textsOf(blocks: KnownBlock[]): string {
  return blocks
    .flatMap((block) => {
      if (block.type === 'section')
        return [block.text?.text ?? '', ...(block.fields ?? []).map((f) => f.text)];
      if (block.type === 'context')
        return block.elements.map((element) => ('text' in element ? element.text : ''));
      if (block.type === 'header') return [block.text.text];
      return [];
    })
    .join('\n');
}

export function inputOf(view: ModalView, blockId: string): InputBlock | undefined {
  return (view.blocks as KnownBlock[]).find(
    (block): block is InputBlock => block.type === 'input' && block.block_id === blockId,
  );
}

export function elementOf(view: ModalView, blockId: string): InputBlock['element'] {
  const input = inputOf(view, blockId);
  if (!input) throw new Error(`no input ${blockId}`);
  return input.element;
}

export function initialOf(view: ModalView, blockId: string): unknown {
  const element = elementOf(view, blockId);
  switch (element.type) {
    case 'plain_text_input':
      return element.initial_value;
    case 'static_select':
      return element.initial_option?.value;
    case 'datepicker':
      return element.initial_date;
    case 'timepicker':
      return element.initial_time;
    default:
      return undefined;
  }
}
