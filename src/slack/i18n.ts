// The app's own words, in English and Simplified Chinese. Placeholders are {name}; values are inserted
// as given, so callers escape anything user-supplied before it goes into mrkdwn.
import type { Locale } from '../conversation/locale.js';

const en = {
  help:
    '*Ask me anything about our products and services.*\n' +
    'Send me a direct message, or mention me in a channel with your question; I answer in a thread.\n' +
    'Click a suggested question to ask it, and rate an answer with 👍 or 👎 to help us improve it.',
  question_too_long:
    'Your question is too long ({limit} characters at most). Please shorten it and try again.',
  question_too_long_no_limit: 'Your question is too long. Please shorten it and try again.',
  failure_robot_unavailable: 'The answer service is unavailable right now. Please try again in a moment.',
  failure_robot_timeout: 'The answer service took too long to reply. Please try again.',
  failure_too_slow: 'This question took too long to answer, so I stopped waiting for it. Please try again.',
  failure_robot_rejected:
    'The answer service refused this request. Please try again; if it keeps happening, tell your Slack admin.',
  failure_robot_malformed: "The answer service sent a reply I couldn't read. Please try again.",
  failure_store_unavailable: "I can't reach my storage right now. Please try again in a moment.",
  failure_internal: 'Something went wrong on my side. Please try again.',
  try_again: 'Try again',
  rate_up: '👍 Helpful',
  rate_down: '👎 Not helpful',
  rated_up: '{user} rated this answer 👍 helpful',
  rated_down: '{user} rated this answer 👎 not helpful',
  not_your_answer: 'Only the person who asked can rate this answer.',
  already_rated: 'This answer has already been rated. Thank you!',
  context_expired: 'This answer is too old to rate or follow up. Please ask again.',
  asked: '{name} asked: {question}',
  demo_marker: "Demo knowledge base — not your company's data",
  thinking: 'Thinking…',
  suggestions_header: 'You might also want to ask:',
  continued: '(continued)',
  empty_answer: 'The answer service sent an empty answer. Please try asking in other words.',
  reason_button: 'Say what was wrong',
  reason_not_yours: 'Only the person who asked can say what was wrong with this answer.',
  reason_required: 'Choose what was wrong, or say it in your own words.',
  reason_title: 'What was wrong?',
  reason_intro: 'Thank you. What you say here goes to the team that keeps the answers up to date.',
  reason_label: 'The answer…',
  reason_wrong_answer: 'Wrong answer',
  reason_out_of_date: 'Out of date',
  reason_not_understood: 'Did not understand my question',
  reason_other: 'Other',
  reason_text_label: 'In your own words',
  reason_text_hint: 'Please fill this in if you chose “Other”.',
  modal_send: 'Send',
  modal_cancel: 'Cancel',
  modal_save: 'Save',
  modal_done: 'Done',
  list_separator: ', ',
  card_disliked_one: '👎 Answer disliked',
  card_disliked_many: '👎 Answer disliked · {count} times',
  card_unanswered_one: '❓ Unanswered question',
  card_unanswered_many: '❓ Unanswered question · asked {count} times',
  card_question: 'Question asked',
  card_answer: 'Answer shown',
  card_entry: 'Entry',
  card_entry_untitled: '(standard question not known)',
  card_answer_type: 'Answer type',
  card_latest: 'Latest report: {details}',
  card_view_message: 'View the message',
  card_in_dm: 'in a direct message',
  card_reasons: 'What askers said',
  card_reason_with_text: '{reason}: “{text}”',
  card_fallback: '{headline}: {question}',
  card_edit: 'Edit entry',
  card_dismiss: 'Dismiss',
  card_dismiss_confirm_title: 'Dismiss this card?',
  card_dismiss_confirm_text: 'The entry is not changed. A later report starts a new card.',
  card_fixed: '✅ Fixed by {user} {date}: changed {fields}',
  card_fixed_no_fields: '✅ Fixed by {user} {date}',
  card_dismissed: 'Dismissed by {user} {date}',
  card_someone: 'someone',
  card_already_handled: 'This card was already handled.',
  card_unknown: 'This card is no longer known; it may have expired.',
  card_not_dismissed: 'The card could not be dismissed. Please try again.',
  field_question_title: 'standard question',
  field_answer: 'answer',
  field_match_mode: 'match mode',
  field_state: 'state',
  field_validity: 'validity',
  edit_title: 'Edit entry',
  edit_entry: 'Entry {docId}',
  edit_prefill_seen:
    "The platform has no call that reads an entry: this form is filled from the robot's answer as the gateway last saw it, {date}. Fields left empty are not changed.",
  edit_prefill_none:
    'The platform has no call that reads an entry, and the gateway has not seen this one in an answer yet: the fields are empty, and fields left empty are not changed.',
  edit_unknown_settings:
    'Match mode, state and validity never show in answers, so nothing is preselected for them: choose one only to change it.',
  edit_unsupported:
    'The answer has formatting this editor cannot keep ({items}): saving a changed answer drops it.',
  edit_question_label: 'Standard question',
  edit_answer_label: 'Answer (Markdown: **bold**, _italic_, [link](url), ![image](url), - list)',
  edit_answer_too_long:
    "The answer is {length} characters, over the {limit} this editor holds, so it cannot be changed here: change it in the platform's console. The other fields can be changed here.",
  edit_match_label: 'Match mode',
  edit_match_smart: 'Smart match',
  edit_match_exact: 'Exact match',
  edit_match_contains: 'Contains match',
  edit_state_label: 'State',
  edit_state_enabled: 'Enabled',
  edit_state_disabled: 'Disabled',
  edit_kb_label: 'Knowledge base',
  edit_kb_public: 'Public knowledge base',
  edit_kb_robot: "The robot's own knowledge base",
  edit_validity_label: 'Validity',
  edit_validity_permanent: 'Permanent',
  edit_validity_period: 'For a period',
  edit_unchanged: 'Unchanged',
  edit_effect_date: 'Valid from (date)',
  edit_effect_time: 'Valid from (time)',
  edit_invalid_date: 'Valid until (date)',
  edit_invalid_time: 'Valid until (time)',
  edit_effect_hint: 'For “For a period”. Without a time, from 00:00.',
  edit_invalid_hint: 'For “For a period”. Without a time, until the end of the day.',
  edit_not_an_answer: "This shortcut works only on the app's answers from a knowledge entry.",
  edit_saving: 'Saving to the platform…',
  edit_still_saving: 'The previous save is still under way: its result will replace this form in a moment.',
  edit_refused: 'The platform refused the change ({code}){message} Nothing was changed.',
  edit_timeout:
    "The platform did not answer in time, and the change may have been saved. Check in the platform's console before saving again.",
  edit_unavailable:
    "The change may not have been saved: the platform could not be reached, or its answer could not be read. Check in the platform's console before saving again.",
  edit_saved_title: 'Entry saved',
  edit_saved: '✅ The platform accepted the change to entry {docId}.',
  edit_saved_fields: 'Changed: {fields}.',
  problem_empty_question: 'The standard question cannot be empty.',
  problem_empty_answer: 'The answer cannot be empty.',
  problem_answer_too_long: 'The answer is too long: {limit} characters at most.',
  problem_period_incomplete: 'For a period, choose a date here.',
  problem_period_not_a_date: 'This is not a valid date and time.',
  problem_period_ends_before_start: 'The end must be after the start.',
  problem_nothing_changed: 'Nothing was changed: change a field, or cancel.',
  answer_updated: 'The knowledge-base team updated the answer to “{question}”.',
  ask_again: 'Ask again',
  operators_only:
    'Only knowledge-base operators can do this. Ask whoever runs this app to add you (OPERATOR_USER_IDS or the operator user group).',
  cs_help:
    '*{command}: the service desk from Slack*\n• `{command} help`: this help.\n• `{command} agents <groupId>`: the agents of a service group, by name (operators).\n• `{command} stats [from] [to]`: message and satisfaction figures for a range (yyyy-MM-dd; default the last 7 days), each compared with the period before (operators).\nResults are shown only to you.',
  cs_stats_title: '*Service desk, {from} – {to}*',
  cs_stats_compared: 'Each figure beside {from} – {to}, the {days} days before.',
  cs_stats_no_comparison: "The previous period's figures could not be had: no comparison this time.",
  cs_stats_messages: '*Session messages*',
  cs_stats_satisfaction: '*Human-agent satisfaction*',
  cs_stats_scores: '*Scores given*',
  unit_percentage_points: ' pp',
  cs_stats_usage:
    'Dates are yyyy-MM-dd, e.g. `{command} stats 2026-11-01 2026-11-20`; without dates, the last 7 days.',
  cs_stats_ends_before_start: 'The end date is before the start date: `{command} stats <from> <to>`.',
  cs_stats_too_long: 'At most {days} days at a time.',
  cs_stats_in_the_future: 'The range starts after today: nothing to show yet.',
  cs_stats_unavailable: 'The platform could not be reached for the statistics. Try again in a moment.',
  figure_totalMessages: 'Total messages',
  figure_robotMessages: 'Robot messages',
  figure_robotShare: 'Robot share',
  figure_customerMessages: 'Customer messages',
  figure_humanMessages: 'Human-session messages',
  figure_averagePerSession: 'Messages per session',
  figure_robotAveragePerSession: 'Per robot session',
  figure_humanAveragePerSession: 'Per human session',
  figure_effectiveSessions: 'Effective sessions',
  figure_evaluations: 'Evaluations',
  figure_participationRate: 'Participation',
  figure_resolvedRate: 'Resolved',
  figure_averageScore: 'Average score',
  figure_goodRate: 'Good',
  figure_middleRate: 'Middle',
  figure_badRate: 'Bad',
  figure_score4: 'Score 4',
  figure_score3: 'Score 3',
  figure_score2: 'Score 2',
  figure_score1: 'Score 1',
  cs_agents_usage: 'Name the service group: `{command} agents <groupId>`.',
  cs_agents_header: '*Agents of {group}* ({count})',
  cs_agents_more: '… and {count} more.',
  cs_agents_none:
    'The platform knows no agents in group `{group}`: the group is empty, or there is no such group.',
  cs_agents_invalid: '`{group}` is not a service group id (at most 36 characters, no spaces).',
  cs_agents_unavailable:
    'The platform could not be reached to list the agents of `{group}`. Try again in a moment.',
  cs_agents_refused: 'The platform refused to list the agents of `{group}`.',
  operators_none_configured:
    'No knowledge-base operators are set up, so nobody can do this yet. Whoever runs this app can name them in OPERATOR_USER_IDS or OPERATOR_USERGROUP_ID.',
} as const;

export type MessageKey = keyof typeof en;

/** The placeholder names in a message: '{user} rated' -> 'user'. */
type Placeholders<S extends string> = S extends `${string}{${infer Name}}${infer Rest}`
  ? Name | Placeholders<Rest>
  : never;

type MessageParams<K extends MessageKey> = Record<Placeholders<(typeof en)[K]>, string | number>;

type ParamsArgument<K extends MessageKey> = [Placeholders<(typeof en)[K]>] extends [never]
  ? []
  : [MessageParams<K>];

/** Both languages have the same keys, and each message the same placeholders: a mismatch is a type error. */
type SamePlaceholders<T extends Record<MessageKey, string>> = {
  [K in MessageKey]: [Placeholders<T[K]>] extends [Placeholders<(typeof en)[K]>]
    ? [Placeholders<(typeof en)[K]>] extends [Placeholders<T[K]>]
      ? T[K]
      : never
    : never;
};

function translation<const T extends Record<MessageKey, string>>(
  catalog: T & SamePlaceholders<T>,
): Readonly<Record<MessageKey, string>> {
  return catalog;
}

const zhCN = translation({
  help:
    '*有关产品和服务的问题都可以问我。*\n' +
    '给我发私信，或在频道中 @我 并写下问题，我会在话题中回复。\n' +
    '点击推荐问题即可直接提问；用 👍 或 👎 评价回答，帮助我们改进。',
  question_too_long: '问题太长了（最多 {limit} 个字符），请精简后再试。',
  question_too_long_no_limit: '问题太长了，请精简后再试。',
  failure_robot_unavailable: '问答服务暂时不可用，请稍后再试。',
  failure_robot_timeout: '问答服务响应超时，请再试一次。',
  failure_too_slow: '这个问题处理时间过长，我已停止等待。请再试一次。',
  failure_robot_rejected: '问答服务拒绝了这个请求。请再试一次；如果一直这样，请联系 Slack 管理员。',
  failure_robot_malformed: '问答服务返回了无法识别的回复，请再试一次。',
  failure_store_unavailable: '内部存储暂时无法访问，请稍后再试。',
  failure_internal: '我这边出了点问题，请再试一次。',
  try_again: '重试',
  rate_up: '👍 有帮助',
  rate_down: '👎 没帮助',
  rated_up: '{user} 评价此回答 👍 有帮助',
  rated_down: '{user} 评价此回答 👎 没帮助',
  not_your_answer: '只有提问的人才能评价这个回答。',
  already_rated: '这个回答已经评价过了，谢谢！',
  context_expired: '这个回答已过期，无法再评价或追问，请重新提问。',
  asked: '{name} 问：{question}',
  demo_marker: '演示知识库 — 并非贵公司的数据',
  thinking: '正在思考…',
  suggestions_header: '您可能还想问：',
  continued: '（续）',
  empty_answer: '问答服务返回了空白回答，请换个说法再问。',
  reason_button: '说说哪里不对',
  reason_not_yours: '只有提问的人才能说明这个回答哪里不对。',
  reason_required: '请选择哪里不对，或用自己的话说明。',
  reason_title: '哪里不对？',
  reason_intro: '谢谢！您在这里写的内容会转给维护答案的团队。',
  reason_label: '这个回答…',
  reason_wrong_answer: '答案错误',
  reason_out_of_date: '内容过时',
  reason_not_understood: '没理解我的问题',
  reason_other: '其他',
  reason_text_label: '补充说明',
  reason_text_hint: '如果选择了“其他”，请在这里说明。',
  modal_send: '提交',
  modal_cancel: '取消',
  modal_save: '保存',
  modal_done: '完成',
  list_separator: '、',
  card_disliked_one: '👎 回答被点踩',
  card_disliked_many: '👎 回答被点踩 · {count} 次',
  card_unanswered_one: '❓ 未能回答的问题',
  card_unanswered_many: '❓ 未能回答的问题 · 被问了 {count} 次',
  card_question: '用户的提问',
  card_answer: '给出的回答',
  card_entry: '知识条目',
  card_entry_untitled: '（标准问题未知）',
  card_answer_type: '回答类型',
  card_latest: '最近一次：{details}',
  card_view_message: '查看消息',
  card_in_dm: '在私信中',
  card_reasons: '用户的反馈',
  card_reason_with_text: '{reason}：“{text}”',
  card_fallback: '{headline}：{question}',
  card_edit: '编辑条目',
  card_dismiss: '忽略',
  card_dismiss_confirm_title: '忽略这张卡片？',
  card_dismiss_confirm_text: '条目不会被修改。之后的新反馈会生成新的卡片。',
  card_fixed: '✅ {user} 已于 {date} 修正：修改了{fields}',
  card_fixed_no_fields: '✅ {user} 已于 {date} 修正',
  card_dismissed: '{user} 已于 {date} 忽略',
  card_someone: '某人',
  card_already_handled: '这张卡片已经处理过了。',
  card_unknown: '找不到这张卡片，可能已经过期。',
  card_not_dismissed: '未能忽略这张卡片，请再试一次。',
  field_question_title: '标准问题',
  field_answer: '答案',
  field_match_mode: '匹配方式',
  field_state: '状态',
  field_validity: '有效期',
  edit_title: '编辑知识条目',
  edit_entry: '条目 {docId}',
  edit_prefill_seen:
    '平台没有读取知识条目的接口：此表单按网关最近一次看到的机器人回答填写（{date}）。留空的字段不会被修改。',
  edit_prefill_none:
    '平台没有读取知识条目的接口，网关也还没有在回答中见过这个条目：字段均为空，留空的字段不会被修改。',
  edit_unknown_settings: '匹配方式、状态和有效期不会出现在回答中，因此没有预选：只在需要修改时选择。',
  edit_unsupported: '答案中有此编辑器无法保留的格式（{items}）：保存修改后的答案会丢失这些格式。',
  edit_question_label: '标准问题',
  edit_answer_label: '答案（Markdown：**粗体**、_斜体_、[链接](url)、![图片](url)、- 列表）',
  edit_answer_too_long:
    '答案有 {length} 个字符，超过此编辑器可容纳的 {limit} 个，无法在这里修改：请在平台控制台中修改。其他字段仍可在这里修改。',
  edit_match_label: '匹配方式',
  edit_match_smart: '智能匹配',
  edit_match_exact: '完全匹配',
  edit_match_contains: '包含匹配',
  edit_state_label: '状态',
  edit_state_enabled: '启用',
  edit_state_disabled: '停用',
  edit_kb_label: '所属知识库',
  edit_kb_public: '公共知识库',
  edit_kb_robot: '机器人专属知识库',
  edit_validity_label: '有效期',
  edit_validity_permanent: '永久有效',
  edit_validity_period: '指定时间段',
  edit_unchanged: '不修改',
  edit_effect_date: '生效日期',
  edit_effect_time: '生效时间',
  edit_invalid_date: '失效日期',
  edit_invalid_time: '失效时间',
  edit_effect_hint: '用于“指定时间段”。不选时间则从 00:00 开始。',
  edit_invalid_hint: '用于“指定时间段”。不选时间则到当天结束。',
  edit_not_an_answer: '此快捷方式只能用于本应用来自知识条目的回答。',
  edit_saving: '正在保存到平台…',
  edit_still_saving: '上一次保存仍在进行中，结果稍后会显示在此表单中。',
  edit_refused: '平台拒绝了修改（{code}）{message} 条目没有改动。',
  edit_timeout: '平台没有及时响应，修改可能已经保存。再次保存前，请先在平台控制台中确认。',
  edit_unavailable:
    '修改可能没有保存：无法连接平台，或无法读取平台的响应。再次保存前，请先在平台控制台中确认。',
  edit_saved_title: '条目已保存',
  edit_saved: '✅ 平台已接受对条目 {docId} 的修改。',
  edit_saved_fields: '修改了：{fields}。',
  problem_empty_question: '标准问题不能为空。',
  problem_empty_answer: '答案不能为空。',
  problem_answer_too_long: '答案太长了：最多 {limit} 个字符。',
  problem_period_incomplete: '指定时间段时，请在这里选择日期。',
  problem_period_not_a_date: '这不是有效的日期和时间。',
  problem_period_ends_before_start: '结束时间必须晚于开始时间。',
  problem_nothing_changed: '没有任何修改：请修改某个字段，或取消。',
  answer_updated: '知识库团队已更新“{question}”的答案。',
  ask_again: '再问一次',
  operators_only:
    '只有知识库管理员才能执行此操作。请联系本应用的维护者添加您（OPERATOR_USER_IDS 或管理员用户组）。',
  cs_help:
    '*{command}：在 Slack 中使用客服平台*\n• `{command} help`：显示本帮助。\n• `{command} agents <groupId>`：按姓名列出某个客服组的客服（仅限管理员）。\n• `{command} stats [开始] [结束]`：某时间段的消息与满意度数据（yyyy-MM-dd，默认最近 7 天），并与上一周期对比（仅限管理员）。\n结果只对你可见。',
  cs_stats_title: '*客服数据，{from} – {to}*',
  cs_stats_compared: '每项数据旁为之前 {days} 天（{from} – {to}）的对比。',
  cs_stats_no_comparison: '未能取得上一周期的数据，本次不做对比。',
  cs_stats_messages: '*会话消息*',
  cs_stats_satisfaction: '*人工客服满意度*',
  cs_stats_scores: '*评分分布*',
  unit_percentage_points: ' 个百分点',
  cs_stats_usage:
    '日期格式为 yyyy-MM-dd，例如 `{command} stats 2026-11-01 2026-11-20`；不写日期则为最近 7 天。',
  cs_stats_ends_before_start: '结束日期早于开始日期：`{command} stats <开始> <结束>`。',
  cs_stats_too_long: '一次最多 {days} 天。',
  cs_stats_in_the_future: '所选范围在今天之后，暂无数据。',
  cs_stats_unavailable: '暂时无法连接平台获取统计数据，请稍后再试。',
  figure_totalMessages: '消息总数',
  figure_robotMessages: '机器人消息',
  figure_robotShare: '机器人占比',
  figure_customerMessages: '客户消息',
  figure_humanMessages: '人工会话消息',
  figure_averagePerSession: '每会话消息数',
  figure_robotAveragePerSession: '每个机器人会话',
  figure_humanAveragePerSession: '每个人工会话',
  figure_effectiveSessions: '有效会话',
  figure_evaluations: '评价数',
  figure_participationRate: '参评率',
  figure_resolvedRate: '解决率',
  figure_averageScore: '平均分',
  figure_goodRate: '好评',
  figure_middleRate: '中评',
  figure_badRate: '差评',
  figure_score4: '4 分',
  figure_score3: '3 分',
  figure_score2: '2 分',
  figure_score1: '1 分',
  cs_agents_usage: '请指定客服组：`{command} agents <groupId>`。',
  cs_agents_header: '*{group} 的客服*（{count}）',
  cs_agents_more: '……另有 {count} 位。',
  cs_agents_none: '平台上没有客服组 `{group}` 的客服：该组为空，或不存在此组。',
  cs_agents_invalid: '`{group}` 不是有效的客服组 ID（最多 36 个字符，不含空格）。',
  cs_agents_unavailable: '暂时无法连接平台，未能列出 `{group}` 的客服。请稍后再试。',
  cs_agents_refused: '平台拒绝列出 `{group}` 的客服。',
  operators_none_configured:
    '尚未设置知识库管理员，目前没有人能执行此操作。本应用的维护者可以在 OPERATOR_USER_IDS 或 OPERATOR_USERGROUP_ID 中指定。',
});

const catalogs: Record<Locale, Readonly<Record<MessageKey, string>>> = { en, 'zh-CN': zhCN };

/** The message for `key` in `locale`, with its {placeholders} filled in. */
export function t<K extends MessageKey>(locale: Locale, key: K, ...params: ParamsArgument<K>): string {
  const template = catalogs[locale][key];
  const values: Partial<Record<string, string | number>> = params[0] ?? {};
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => {
    const value = values[name];
    return value === undefined ? placeholder : String(value);
  });
}

/**
 * Slack's user locale (`en-US`, `zh-CN`, ...) as one of ours. Traditional Chinese (zh-TW, zh-HK,
 * zh-MO, zh-Hant) gets the workspace default: Simplified text is not what those readers chose.
 */
export function localeFromSlack(slackLocale: string | undefined, fallback: Locale): Locale {
  const tag = (slackLocale ?? '').trim().replace(/_/g, '-').toLowerCase();
  if (tag === 'en' || tag.startsWith('en-')) return 'en';
  if (tag === 'zh' || tag.startsWith('zh-')) {
    if (/^zh-(hant|tw|hk|mo)(-|$)/.test(tag)) return fallback;
    return 'zh-CN';
  }
  return fallback;
}
