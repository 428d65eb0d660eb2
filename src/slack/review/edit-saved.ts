// The view that replaces the operator's edit modal once the platform accepted the change.
import type { types } from '@slack/bolt';
import type { Locale } from '../../conversation/locale.js';
import { section } from '../kit/elements.js';
import { SECTION_TEXT_MAX, truncateMrkdwn } from '../kit/limits.js';
import { modal } from '../kit/modal.js';
import { code } from '../kit/text.js';
import { t } from './messages.js';
import { fieldWords } from './words.js';

/** What was saved, with one close button and no submit: there is nothing left to send. */
export function renderEditSaved(input: {
  locale: Locale;
  docId: string;
  changedFields: string[];
}): types.ModalView {
  const { locale } = input;
  const blocks: types.KnownBlock[] = [
    section(truncateMrkdwn(t(locale, 'edit_saved', { docId: code(input.docId) }), SECTION_TEXT_MAX)),
  ];
  const fields = fieldWords(input.changedFields, locale);
  if (fields !== '') blocks.push(section(t(locale, 'edit_saved_fields', { fields })));
  return modal({ title: t(locale, 'edit_saved_title'), close: t(locale, 'modal_done'), blocks });
}
