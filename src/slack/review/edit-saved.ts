// The views that replace the edit modal on Save: "Saving…" while the platform is asked, then what was saved.
import type { types } from '@slack/bolt';
import type { Locale } from '../../conversation/locale.js';
import { context, section } from '../kit/elements.js';
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

/** While the platform is asked: no submit button, so the same change cannot be sent a second time. */
export function renderEditSaving(input: { locale: Locale; docId: string }): types.ModalView {
  const { locale } = input;
  const text = `⏳ ${t(locale, 'edit_saving_entry', { docId: code(input.docId) })}`;
  return modal({
    title: t(locale, 'edit_title'),
    close: t(locale, 'modal_close'),
    blocks: [section(truncateMrkdwn(text, SECTION_TEXT_MAX)), context(t(locale, 'edit_saving_note'))],
  });
}
