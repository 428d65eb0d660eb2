// The asker's "what was wrong" modal after a 👎: a reason to choose, words of their own, or both.
import type { types } from '@slack/bolt';
import type { Locale } from '../../conversation/locale.js';
import { DISLIKE_REASONS } from '../../review/types.js';
import { context } from '../kit/elements.js';
import { option, radioInput, textInput } from '../kit/inputs.js';
import { modal } from '../kit/modal.js';
import {
  encodeReasonMetadata,
  type RatedMessage,
  REASON_ACTION_ID,
  REASON_BLOCK_ID,
  REASON_TEXT_ACTION_ID,
  REASON_TEXT_BLOCK_ID,
  REASON_TEXT_MAX,
} from './forms.js';
import { VIEW_DISLIKE_REASON } from './ids.js';
import { t } from './messages.js';
import { reasonWord } from './words.js';

export function renderReasonModal(input: {
  contextKey: string;
  locale: Locale;
  rated?: RatedMessage;
  /** A private answer's: where its rated line is replaced once the reason is sent. */
  responseUrl?: string;
}): types.ModalView {
  const { locale } = input;
  return modal({
    callbackId: VIEW_DISLIKE_REASON,
    title: t(locale, 'reason_title'),
    submit: t(locale, 'modal_send'),
    close: t(locale, 'modal_cancel'),
    privateMetadata: encodeReasonMetadata(input.contextKey, input.rated, input.responseUrl),
    blocks: [
      context(t(locale, 'reason_intro')),
      // Optional in Slack's eyes: words alone are a reason too, and the listener asks for one of the two.
      radioInput(REASON_BLOCK_ID, t(locale, 'reason_label'), {
        actionId: REASON_ACTION_ID,
        options: DISLIKE_REASONS.map((reason) => option(reasonWord(locale, reason), reason)),
      }),
      textInput(REASON_TEXT_BLOCK_ID, t(locale, 'reason_text_label'), {
        actionId: REASON_TEXT_ACTION_ID,
        max: REASON_TEXT_MAX,
        multiline: true,
        hint: t(locale, 'reason_text_hint'),
      }),
    ],
  });
}
