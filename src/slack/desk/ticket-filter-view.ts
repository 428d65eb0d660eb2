// The tickets filter modal, built and read back here so its block ids and metadata live in one file.
import type { types } from '@slack/bolt';
import { z } from 'zod';
import { escapeMrkdwn } from '../../answer-html/mrkdwn.js';
import type { Locale } from '../../conversation/locale.js';
import { TICKET_SOURCES, TICKET_STATUSES } from '../../platform/schemas.js';
import {
  CATEGORY_ID_MAX,
  type FilterProblem,
  isTicketSource,
  isTicketStatus,
  type TicketSource,
  type TicketStatus,
} from '../../service-desk/tickets.js';
import { parseJsonWith } from '../../util/json.js';
import { context, plainText } from '../kit/elements.js';
import { input, option } from '../kit/inputs.js';
import { modal } from '../kit/modal.js';
import type { ViewSubmission } from '../transport/incoming.js';
import { VIEW_TICKET_FILTER } from './ids.js';
import { t } from './messages.js';
import { codeLabel } from './ticket-views.js';

export const TICKET_FILTER_FIELDS = {
  from: { block: 'tickets_from', action: 'value' },
  to: { block: 'tickets_to', action: 'value' },
  statuses: { block: 'tickets_statuses', action: 'value' },
  sources: { block: 'tickets_sources', action: 'value' },
  category: { block: 'tickets_category', action: 'value' },
} as const;

type TicketFilterField = { block: string; action: string };

/** What the modal carries from where it was opened: where to answer, and the command's name for its messages. */
export interface TicketFilterMetadata {
  /** The command's response_url; none from the Home tab, whose result goes to the operator's DM. */
  responseUrl: string | undefined;
  /** The slash command as configured (SLASH_COMMAND), named in the modal's error texts. */
  command: string;
}

const filterMetadataSchema = z.object({
  v: z.literal(1),
  r: z.string().max(2000).optional(),
  c: z.string().max(40),
});

export function encodeTicketFilterMetadata(metadata: TicketFilterMetadata): string {
  return JSON.stringify({
    v: 1,
    ...(metadata.responseUrl ? { r: metadata.responseUrl } : {}),
    c: metadata.command,
  });
}

/** What the form says, before the service desk checks it as a filter. */
export interface TicketFilterForm {
  from: string;
  to: string;
  /** Undefined when Slack sent an option the modal never offered. */
  statuses: TicketStatus[] | undefined;
  sources: TicketSource[] | undefined;
  categoryId: string | undefined;
}

const selected = z.object({ value: z.string().max(10) });
const datePicked = z.object({ value: z.object({ selected_date: z.string().nullish() }) });
const optionsPicked = z
  .object({ value: z.object({ selected_options: z.array(selected).max(20).nullish() }) })
  .optional();
const filterStateSchema = z.object({
  values: z.object({
    [TICKET_FILTER_FIELDS.from.block]: datePicked,
    [TICKET_FILTER_FIELDS.to.block]: datePicked,
    [TICKET_FILTER_FIELDS.statuses.block]: optionsPicked,
    [TICKET_FILTER_FIELDS.sources.block]: optionsPicked,
    [TICKET_FILTER_FIELDS.category.block]: z
      .object({ value: z.object({ value: z.string().max(200).nullish() }) })
      .optional(),
  }),
});

/** The submitted modal's metadata and form, or undefined when either is not of the modal's shape. */
export function readTicketFilterSubmission(
  view: ViewSubmission['view'],
): { metadata: TicketFilterMetadata; form: TicketFilterForm } | undefined {
  const metadata = parseJsonWith(view.private_metadata ?? '', filterMetadataSchema);
  const state = filterStateSchema.safeParse(view.state);
  if (!metadata || !state.success) return undefined;
  const fields = TICKET_FILTER_FIELDS;
  const values = state.data.values;
  const numbers = (options: { value: string }[] | null | undefined) =>
    (options ?? []).map((option) => Number(option.value));
  const statuses = numbers(values[fields.statuses.block]?.value.selected_options);
  const sources = numbers(values[fields.sources.block]?.value.selected_options);
  return {
    metadata: { responseUrl: metadata.r, command: metadata.c },
    form: {
      from: values[fields.from.block]?.value.selected_date ?? '',
      to: values[fields.to.block]?.value.selected_date ?? '',
      statuses: statuses.every(isTicketStatus) ? statuses : undefined,
      sources: sources.every(isTicketSource) ? sources : undefined,
      categoryId: values[fields.category.block]?.value.value?.trim() || undefined,
    },
  };
}

/** The input a problem is shown under: the category's, the end date's, or else the start date's. */
export function ticketFilterProblemBlock(problem: FilterProblem['problem']): string {
  const fields = TICKET_FILTER_FIELDS;
  switch (problem) {
    case 'bad_category':
      return fields.category.block;
    case 'ends_before_start':
    case 'too_long':
    case 'too_many_queries':
      return fields.to.block;
    default:
      return fields.from.block;
  }
}

/** The filter modal; what to do with the result rides in private_metadata. */
export function renderTicketFilterModal(
  locale: Locale,
  defaults: { from: string; to: string; timeZone: string },
  privateMetadata: string,
): types.ModalView {
  const fields = TICKET_FILTER_FIELDS;
  // Every input but the dates may be left empty: empty means any.
  const any = { hint: t(locale, 'tickets_modal_any') };
  const dateInput = (field: TicketFilterField, label: string, initialDate: string) =>
    input(
      field.block,
      label,
      { type: 'datepicker', action_id: field.action, initial_date: initialDate },
      { required: true },
    );
  const pick = (field: TicketFilterField, label: string, options: types.PlainTextOption[]) =>
    input(
      field.block,
      label,
      {
        type: 'multi_static_select',
        action_id: field.action,
        placeholder: plainText(t(locale, 'tickets_modal_pick'), 150),
        options,
      },
      any,
    );
  return modal({
    callbackId: VIEW_TICKET_FILTER,
    privateMetadata,
    title: t(locale, 'tickets_modal_title'),
    submit: t(locale, 'tickets_modal_submit'),
    close: t(locale, 'tickets_modal_cancel'),
    blocks: [
      context(escapeMrkdwn(t(locale, 'tickets_modal_intro', { zone: defaults.timeZone }))),
      dateInput(fields.from, t(locale, 'tickets_modal_from'), defaults.from),
      dateInput(fields.to, t(locale, 'tickets_modal_to'), defaults.to),
      pick(
        fields.statuses,
        t(locale, 'tickets_modal_statuses'),
        TICKET_STATUSES.map((status) => option(codeLabel(locale, 'ticket_status', status), String(status))),
      ),
      pick(
        fields.sources,
        t(locale, 'tickets_modal_sources'),
        TICKET_SOURCES.map((source) => option(codeLabel(locale, 'ticket_source', source), String(source))),
      ),
      input(
        fields.category.block,
        t(locale, 'tickets_modal_category'),
        { type: 'plain_text_input', action_id: fields.category.action, max_length: CATEGORY_ID_MAX },
        any,
      ),
    ],
  });
}
