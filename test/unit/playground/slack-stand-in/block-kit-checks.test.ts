import { describe, expect, it } from 'vitest';
import {
  blockKitRefusal,
  checkMessage,
  checkView,
} from '../../../../playground/slack-stand-in/block-kit-checks.js';
import { renderReply } from '../../../../src/slack/answers/blocks.js';
import { renderCommandHelp } from '../../../../src/slack/desk/command-views.js';
import { renderReasonModal } from '../../../../src/slack/review/reason-modal.js';

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });

describe("Slack's Block Kit checks", () => {
  it('refuses a message over 50 blocks, naming the blocks by JSON pointer', () => {
    const refusal = checkMessage({ text: 'x', blocks: Array.from({ length: 51 }, () => section('x')) });
    expect(refusal).toEqual({
      error: 'invalid_blocks',
      problems: ['[ERROR] must be less than 51 items [json-pointer:/blocks]'],
    });
  });

  it('refuses section text over 3,000 characters, a button over 75 and a bad style', () => {
    const refusal = checkMessage({
      text: 'x',
      blocks: [
        section('a'.repeat(3001)),
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              action_id: 'a',
              text: { type: 'plain_text', text: 'b'.repeat(76) },
              style: 'loud',
            },
          ],
        },
      ],
    });
    expect(refusal?.error).toBe('invalid_blocks');
    expect(refusal?.problems).toEqual([
      '[ERROR] must be less than 3001 characters [json-pointer:/blocks/0/text/text]',
      '[ERROR] must be less than 76 characters [json-pointer:/blocks/1/elements/0/text/text]',
      '[ERROR] must be a valid enum value [json-pointer:/blocks/1/elements/0/style]',
    ]);
  });

  it('refuses duplicate block ids and action ids, more than 25 elements, a mrkdwn header and an unknown block', () => {
    const button = (id: string) => ({
      type: 'button',
      action_id: id,
      text: { type: 'plain_text', text: 'b' },
    });
    const refusal = checkMessage({
      text: 'x',
      blocks: [
        { ...section('a'), block_id: 'same' },
        { type: 'actions', block_id: 'same', elements: [button('x'), button('x')] },
        { type: 'actions', elements: Array.from({ length: 26 }, (_, index) => button(`b${index}`)) },
        { type: 'header', text: { type: 'mrkdwn', text: 'h' } },
        { type: 'carousel' },
      ],
    });
    expect(refusal?.problems).toEqual([
      '[ERROR] duplicate block_id [json-pointer:/blocks/1/block_id]',
      '[ERROR] duplicate action_id [json-pointer:/blocks/1/elements/1/action_id]',
      '[ERROR] must be less than 26 items [json-pointer:/blocks/2/elements]',
      '[ERROR] must be one of the following: plain_text [json-pointer:/blocks/3/text/type]',
      '[ERROR] must be a valid enum value [json-pointer:/blocks/4/type]',
    ]);
  });

  it('refuses a message with neither text nor blocks as no_text', () => {
    expect(checkMessage({ text: '  ' })).toEqual({ error: 'no_text', problems: [] });
  });

  it('refuses a modal title over 24 characters and inputs without a submit button', () => {
    const refusal = checkView({
      type: 'modal',
      title: { type: 'plain_text', text: 't'.repeat(25) },
      blocks: [
        {
          type: 'input',
          label: { type: 'plain_text', text: 'l' },
          element: { type: 'plain_text_input', action_id: 'a' },
        },
      ],
    });
    expect(refusal?.error).toBe('invalid_arguments');
    expect(refusal?.problems).toEqual([
      '[ERROR] must be less than 25 characters [json-pointer:/view/title/text]',
      '[ERROR] must provide submit when the view has input blocks [json-pointer:/view/submit]',
    ]);
  });

  it('answers a refused call as Slack does, with the problems under response_metadata', () => {
    expect(blockKitRefusal('chat.postMessage', { text: 'x', blocks: [{ type: 'nope' }] })).toEqual({
      ok: false,
      error: 'invalid_blocks',
      errors: ['[ERROR] must be a valid enum value [json-pointer:/blocks/0/type]'],
      response_metadata: { messages: ['[ERROR] must be a valid enum value [json-pointer:/blocks/0/type]'] },
    });
    expect(blockKitRefusal('users.info', { blocks: [{ type: 'nope' }] })).toBeUndefined();
    expect(blockKitRefusal('response_url', { delete_original: true })).toBeUndefined();
  });

  it('takes what the gateway renders: an answer with suggestions and ratings, the help, the reason modal', () => {
    const [answer] = renderReply({
      kind: 'answer',
      contextKey: 'k1',
      answerHtml:
        '<p>Go to <a href="https://password.example.com">the portal</a> and choose <b>Forgot</b>.</p>',
      docId: 'doc-1',
      stripe: 'You may also want to ask:',
      suggestions: [{ docId: 'doc-2', question: 'My account is locked' }],
      rateable: true,
      matched: true,
      clickedBy: undefined,
      demo: true,
      locale: 'en',
    });
    expect(answer && checkMessage(answer)).toBeUndefined();
    expect(checkMessage(renderCommandHelp('zh-CN', '/cs'))).toBeUndefined();
    expect(checkView(renderReasonModal({ contextKey: 'k1', locale: 'en' }))).toBeUndefined();
  });

  describe('context_actions with feedback_buttons, as Slack draws its own rating element', () => {
    const side = (text: string, value: string) => ({ text: { type: 'plain_text', text }, value });
    const feedback = (overrides: Record<string, unknown> = {}) => ({
      type: 'feedback_buttons',
      action_id: 'rate',
      positive_button: side('👍', 'good'),
      negative_button: side('👎', 'bad'),
      ...overrides,
    });

    it('takes both sides with plain text and a value, beside an icon button', () => {
      const blocks = [
        {
          type: 'context_actions',
          elements: [
            feedback(),
            { type: 'icon_button', icon: 'trash', text: { type: 'plain_text', text: 'Delete' } },
          ],
        },
      ];
      expect(checkMessage({ text: 'x', blocks })).toBeUndefined();
    });

    it('refuses a missing side, mrkdwn, an empty value and text over 75 characters, each by pointer', () => {
      const refusal = checkMessage({
        text: 'x',
        blocks: [
          {
            type: 'context_actions',
            elements: [
              feedback({
                positive_button: { text: { type: 'mrkdwn', text: '*yes*' }, value: '' },
                negative_button: undefined,
              }),
              feedback({ action_id: 'other', negative_button: side('n'.repeat(76), 'bad') }),
            ],
          },
        ],
      });
      expect(refusal?.problems).toEqual([
        '[ERROR] must be one of the following: plain_text [json-pointer:/blocks/0/elements/0/positive_button/text/type]',
        '[ERROR] must provide a string [json-pointer:/blocks/0/elements/0/positive_button/value]',
        '[ERROR] must provide an object [json-pointer:/blocks/0/elements/0/negative_button]',
        '[ERROR] must be less than 76 characters [json-pointer:/blocks/0/elements/1/negative_button/text/text]',
      ]);
    });

    it('refuses feedback_buttons outside context_actions, a button inside it, and more than five elements', () => {
      const refusal = checkMessage({
        text: 'x',
        blocks: [
          { type: 'actions', elements: [feedback()] },
          {
            type: 'context_actions',
            elements: [
              { type: 'button', action_id: 'b', text: { type: 'plain_text', text: 'Go' } },
              ...Array.from({ length: 5 }, (_, index) => feedback({ action_id: `rate-${index}` })),
            ],
          },
        ],
      });
      expect(refusal?.problems).toEqual([
        '[ERROR] must be a valid enum value [json-pointer:/blocks/0/elements/0/type]',
        '[ERROR] must be less than 6 items [json-pointer:/blocks/1/elements]',
        '[ERROR] must be a valid enum value [json-pointer:/blocks/1/elements/0/type]',
      ]);
    });
  });
});
