// Robot 2's knowledge base, an IT desk: answers differ from robot 1's so a channel's robot visibly matters.
import { entriesFrom, type KnowledgeEntry, type Language, type Seed } from './knowledge-base.js';

const IT_DESK_SEEDS: Seed[] = [
  {
    docId: 'doc-it-vpn',
    questionTitle: 'The VPN does not connect',
    answerDesc:
      '<p><b>IT desk checklist</b> for GlobalProtect:</p><p>1. Quit and reopen GlobalProtect.<br>2. Check that the portal is <b>vpn.example.com</b>.<br>3. On hotel or café Wi-Fi, open any web page first to accept its terms.</p><p>Still down? Look at <a href="https://status.example.com">the IT status page</a> before you open a ticket.</p>',
    related: ['doc-it-password', 'doc-it-wifi'],
    keywords: ['vpn', 'globalprotect', 'vpn not working', 'remote access'],
  },
  {
    docId: 'doc-it-password',
    questionTitle: 'How do I reset my password?',
    answerDesc:
      '<p><b>IT desk:</b> reset it yourself at <a href="https://password.example.com">the password portal</a> with your phone.</p><p>Your laptop takes the new password the next time it is on the office network or the VPN: connect once before you lock the screen.</p>',
    related: ['doc-it-vpn', 'doc-it-zh-password'],
    keywords: ['password', 'reset password', 'forgot password', 'locked out'],
  },
  {
    docId: 'doc-it-wifi',
    questionTitle: "Why can't I connect to the Wi-Fi?",
    answerDesc:
      '<p>Forget the <b>Corp-Secure</b> network on your device and join it again with your company account.</p><p>If your password changed today, the old one is still saved: enter the new one when asked.</p>',
    related: ['doc-it-vpn', 'doc-it-zh-wifi'],
    keywords: ['wifi', 'wi-fi', 'wireless', 'corp-secure'],
  },
  {
    docId: 'doc-it-printer',
    questionTitle: 'My print job does not come out',
    answerDesc:
      '<p>Jobs wait for you at the printer: badge in on any <b>FollowMe-Print</b> device to release them.</p><p>Jobs not released within 24 hours are deleted.<br>Guide: https://intranet.example.com/it/printing</p>',
    related: ['doc-it-zh-printer'],
    keywords: ['printer', 'printing', 'print', 'print job', 'followme'],
  },
  {
    docId: 'doc-it-laptop',
    questionTitle: 'My laptop is slow or broken',
    answerDesc:
      '<p>Restart it and install pending updates first. Broken hardware: bring it to the <b>IT bar</b> (2nd floor, 9:00 to 17:00) for a loan laptop while it is repaired.</p>',
    related: ['doc-it-software'],
    keywords: ['laptop', 'computer', 'slow', 'broken', 'repair'],
  },
  {
    docId: 'doc-it-software',
    questionTitle: 'Can I install software myself?',
    answerDesc:
      '<p>Yes, from <b>Software Center</b>: everything listed there is licensed and approved.</p><p>Anything else needs a request at <a href="https://it.example.com/software-request">the software request form</a>; the IT desk checks its licence first.</p>',
    related: ['doc-it-laptop'],
    keywords: ['install', 'install software', 'software', 'application', 'licence', 'license'],
  },
  {
    docId: 'doc-it-zh-vpn',
    questionTitle: 'VPN连不上怎么办？',
    answerDesc:
      '<p><b>IT服务台排查步骤：</b></p><p>1. 退出并重新打开GlobalProtect。<br>2. 确认门户地址为 vpn.example.com。<br>3. 在酒店或咖啡馆网络下，请先打开任意网页完成认证。</p><p>仍无法连接请先查看<a href="https://status.example.com">IT状态页</a>。</p>',
    related: ['doc-it-zh-password', 'doc-it-zh-wifi'],
    keywords: ['连不上vpn', 'vpn连不上', 'vpn断开', '远程办公'],
  },
  {
    docId: 'doc-it-zh-password',
    questionTitle: '电脑密码忘了怎么办？',
    answerDesc:
      '<p>请在<a href="https://password.example.com">密码自助平台</a>通过手机验证码重置。</p><p><b>注意：</b>重置后请先连接公司网络或VPN，电脑才会同步新密码。</p>',
    related: ['doc-it-zh-vpn', 'doc-it-password'],
    keywords: ['密码', '忘记密码', '重置密码', '电脑密码'],
  },
  {
    docId: 'doc-it-zh-wifi',
    questionTitle: '无线网络连不上怎么办？',
    answerDesc:
      '<p>请在设备上<b>忽略</b>Corp-Secure网络后重新连接，使用公司账号登录。<br>今天改过密码的，请输入新密码。</p>',
    related: ['doc-it-wifi', 'doc-it-zh-vpn'],
    keywords: ['无线', '无线网络', 'wifi连不上', '连不上网'],
  },
  {
    docId: 'doc-it-zh-printer',
    questionTitle: '打印的文件为什么没有出来？',
    answerDesc:
      '<p>文件会保留在打印队列中：请在任意<b>FollowMe-Print</b>打印机上刷工卡释放。</p><p>24小时内未释放的文件会被删除。</p>',
    related: ['doc-it-printer'],
    keywords: ['打印机', '打印', '打印文件'],
  },
];

/** Far from robot 1's. */
const FIRST_NUMBER = 2001;

export function itDeskEntries(): KnowledgeEntry[] {
  return entriesFrom(IT_DESK_SEEDS, FIRST_NUMBER);
}

export const IT_DESK_POPULAR_DOC_IDS: Readonly<Record<Language, readonly string[]>> = {
  en: ['doc-it-password', 'doc-it-vpn', 'doc-it-wifi', 'doc-it-printer', 'doc-it-software'],
  zh: ['doc-it-zh-password', 'doc-it-zh-vpn', 'doc-it-zh-wifi', 'doc-it-zh-printer'],
};
