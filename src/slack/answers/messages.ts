// What the answers room says, in ICU MessageFormat (adding one: src/slack/kit/i18n.ts).
import { catalog, translator } from '../kit/i18n.js';

const en = {
  help: '*Ask me your questions about work.*\nSend me a direct message, or mention me in a channel with your question; I answer in a thread.\nClick a suggested question to ask it, and rate an answer with 👍 or 👎 to help us improve it.',
  question_too_long:
    'Your question is too long ({limit, plural, one {# character} other {# characters}} at most). Please shorten it and try again.',
  question_too_long_no_limit: 'Your question is too long. Please shorten it and try again.',
  try_again: 'Try again',
  rate_up: '👍 Helpful',
  rate_down: '👎 Not helpful',
  feedback_up: '👍',
  feedback_down: '👎',
  rate_up_label: 'This answer was helpful',
  rate_down_label: 'This answer was not helpful',
  rating_not_recorded: 'Your rating was not recorded: {reason}',
  rated_up: '{user} rated this answer 👍 helpful',
  rated_down: '{user} rated this answer 👎 not helpful',
  not_your_answer: 'Only the person who asked can rate this answer.',
  already_rated: 'This answer has already been rated. Thank you!',
  context_expired: 'This answer is too old to rate or follow up. Please ask again.',
  not_set_up:
    "I am not set up in this workspace yet: nobody has told me which account on the customer-service platform to ask. {contact, select, none {Please ask whoever added the app to set it up in the app's Home tab.} other {Please ask {contact} to set it up in the app's Home tab.}}",
  asked: '{name} asked: {question}',
  demo_marker: "Demo knowledge base — not your company's data",
  thinking: 'Thinking…',
  suggestions_header: 'You might also want to ask:',
  continued: '(continued)',
  empty_answer: 'The answer service sent an empty answer. Please try asking in other words.',
  reason_button: 'Say what was wrong',
  escalate_button: 'Get a person',
  no_answer: 'I have no answer to this in the knowledge base. A person can help.',
  escalated: '{user} called {called} · {when}',
  escalation_call:
    '{clicked, select, asker {{asker} asks for a person to help with this question:} other {{clicker} asks for a person to help {asker} with this question:}}',
  escalation_call_direct:
    '{asker} asks for a person to help with a question asked in a direct message with the app:',
  escalation_answer: 'The robot answered:',
  escalation_failed: 'I could not reach a person just now. Please try again.',
  escalation_already: 'A person has already been called for this answer.',
  escalation_called: 'A person has been called; they will answer in this thread.',
  escalation_off: 'There is no one to call from here any more. Please ask again.',
  throttled:
    '{scope, select, channel {Many questions were asked in this channel just now, more than I can take.} other {You have asked many questions just now, more than I can take.}} You can ask again in {unit, select, minutes {{count, plural, one {# minute} other {# minutes}}} other {{count, plural, one {# second} other {# seconds}}}}.',
} as const;

export type MessageKey = keyof typeof en;

export const messages = catalog(en, {
  help:
    '*工作上的问题都可以问我。*\n' +
    '给我发私信，或在频道中 @我 并写下问题，我会在话题中回复。\n' +
    '点击推荐问题即可直接提问；用 👍 或 👎 评价回答，帮助我们改进。',
  question_too_long: '问题太长了（最多 {limit, plural, other {# 个字符}}），请精简后再试。',
  question_too_long_no_limit: '问题太长了，请精简后再试。',
  try_again: '重试',
  rate_up: '👍 有帮助',
  rate_down: '👎 没帮助',
  feedback_up: '👍',
  feedback_down: '👎',
  rate_up_label: '这个回答有帮助',
  rate_down_label: '这个回答没帮助',
  rating_not_recorded: '你的评价没有保存：{reason}',
  rated_up: '{user} 评价此回答 👍 有帮助',
  rated_down: '{user} 评价此回答 👎 没帮助',
  not_your_answer: '只有提问的人才能评价这个回答。',
  already_rated: '这个回答已经评价过了，谢谢！',
  context_expired: '这个回答已过期，无法再评价或追问，请重新提问。',
  not_set_up:
    '本工作区还没有设置好：还没有人告诉我要使用客服平台的哪个账号。{contact, select, none {请联系添加本应用的人，在应用的主页（Home）标签中完成设置。} other {请联系 {contact}，在应用的主页（Home）标签中完成设置。}}',
  asked: '{name} 问：{question}',
  demo_marker: '演示知识库 — 并非贵公司的数据',
  thinking: '正在思考…',
  suggestions_header: '你可能还想问：',
  continued: '（续）',
  empty_answer: '问答服务返回了空白回答，请换个说法再问。',
  reason_button: '说说哪里不对',
  escalate_button: '找人工',
  no_answer: '知识库里没有这个问题的答案，可以找人工帮忙。',
  escalated: '{user} 已呼叫 {called} · {when}',
  escalation_call:
    '{clicked, select, asker {{asker} 请人工帮忙解答这个问题：} other {{clicker} 请人工帮忙解答 {asker} 的这个问题：}}',
  escalation_call_direct: '{asker} 在与应用的私信中提问，请人工帮忙解答：',
  escalation_answer: '机器人的回答：',
  escalation_failed: '暂时无法呼叫人工，请再试一次。',
  escalation_already: '已经为这个回答呼叫过人工了。',
  escalation_called: '已呼叫人工，会在这个话题里回复你。',
  escalation_off: '这里已不再有可呼叫的人工，请重新提问。',
  throttled:
    '{scope, select, channel {这个频道刚才的提问太多了，我一时处理不过来。} other {你刚才的提问太多了，我一时处理不过来。}}请 {unit, select, minutes {{count, plural, other {# 分钟}}} other {{count, plural, other {# 秒}}}}后再问。',
});

export const t = translator(messages);
