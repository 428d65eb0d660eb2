// The modals an unanswered question's card opens: answer its askers, or name the entry that answers it.
import type { types } from '@slack/bolt';
import type { Locale } from '../../conversation/locale.js';
import { context } from '../kit/elements.js';
import { TEXT_INPUT_MAX, textInput } from '../kit/inputs.js';
import { SECTION_TEXT_MAX, truncateMrkdwn } from '../kit/limits.js';
import { modal } from '../kit/modal.js';
import { escapedLine } from '../kit/text.js';
import {
  ANSWER_TEXT_BLOCK_ID,
  type CardModalMetadata,
  encodeCardModalMetadata,
  LINK_DOC_BLOCK_ID,
  OPERATOR_ANSWER_MAX,
} from './forms.js';
import { VIEW_ANSWER_ASKERS, VIEW_LINK_ENTRY } from './ids.js';
import { type MessageKey, t } from './messages.js';

const MODAL_QUESTION_MAX = 500;

export interface CardModalInput extends CardModalMetadata {
  locale: Locale;
  question: string;
}

export function renderAnswerAskersModal(input: CardModalInput): types.ModalView {
  return cardModal(
    input,
    VIEW_ANSWER_ASKERS,
    {
      title: 'card_answer_askers',
      label: 'answer_askers_label',
      hint: 'answer_askers_hint',
      submit: 'modal_send',
    },
    { blockId: ANSWER_TEXT_BLOCK_ID, max: OPERATOR_ANSWER_MAX, multiline: true },
  );
}

export function renderLinkEntryModal(input: CardModalInput): types.ModalView {
  return cardModal(
    input,
    VIEW_LINK_ENTRY,
    {
      title: 'card_link_entry',
      label: 'link_entry_label',
      hint: 'link_entry_hint',
      submit: 'link_entry_submit',
    },
    { blockId: LINK_DOC_BLOCK_ID, max: Math.min(256, TEXT_INPUT_MAX), multiline: false },
  );
}

/** The card's question above one required input, the modal titled as the card's button that opens it. */
function cardModal(
  input: CardModalInput,
  callbackId: string,
  words: Record<'title' | 'label' | 'hint' | 'submit', MessageKey>,
  field: { blockId: string; max: number; multiline: boolean },
): types.ModalView {
  const { locale } = input;
  const { blockId, ...shape } = field;
  return modal({
    callbackId,
    title: t(locale, words.title),
    submit: t(locale, words.submit),
    close: t(locale, 'modal_cancel'),
    privateMetadata: encodeCardModalMetadata(input),
    blocks: [
      context(questionLine(input)),
      {
        ...textInput(blockId, t(locale, words.label), { ...shape, hint: t(locale, words.hint) }),
        optional: false,
      },
    ],
  });
}

function questionLine(input: CardModalInput): string {
  const question = escapedLine(input.question, MODAL_QUESTION_MAX);
  return truncateMrkdwn(t(input.locale, 'card_modal_question', { question }), SECTION_TEXT_MAX);
}
