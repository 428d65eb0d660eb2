// A review card: what was reported, the latest reasons, its buttons while open, who handled it once not.
import type { types } from '@slack/bolt';
import { answerToMrkdwn } from '../../answer-html/mrkdwn.js';
import type { Locale } from '../../conversation/locale.js';
import type { ReasonNote, ReviewCard } from '../../review/types.js';
import { mention } from '../answers/blocks.js';
import { BLOCK_KIT } from '../kit/block-kit-limits.js';
import { encodeReviewCardValue } from '../kit/button-values.js';
import { button, context, mrkdwn, plainText, type RenderedMessage, section } from '../kit/elements.js';
import { FALLBACK_TEXT_MAX, SECTION_TEXT_MAX, truncateMrkdwn } from '../kit/limits.js';
import { code, escapedLine, shortenMrkdwn, tidy } from '../kit/text.js';
import { sharedTime } from '../kit/times.js';
import { REASON_TEXT_MAX } from './forms.js';
import {
  ACTION_REVIEW_ANSWER,
  ACTION_REVIEW_DISMISS,
  ACTION_REVIEW_EDIT,
  ACTION_REVIEW_LINK,
  ACTION_REVIEW_UNLINK,
} from './ids.js';
import { t } from './messages.js';
import { fieldWords, reasonWord, robotWord } from './words.js';

type ActionsBlock = types.ActionsBlock;
type Button = types.Button;
type KnownBlock = types.KnownBlock;

// Slack's limits on what the card uses (Block Kit reference).
const HEADER_TEXT_MAX = BLOCK_KIT.header.text;
const FIELD_TEXT_MAX = BLOCK_KIT.section.fieldText;
const CONFIRM_TITLE_MAX = BLOCK_KIT.confirm.title;
const CONFIRM_TEXT_MAX = BLOCK_KIT.confirm.text;
const CONFIRM_BUTTON_MAX = BLOCK_KIT.confirm.button;

// What a card shows: enough to judge the report, short enough to scan a channel of cards.
const CARD_QUESTION_MAX = 500;
const CARD_ANSWER_MAX = 700;
const CARD_TITLE_MAX = 500;
const CARD_REASONS_MAX = 3;
const CARD_WORDINGS_MAX = 5;
const CARD_WORDING_MAX = 300;
const DISPLAY_NAME_MAX = 100;

const CARD_ACTIONS_BLOCK_ID = 'review_card';

export function renderReviewCard(
  card: ReviewCard,
  options: { locale: Locale; showAsker: boolean },
): RenderedMessage {
  const { locale } = options;
  const headline = cardHeadline(card, locale);
  const blocks: KnownBlock[] = [{ type: 'header', text: plainText(headline, HEADER_TEXT_MAX) }];

  const question = escapedLine(card.question, CARD_QUESTION_MAX);
  if (question !== '') blocks.push(section(`*${t(locale, 'card_question')}*\n>${question}`));
  const wordings = otherWordingLines(card.otherWordings);
  if (wordings !== undefined) blocks.push(section(`*${t(locale, 'card_also_asked')}*\n${wordings}`));

  if (card.kind === 'disliked' && card.answerHtml !== undefined) {
    const answer = shortenMrkdwn(answerToMrkdwn(card.answerHtml), CARD_ANSWER_MAX);
    if (answer !== '') blocks.push(section(`*${t(locale, 'card_answer')}*\n${answer}`));
  }
  const entry = entryField(card, locale);
  if (entry !== undefined) blocks.push({ type: 'section', fields: [entry] });

  const latest = latestLine(card, options);
  if (latest !== undefined) blocks.push(context(latest));
  const reasons = reasonLines(card.reasons, locale);
  if (reasons !== undefined) blocks.push(section(`*${t(locale, 'card_reasons')}*\n${reasons}`));

  if (card.status === 'open') {
    // Linked, yet asked again with no answer: the entry answers nothing now; the link can go.
    if (card.linked !== undefined) {
      blocks.push(context(t(locale, 'card_link_no_answer', { entry: linkedEntry(card.linked) })));
    }
  } else {
    blocks.push(context(handledLine(card, locale)));
  }
  const actions = cardActions(card, locale);
  if (actions !== undefined) blocks.push(actions);

  const text = question === '' ? headline : t(locale, 'card_fallback', { headline, question });
  return { text: truncateMrkdwn(text, FALLBACK_TEXT_MAX), blocks };
}
function cardHeadline(card: ReviewCard, locale: Locale): string {
  const count = Math.max(1, Math.floor(card.count));
  return t(locale, card.kind === 'disliked' ? 'card_disliked' : 'card_unanswered', { count });
}

/** The entry's standard question and id; not its answer type, which the spec leaves unexplained. */
function entryField(card: ReviewCard, locale: Locale): types.MrkdwnElement | undefined {
  if (card.docId === undefined && card.entryTitle === undefined) return undefined;
  const title =
    card.entryTitle === undefined || card.entryTitle.trim() === ''
      ? t(locale, 'card_entry_untitled')
      : escapedLine(card.entryTitle, CARD_TITLE_MAX);
  const id = card.docId === undefined ? '' : `\n${code(card.docId)}`;
  return mrkdwn(truncateMrkdwn(`*${t(locale, 'card_entry')}*\n${title}${id}`, FIELD_TEXT_MAX));
}

/** Who reported last (named where operators may see askers), and where; an unanswered one, which robot. */
function latestLine(card: ReviewCard, options: { locale: Locale; showAsker: boolean }): string | undefined {
  const parts: string[] = [];
  if (options.showAsker && card.latestAsker) {
    const name = escapedLine(card.latestAsker.displayName, DISPLAY_NAME_MAX);
    if (name !== '') parts.push(name);
  }
  if (card.latestLink === 'direct_message') {
    parts.push(t(options.locale, 'card_in_dm'));
  } else if (card.latestLink === 'assistant_panel') {
    parts.push(t(options.locale, 'card_in_panel'));
  } else {
    const channel = card.kind === 'unanswered' ? card.latestConversation : undefined;
    if (channel !== undefined && SLACK_CHANNEL.test(channel)) {
      parts.push(t(options.locale, 'card_in_channel', { channel: `<#${channel}>` }));
    }
    if (card.latestLink !== undefined && isLinkable(card.latestLink)) {
      parts.push(`<${card.latestLink}|${t(options.locale, 'card_view_message')}>`);
    }
  }
  if (card.kind === 'unanswered' && card.latestAsker !== undefined) {
    parts.push(t(options.locale, 'card_robot', { robot: robotWord(card.robotFlag) }));
  }
  return parts.length === 0 ? undefined : t(options.locale, 'card_latest', { details: parts.join(' · ') });
}

/** A public or private channel's id: only such an id goes inside <#…>. */
const SLACK_CHANNEL = /^[CG][A-Z0-9]{2,31}$/;

/** Only a plain http(s) URL goes inside <…|…>: a | or > would let it rewrite the label or the link. */
function isLinkable(url: string): boolean {
  return url.length <= 1000 && /^https?:\/\/[^\s<>|]+$/.test(url);
}

/** The other wordings of a question, one per line, the card kept short. */
function otherWordingLines(wordings: string[]): string | undefined {
  const lines = wordings
    .slice(0, CARD_WORDINGS_MAX)
    .map((wording) => escapedLine(wording, CARD_WORDING_MAX))
    .filter((line) => line !== '')
    .map((line) => `• ${line}`);
  return lines.length === 0 ? undefined : truncateMrkdwn(lines.join('\n'), SECTION_TEXT_MAX - 100);
}

function reasonLines(reasons: ReasonNote[], locale: Locale): string | undefined {
  const lines = reasons.slice(0, CARD_REASONS_MAX).map((note) => {
    const word = reasonWord(locale, note.reason);
    const text = note.text === undefined ? '' : escapedLine(note.text, REASON_TEXT_MAX);
    const line = text === '' ? word : t(locale, 'card_reason_with_text', { reason: word, text });
    // Said of the answer before a fix: a later report may show the fixed answer above it.
    if (note.afterChangeAt === undefined) return `• ${line}`;
    return `• ${t(locale, 'card_reason_after_change', { line, date: sharedTime(note.afterChangeAt, locale) })}`;
  });
  return lines.length === 0 ? undefined : lines.join('\n');
}

/** An open card's buttons; a linked one's only button removes the link (askers get "no answer" again). */
function cardActions(card: ReviewCard, locale: Locale): ActionsBlock | undefined {
  const open = card.status === 'open';
  const elements: Button[] = [];
  const edit =
    open && card.docId !== undefined
      ? encodeReviewCardValue({ cardId: card.id, docId: card.docId })
      : undefined;
  if (edit !== undefined) {
    elements.push(button(t(locale, 'card_edit'), ACTION_REVIEW_EDIT, { value: edit, style: 'primary' }));
  }
  const value = encodeReviewCardValue({ cardId: card.id });
  if (value === undefined) return actionsBlock(elements);
  if (open && card.kind === 'unanswered') {
    elements.push(
      button(t(locale, 'card_answer_askers'), ACTION_REVIEW_ANSWER, { value, style: 'primary' }),
      button(t(locale, 'card_link_entry'), ACTION_REVIEW_LINK, { value }),
    );
  }
  if (card.status === 'linked' || (open && card.kind === 'unanswered' && card.linked !== undefined)) {
    elements.push(
      button(t(locale, 'card_unlink'), ACTION_REVIEW_UNLINK, {
        value,
        confirm: confirmation(locale, 'card_unlink', t(locale, 'card_unlink_confirm_text')),
      }),
    );
  }
  if (open) {
    const text = t(locale, 'card_dismiss_confirm_text', { kind: card.kind });
    elements.push(
      button(t(locale, 'card_dismiss'), ACTION_REVIEW_DISMISS, {
        value,
        style: 'danger',
        confirm: { ...confirmation(locale, 'card_dismiss', text), style: 'danger' },
      }),
    );
  }
  return actionsBlock(elements);
}

function actionsBlock(elements: Button[]): ActionsBlock | undefined {
  return elements.length === 0 ? undefined : { type: 'actions', block_id: CARD_ACTIONS_BLOCK_ID, elements };
}

const CONFIRM_TITLES = {
  card_dismiss: 'card_dismiss_confirm_title',
  card_unlink: 'card_unlink_confirm_title',
} as const;

/** A button's "are you sure?": confirmed by the button's own words, or cancelled. */
function confirmation(
  locale: Locale,
  action: 'card_dismiss' | 'card_unlink',
  text: string,
): types.ConfirmationDialog {
  return {
    title: plainText(t(locale, CONFIRM_TITLES[action]), CONFIRM_TITLE_MAX),
    text: plainText(text, CONFIRM_TEXT_MAX),
    confirm: plainText(t(locale, action), CONFIRM_BUTTON_MAX),
    deny: plainText(t(locale, 'modal_cancel'), CONFIRM_BUTTON_MAX),
  };
}

/** The linked entry as a card names it: its standard question when known, and its id. */
function linkedEntry(linked: NonNullable<ReviewCard['linked']>): string {
  const title = linked.entryTitle?.trim() ? `*${escapedLine(linked.entryTitle, CARD_TITLE_MAX)}* ` : '';
  return `${title}${code(linked.docId)}`;
}

function handledLine(card: ReviewCard, locale: Locale): string {
  const user = card.handledBy === undefined ? t(locale, 'card_someone') : mention(card.handledBy);
  const date = sharedTime(card.handledAt ?? card.updatedAt, locale);
  if (card.status === 'dismissed') return tidy(t(locale, 'card_dismissed', { user, date }));
  if (card.status === 'answered') return tidy(t(locale, 'card_answered', { user, date }));
  if (card.status === 'linked' && card.linked) {
    return tidy(t(locale, 'card_linked', { user, date, entry: linkedEntry(card.linked) }));
  }
  const fields = fieldWords(card.changedFields, locale);
  return tidy(
    fields === ''
      ? t(locale, 'card_fixed_no_fields', { user, date })
      : t(locale, 'card_fixed', { user, date, fields }),
  );
}
