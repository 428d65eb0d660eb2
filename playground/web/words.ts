// The page's own words (not the app's: those come from the gateway) in the language of the persona
// it is used as, so a Chinese-speaking person sees a Chinese Slack around the app's Chinese answers.
import type { AnswerMode, FaultKind } from '../protocol.js';

export type PageLanguage = 'en' | 'zh';

/** Slack's locale string (`en-GB`, `zh-CN`) to the page's language; English for anything else. */
export function pageLanguageOf(slackLocale: string | undefined): PageLanguage {
  return slackLocale?.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export interface PageWords {
  youAre: string;
  faults: string;
  faultLabels: Record<FaultKind, string>;
  /** The demo control that runs the gateway's weekly statistics digest now, and what it does. */
  postDigest: string;
  postDigestHint: string;
  home: string;
  channels: string;
  directMessages: string;
  unread: (count: number) => string;
  messages: string;
  message: string;
  send: string;
  reply: string;
  replyPlaceholder: string;
  thread: string;
  closeThread: string;
  webApiCalls: string;
  gatewaySends: string;
  replyInThread: string;
  moreActions: string;
  onlyVisibleToYou: string;
  edited: string;
  replies: (count: number) => string;
  noMessages: string;
  /** A channel's purpose in this language, by the channel's name; undefined keeps the one it has. */
  channelPurpose: (channel: string) => string | undefined;
  dmPurpose: (person: string, app: string) => string;
  /** BCP 47 tag for times shown on the page. */
  timeLocale: string;
  homeTitle: (app: string) => string;
  homePurpose: string;
  homeEmpty: string;
  homeComposerHint: string;
  /** The composer's hint in a channel: how to ask there, as the channel's answer mode has it. */
  channelPlaceholder: (channel: string, command: string, answers: AnswerMode) => string;
  dmPlaceholder: (app: string, command: string) => string;
  slackRefused: (method: string) => string;
  cancel: string;
  yes: string;
  close: string;
  openAssistant: string;
  assistant: string;
  newChat: string;
  closeAssistant: string;
  askAssistant: string;
  askPlaceholder: (app: string) => string;
  besideChannel: (channel: string) => string;
  besideHome: string;
  assistantGreetingWait: string;
}

const ENGLISH: PageWords = {
  youAre: 'You are',
  faults: 'Platform faults (simulator)',
  faultLabels: {
    none: 'Off',
    http500: 'HTTP 500 on every call',
    slow: 'Too slow (times out)',
    malformed: 'Malformed replies',
  },
  postDigest: '📊 Post the weekly digest now',
  postDigestHint:
    "Runs the gateway's scheduled statistics digest once, now, in this workspace's digest channel",
  home: 'Home',
  channels: 'Channels',
  directMessages: 'Direct messages',
  unread: (count) => `${count} unread`,
  messages: 'Messages',
  message: 'Message',
  send: 'Send',
  reply: 'Reply',
  replyPlaceholder: 'Reply…',
  thread: 'Thread',
  closeThread: 'Close thread',
  webApiCalls: 'Web API calls',
  gatewaySends: 'What the gateway sends to Slack',
  replyInThread: 'Reply in thread',
  moreActions: 'More actions',
  onlyVisibleToYou: '👁 Only visible to you',
  edited: '(edited)',
  replies: (count) => `${count} ${count === 1 ? 'reply' : 'replies'}`,
  noMessages: 'No messages yet. Say hello!',
  channelPurpose: () => undefined,
  dmPurpose: (person, app) => `${person}'s direct messages with ${app}`,
  timeLocale: 'en-US',
  homeTitle: (app) => `🏠 ${app} — Home`,
  homePurpose: 'The app’s Home tab, as published for you with views.publish',
  homeEmpty:
    'The app has not published a Home tab for you. When it calls views.publish, the tab appears here.',
  homeComposerHint: 'Home has no messages: open a channel or the app’s direct messages to write',
  channelPlaceholder: (channel, command, answers) =>
    answers === 'mention'
      ? `Message #${channel} — mention @Helpdesk to ask, or type ${command} help`
      : `Message #${channel} — ${answers === 'all' ? 'every message is answered' : 'ask a question'}, no mention needed, or type ${command} help`,
  dmPlaceholder: (app, command) => `Message ${app} — or type ${command} help`,
  slackRefused: (method) => `Slack refused ${method}: `,
  cancel: 'Cancel',
  yes: 'Yes',
  close: 'Close',
  openAssistant: 'Open the assistant panel',
  assistant: 'Assistant',
  newChat: 'New chat',
  closeAssistant: 'Close the assistant panel',
  askAssistant: 'Ask the assistant',
  askPlaceholder: (app) => `Ask ${app}…`,
  besideChannel: (channel) => `Beside ${channel}`,
  besideHome: 'Beside Home',
  assistantGreetingWait: 'Opening…',
};

/** The playground's channels' purposes (workspace.ts), in Chinese. */
const CHINESE_PURPOSES: Record<string, string> = {
  help: '提问时提及 @Helpdesk Robot',
  'it-help': '向 IT 提任何问题：问题会由 IT 知识库自动回答',
  'kb-review': '审核卡片：大家不满意的回答、机器人答不上来的问题',
};

const CHINESE: PageWords = {
  youAre: '你是',
  faults: '平台故障（模拟器）',
  faultLabels: {
    none: '关闭',
    http500: '每次调用都返回 HTTP 500',
    slow: '太慢（超时）',
    malformed: '回复格式错误',
  },
  postDigest: '📊 立即发布每周统计',
  postDigestHint: '立即运行一次网关的定时统计摘要，发到本工作区的摘要频道',
  home: '主页',
  channels: '频道',
  directMessages: '私信',
  unread: (count) => `${count} 条未读`,
  messages: '消息列表',
  message: '消息',
  send: '发送',
  reply: '回复',
  replyPlaceholder: '回复…',
  thread: '话题',
  closeThread: '关闭话题',
  webApiCalls: 'Web API 调用',
  gatewaySends: '网关发给 Slack 的内容',
  replyInThread: '在话题中回复',
  moreActions: '更多操作',
  onlyVisibleToYou: '👁 仅你可见',
  edited: '（已编辑）',
  replies: (count) => `${count} 条回复`,
  noMessages: '还没有消息，打个招呼吧！',
  channelPurpose: (channel) => CHINESE_PURPOSES[channel],
  dmPurpose: (person, app) => `${person}与 ${app} 的私信`,
  timeLocale: 'zh-CN',
  homeTitle: (app) => `🏠 ${app} — 主页`,
  homePurpose: '应用的主页标签，由 views.publish 为你发布',
  homeEmpty: '应用还没有为你发布主页。它调用 views.publish 后，主页会显示在这里。',
  homeComposerHint: '主页不能发消息：请打开一个频道或与应用的私信再输入',
  channelPlaceholder: (channel, command, answers) =>
    answers === 'mention'
      ? `发消息到 #${channel} — 提及 @Helpdesk 提问，或输入 ${command} help`
      : `发消息到 #${channel} — ${answers === 'all' ? '每条消息都会得到回答' : '直接提问即可'}，无需提及，或输入 ${command} help`,
  dmPlaceholder: (app, command) => `发消息给 ${app} — 或输入 ${command} help`,
  slackRefused: (method) => `Slack 拒绝了 ${method}：`,
  cancel: '取消',
  yes: '确定',
  close: '关闭',
  openAssistant: '打开助手面板',
  assistant: '助手',
  newChat: '新对话',
  closeAssistant: '关闭助手面板',
  askAssistant: '向助手提问',
  askPlaceholder: (app) => `向 ${app} 提问…`,
  besideChannel: (channel) => `旁边：${channel}`,
  besideHome: '旁边：主页',
  assistantGreetingWait: '正在打开…',
};

export function pageWords(language: PageLanguage): PageWords {
  return language === 'zh' ? CHINESE : ENGLISH;
}
