import { catalog, translator } from '../kit/i18n.js';

const en = {
  home_title: 'Ask the helpdesk robot',
  home_how_to_ask:
    '*How to ask*\n• *Here:* open the *Messages* tab and type your question.\n• *Beside any channel:* open me in Slack’s assistant panel (my icon at the top of Slack) and ask; I answer as the channel you are looking at would.\n• *In a channel:* mention me with your question; I answer in a thread.\n• *In a help channel:* some channels are set up to answer questions on their own: just ask, no mention needed.\n• *In that thread:* ask a follow-up without mentioning me again.\nRate an answer with 👍 or 👎, and click a suggested question to ask it.',
  home_examples: '*Try one of these*: the answer comes in our direct messages.',
  home_asked: '🏠 You asked from the Home tab:\n>{question}',
  home_operators: 'For operators',
  home_figures_title: '*Last 7 days*, {from} – {to}',
  home_figures_compared: 'Beside the 7 days before ({from} – {to}) · as of {time}',
  home_figures_no_comparison: 'The 7 days before could not be read: no comparison · as of {time}',
  home_figures_unavailable:
    '⚠️ The figures are unavailable right now: {reason, select, unreachable {the platform could not be reached.} timeout {the platform could not be reached.} refused {the platform refused to give them.} not_set_up {this workspace is not set up yet (see above).} other {the platform answered with an error.}}',
  home_review_off:
    'The review loop is off: no review channel is set (`REVIEW_CHANNEL_ID`), so no cards are kept.',
  home_review_no_channel:
    'No review cards are kept here: this workspace has no review channel. Name one in its set-up above, and disliked and unanswered questions become cards there for operators to act on.',
  home_review_unavailable: '⚠️ The review cards could not be read right now.',
  home_cards_waiting:
    '*Review cards waiting: {count, number}*  ·  👎 {disliked, number} disliked  ·  ❓ {unanswered, number} unanswered',
  home_cards_none: '*No review cards waiting.*',
  home_disliked_title: '*Most disliked answers*',
  home_disliked_line: '• {title} · 👎 {count, number}',
  home_unanswered_title: '*Most asked unanswered questions*',
  home_unanswered_line: '• {question} · asked {count, number}×',
  home_more: '…and {count, number} more in the review channel.',
  home_open_tickets: 'Tickets',
  home_open_statistics: 'Statistics',
} as const;

export const messages = catalog(en, {
  home_title: '向客服机器人提问',
  home_how_to_ask:
    '*如何提问*\n' +
    '• *在这里：* 打开 *消息* 标签页，输入你的问题。\n' +
    '• *在任意频道旁：* 在 Slack 的助手面板中打开我（Slack 顶部我的图标）并提问，我会按你正在查看的频道来回答。\n' +
    '• *在频道中：* @我并写下问题，我会在消息列中回答。\n' +
    '• *在求助频道中：* 有些频道设置为自动回答问题：直接提问即可，无需@我。\n' +
    '• *在该消息列中：* 继续追问，无需再次@我。\n' +
    '用 👍 或 👎 评价回答，点击推荐的问题即可直接提问。',
  home_examples: '*试试这些问题*：回答会发到我们的私信中。',
  home_asked: '🏠 你在主页提问：\n>{question}',
  home_operators: '管理员专区',
  home_figures_title: '*最近 7 天*，{from} – {to}',
  home_figures_compared: '对比之前 7 天（{from} – {to}）· 数据时间 {time}',
  home_figures_no_comparison: '未能取得之前 7 天的数据，不做对比 · 数据时间 {time}',
  home_figures_unavailable:
    '⚠️ 暂时无法获取统计数据：{reason, select, unreachable {无法连接平台。} timeout {无法连接平台。} refused {平台拒绝提供。} not_set_up {本工作区尚未设置（见上文）。} other {平台返回了错误。}}',
  home_review_off: '审核流程未开启：未设置审核频道（`REVIEW_CHANNEL_ID`），因此没有审核卡片。',
  home_review_no_channel:
    '本工作区不保留审核卡片：尚未设置审核频道。请在上方的设置中指定一个频道，被点踩和未答上的问题就会作为卡片发布到那里，供运营人员处理。',
  home_review_unavailable: '⚠️ 暂时无法读取审核卡片。',
  home_cards_waiting:
    '*待处理的审核卡片：{count, number}*  ·  👎 差评 {disliked, number}  ·  ❓ 未解答 {unanswered, number}',
  home_cards_none: '*没有待处理的审核卡片。*',
  home_disliked_title: '*差评最多的回答*',
  home_disliked_line: '• {title} · 👎 {count, number}',
  home_unanswered_title: '*被问最多的未解答问题*',
  home_unanswered_line: '• {question} · 被问 {count, number} 次',
  home_more: '……审核频道中还有 {count, number} 张。',
  home_open_tickets: '工单',
  home_open_statistics: '统计',
});

export const t = translator(messages);
