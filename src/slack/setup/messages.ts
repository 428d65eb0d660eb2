// What the set-up room says, in ICU MessageFormat (adding one: src/slack/kit/i18n.ts).
import { catalog, translator } from '../kit/i18n.js';

const en = {
  setup_heading: '*Platform account of this workspace*',
  setup_own:
    'Questions here are asked through *{sysNum}* at {url}{robot, select, none {} other {, robot {robot}}}. Set by {who} on {date}.',
  setup_default:
    "Questions here are asked through the gateway's own platform account (set where it runs). Set this workspace's own to use your company's knowledge base.",
  setup_none:
    '⚠️ *Not set up yet:* nobody here can get an answer until an operator sets the platform account.',
  setup_unavailable: '⚠️ The set-up could not be read just now. Open this tab again in a moment.',
  setup_button: 'Set up the platform account',
  setup_change_button: 'Change the platform account',
  setup_title: 'Platform account',
  setup_save: 'Check and save',
  setup_cancel: 'Cancel',
  setup_intro:
    "The customer-service platform account this workspace's questions go to, as the platform's console shows it. The key is kept encrypted and never shown again.",
  setup_url: 'Platform address (open_url)',
  setup_url_hint: 'For example https://open.example.com',
  setup_sys_num: 'System number (sysNum)',
  setup_app_id: 'App id',
  setup_app_key: 'App key',
  setup_app_key_hint: 'Leave empty to keep the key saved for this app id.',
  setup_access_token: 'Or a fixed access token',
  setup_access_token_hint: 'Only when the platform gave you a token instead of an app id and key.',
  setup_robot: 'Default robot (robotFlag)',
  setup_robot_hint: "Empty: the platform's default robot. A channel's own robot still wins.",
  setup_operators: "Operators' user group",
  setup_operators_hint:
    "Its id (S…, in the group's profile): its members are operators here too, beside whoever added the app.",
  setup_operators_line: 'Operators: {group}, and whoever added the app.',
  setup_operators_placeholder: 'A user group whose members are operators here',
  setup_review_channel: 'Review channel',
  setup_review_placeholder: 'A channel for the review cards',
  setup_review_hint:
    "Disliked and unanswered questions are posted there as cards for operators to act on; invite the app to it. Empty: {fallback, select, none {no review cards here} other {the gateway's own review channel}}.",
  setup_review_line: 'Review cards: {channel}.',
  setup_digest_channel: 'Weekly figures channel',
  setup_digest_placeholder: 'A channel for the statistics digest',
  setup_digest_hint:
    'The statistics digest is posted there on its schedule; invite the app to it. Empty: no digest.',
  setup_digest_line: 'Statistics digest: {channel}.',
  setup_problem_channel: 'Pick a public or private channel.',
  setup_problem_operators: 'A user group id starts with S, e.g. S0123ABCD.',
  setup_problem_url: 'Enter the http:// or https:// address of the platform.',
  setup_problem_required: 'Required.',
  setup_problem_credential: 'Enter an app id and its key, or a fixed access token.',
  setup_problem_robot: 'A whole number from 0 to 999999, or empty.',
  setup_problem_too_long: 'Too long.',
  setup_refused: 'The platform refused this app id and key: check them in its console.',
  setup_token_refused: 'The platform refused this access token: check it in its console.',
  setup_unreachable:
    'The platform could not be reached at this address (no connection, or no answer in time). Check the address, or try again.',
  setup_store_failed: 'The set-up could not be saved just now. Please try again.',
} as const;

export type MessageKey = keyof typeof en;

export const messages = catalog(en, {
  setup_heading: '*本工作区的客服平台账号*',
  setup_own:
    '这里的提问通过 {url} 的 *{sysNum}* 发送{robot, select, none {} other {，机器人 {robot}}}。由 {who} 于 {date} 设置。',
  setup_default:
    '这里的提问使用网关自己的平台账号（在部署处设置）。设置本工作区自己的账号，即可使用贵公司的知识库。',
  setup_none: '⚠️ *尚未设置：* 在运营人员设置平台账号之前，这里的人都得不到回答。',
  setup_unavailable: '⚠️ 暂时无法读取设置，请稍后重新打开此标签。',
  setup_button: '设置平台账号',
  setup_change_button: '更改平台账号',
  setup_title: '平台账号',
  setup_save: '检查并保存',
  setup_cancel: '取消',
  setup_intro: '本工作区的提问要发送到的客服平台账号，按平台控制台中显示的填写。密钥加密保存，之后不再显示。',
  setup_url: '平台地址（open_url）',
  setup_url_hint: '例如 https://open.example.com',
  setup_sys_num: '系统编号（sysNum）',
  setup_app_id: 'App id',
  setup_app_key: 'App key',
  setup_app_key_hint: '留空则保留此 app id 已保存的密钥。',
  setup_access_token: '或固定的 access token',
  setup_access_token_hint: '仅当平台给的是 token 而不是 app id 和密钥时填写。',
  setup_robot: '默认机器人（robotFlag）',
  setup_robot_hint: '留空：使用平台的默认机器人。频道自己设置的机器人优先。',
  setup_operators: '运营人员用户组',
  setup_operators_hint: '用户组 ID（S 开头，见用户组资料）：其成员与添加本应用的人一样，是这里的运营人员。',
  setup_operators_line: '运营人员：{group}，以及添加本应用的人。',
  setup_operators_placeholder: '其成员是这里运营人员的用户组',
  setup_review_channel: '审核频道',
  setup_review_placeholder: '发布审核卡片的频道',
  setup_review_hint:
    '被点踩和未答上的问题会作为卡片发布到这里，供运营人员处理；请把本应用邀请进该频道。留空：{fallback, select, none {本工作区不保留审核卡片} other {使用网关自己的审核频道}}。',
  setup_review_line: '审核卡片：{channel}。',
  setup_digest_channel: '统计周报频道',
  setup_digest_placeholder: '发布统计周报的频道',
  setup_digest_hint: '统计周报按计划发布到这里；请把本应用邀请进该频道。留空：不发周报。',
  setup_digest_line: '统计周报：{channel}。',
  setup_problem_channel: '请选择公开或私有频道。',
  setup_problem_operators: '用户组 ID 以 S 开头，例如 S0123ABCD。',
  setup_problem_url: '请输入平台的 http:// 或 https:// 地址。',
  setup_problem_required: '必填。',
  setup_problem_credential: '请填写 app id 和密钥，或固定的 access token。',
  setup_problem_robot: '0 到 999999 的整数，或留空。',
  setup_problem_too_long: '太长了。',
  setup_refused: '平台拒绝了这个 app id 和密钥：请在平台控制台中核对。',
  setup_token_refused: '平台拒绝了这个 access token：请在平台控制台中核对。',
  setup_unreachable: '无法在这个地址连接到平台（没有连接，或没有及时应答）。请检查地址，或重试。',
  setup_store_failed: '暂时无法保存设置，请重试。',
});

export const t = translator(messages);
