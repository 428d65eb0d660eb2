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
import { t } from './messages.js';

const MODAL_QUESTION_MAX = 500;

export interface CardModalInput extends CardModalMetadata {
  locale: Locale;
  question: string;
}

export function renderAnswerAskersModal(input: CardModalInput): types.ModalView {
  const { locale } = input;
  return modal({
    callbackId: VIEW_ANSWER_ASKERS,
    title: t(locale, 'answer_askers_title'),
    submit: t(locale, 'modal_send'),
    close: t(locale, 'modal_cancel'),
    privateMetadata: encodeCardModalMetadata(input),
    blocks: [
      context(questionLine(input)),
      {
        ...textInput(ANSWER_TEXT_BLOCK_ID, t(locale, 'answer_askers_label'), {
          max: OPERATOR_ANSWER_MAX,
          multiline: true,
          hint: t(locale, 'answer_askers_hint'),
        }),
        optional: false,
      },
    ],
  });
}

export function renderLinkEntryModal(input: CardModalInput): types.ModalView {
  const { locale } = input;
  return modal({
    callbackId: VIEW_LINK_ENTRY,
    title: t(locale, 'link_entry_title'),
    submit: t(locale, 'link_entry_submit'),
    close: t(locale, 'modal_cancel'),
    privateMetadata: encodeCardModalMetadata(input),
    blocks: [
      context(questionLine(input)),
      {
        ...textInput(LINK_DOC_BLOCK_ID, t(locale, 'link_entry_label'), {
          max: Math.min(256, TEXT_INPUT_MAX),
          multiline: false,
          hint: t(locale, 'link_entry_hint'),
        }),
        optional: false,
      },
    ],
  });
}

function questionLine(input: CardModalInput): string {
  const question = escapedLine(input.question, MODAL_QUESTION_MAX);
  return truncateMrkdwn(t(input.locale, 'card_modal_question', { question }), SECTION_TEXT_MAX);
}
