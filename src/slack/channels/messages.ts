// What the channels room says. Channels, people and groups come as Slack mentions, values in code spans.
import { catalog, translator } from '../kit/i18n.js';

const en = {
  command_help:
    '• `{command} channel`: this channel’s settings, with Edit (operators). Typed: `{command} channel robot:2 answer:questions reply:thread escalate:@someone lang:auto` (keys left out stay), `{command} channel reset`, or name another channel first, right after `channel`.\n• `{command} channels`: every channel with settings of its own (operators).',
  settings_title: '*Settings of {channel}*',
  settings_saved: '*Saved. {channel} now has these settings:*',
  settings_reset: '*{channel} is back to the defaults:*',
  settings_none: 'No settings of its own: every key has its default.',
  settings_changed_by: 'Last changed by {user} {date}.',
  settings_how:
    'Type `{command} channel key:value …` to change some (keys left out stay), or `{command} channel reset`.',
  settings_edit: 'Edit',
  setting_line: '*{key}*: {value}',
  setting_default: 'default: {value}',
  robot_value: 'robot {robot}',
  robot_default: 'the app’s own robot',
  answer_value:
    '{mode, select, mention {only when mentioned} questions {when mentioned, and on its own to messages that read as questions} all {when mentioned, and on its own to every message} other {{mode}}}',
  reply_value:
    '{style, select, ephemeral {shown only to whoever asked} thread {in the thread, for everyone} other {{style}}}',
  escalate_off: 'nobody (no button to call a person)',
  askers_anyone: 'anyone',
  lang_value: '{lang, select, auto {each person’s own language} en {English} zh {Chinese} other {{lang}}}',
  nothing_changed: '*Nothing was changed:*',
  problem_unknown_key: '{key} is not a setting: use robot, answer, reply, escalate, askers or lang.',
  problem_bad_value: '{key} takes {takes}, not {value}.',
  problem_stands_alone: '{key} takes {takes}, not {value}: {word} stands alone.',
  problem_duplicate: '{key} is given twice: give it once.',
  problem_empty: '{key} needs a value: {takes}.',
  problem_empty_escalate:
    '`escalate` needs people or user groups to call; to call no one, write `escalate:off`.',
  problem_empty_askers: '`askers` needs people or user groups; to answer anyone, write `askers:anyone`.',
  problem_not_understood: '{word} is not a setting: write key:value, as in `robot:2`.',
  problem_no_colon: '{key} needs a colon before its value: write {example}.',
  problem_channel_misplaced: '{word} is a channel: put it first, right after `{command} channel`.',
  problem_reset_alone: '`reset` takes nothing after it: `{command} channel reset`.',
  problem_unresolved:
    '{value} arrived as plain text, not as {kind, select, channel {a channel Slack recognised: pick it from the autocomplete as you type #, or check its name} other {a person or user group Slack recognised: pick it from the autocomplete as you type @, or check the handle}}.',
  takes_robot: 'a whole number from 0 to {max}',
  takes_answer: '`mention`, `questions` or `all`',
  takes_reply: '`thread` or `ephemeral`',
  takes_escalate: 'people and user groups (@someone, @a-group), or `off`',
  takes_askers: 'people and user groups (@someone, @a-group), or `anyone`',
  takes_lang: '`auto`, `en` or `zh`',
  in_dm:
    'Type `{command} channel` in the channel itself, or name the channel first, right after `{command} channel`.',
  not_member:
    'I am not a member of {channel}, so I cannot answer there on my own. Invite me first: in {channel}, type `/invite` and my name ({app}), then try again. Nothing was changed.',
  store_failed:
    'The settings could not be saved just now: the store did not answer. Nothing was changed; try again in a moment.',
  notice_answer:
    '{by} set this channel so that {mode, select, questions {I now answer questions here on my own, without being mentioned} all {I now answer every message here on my own, without being mentioned} other {I no longer answer here on my own: mention me to ask}}.',
  notice_reply:
    '{by} set this channel so that {style, select, ephemeral {my answers here are shown only to whoever asked} other {my answers here are posted in the thread, for everyone}}.',
  list_title: '*Channels with settings of their own ({count, number})*',
  list_none:
    'No channel has settings of its own: every channel has the defaults. Type `{command} channel` in one to set it up.',
  list_more: '…and {count, plural, one {# more channel} other {# more channels}}.',
  list_changed_by: 'changed by {user} {date}',
  home_channels_title: '*Channels with settings of their own*',
  home_channels_none:
    'None yet: every channel has the defaults. `{command} channel` in a channel sets it up.',
  modal_title: 'Channel settings',
  modal_save_settings: 'Save',
  modal_cancel_settings: 'Cancel',
  modal_intro: 'Settings of {channel}. Left empty or at Default, a setting takes its default.',
  modal_robot: 'Robot number',
  modal_robot_hint: 'The number of the robot whose knowledge base answers here. Empty: the app’s own robot.',
  modal_answer: 'When the app answers',
  modal_reply: 'Where answers go',
  modal_escalate_people: 'People to call when the robot cannot help',
  modal_escalate_groups: 'User groups to call',
  modal_askers_people: 'When answering on its own, answer only these people',
  modal_askers_groups: 'When answering on its own, answer only these user groups',
  modal_groups_hint:
    'The user groups could not be listed here: type their ids (S0123ABCD, in each group’s profile in Slack), separated by spaces or commas. Empty: none.',
  modal_groups_placeholder: 'Type a handle to find a group',
  modal_lang: 'Language of the app’s words',
  modal_default: 'Default ({value})',
  modal_robot_bad: 'A whole number from 0 to {max}, or empty for the default.',
  modal_groups_bad: 'Not a user group: {value}. Give ids like S0123ABCD.',
  modal_not_member:
    'I am not a member of this channel, so I cannot answer there on my own. Invite me with /invite in the channel first.',
  modal_store_failed: 'The settings could not be saved just now. Try again in a moment.',
} as const;

export const messages = catalog(en, {
  command_help:
    '• `{command} channel`：本频道的设置，可点“编辑”修改（仅限管理员）。也可直接输入：`{command} channel robot:2 answer:questions reply:thread escalate:@某人 lang:auto`（未写的项保持不变）、`{command} channel reset`，或在 `channel` 后先写另一个频道。\n• `{command} channels`：列出所有有自己设置的频道（仅限管理员）。',
  settings_title: '*{channel} 的设置*',
  settings_saved: '*已保存。{channel} 现在的设置：*',
  settings_reset: '*{channel} 已恢复默认设置：*',
  settings_none: '没有单独的设置：每一项都是默认值。',
  settings_changed_by: '最后由 {user} 于 {date} 修改。',
  settings_how:
    '输入 `{command} channel key:value …` 修改其中几项（未写的保持不变），或 `{command} channel reset` 恢复默认。',
  settings_edit: '编辑',
  setting_line: '*{key}*：{value}',
  setting_default: '默认：{value}',
  robot_value: '机器人 {robot}',
  robot_default: '本应用的默认机器人',
  answer_value:
    '{mode, select, mention {仅在被 @ 时回答} questions {被 @ 时回答，并主动回答像是提问的消息} all {被 @ 时回答，并主动回答每一条消息} other {{mode}}}',
  reply_value: '{style, select, ephemeral {仅提问者可见} thread {在话题中回复，所有人可见} other {{style}}}',
  escalate_off: '无人（不显示转人工按钮）',
  askers_anyone: '任何人',
  lang_value: '{lang, select, auto {每个人自己的语言} en {英文} zh {中文} other {{lang}}}',
  nothing_changed: '*未做任何修改：*',
  problem_unknown_key: '{key} 不是可设置的项：可用 robot、answer、reply、escalate、askers 或 lang。',
  problem_bad_value: '{key} 的取值为 {takes}，不能是 {value}。',
  problem_stands_alone: '{key} 的取值为 {takes}，不能是 {value}：{word} 只能单独使用。',
  problem_duplicate: '{key} 写了两次：请只写一次。',
  problem_empty: '{key} 需要一个值：{takes}。',
  problem_empty_escalate: '`escalate` 需要填写要呼叫的人员或用户组；不呼叫任何人请写 `escalate:off`。',
  problem_empty_askers: '`askers` 需要填写人员或用户组；回答任何人请写 `askers:anyone`。',
  problem_not_understood: '{word} 不是设置项：请写成 key:value，例如 `robot:2`。',
  problem_no_colon: '{key} 与它的值之间需要冒号：请写成 {example}。',
  problem_channel_misplaced: '{word} 是一个频道：请把它放在最前面，紧跟 `{command} channel`。',
  problem_reset_alone: '`reset` 后面不能再写别的：`{command} channel reset`。',
  problem_unresolved:
    '{value} 是作为纯文本收到的，Slack 没有把它识别为{kind, select, channel {频道：请在输入 # 时从自动补全中选择，或检查频道名称} other {人员或用户组：请在输入 @ 时从自动补全中选择，或检查名称}}。',
  takes_robot: '0 到 {max} 之间的整数',
  takes_answer: '`mention`、`questions` 或 `all`',
  takes_reply: '`thread` 或 `ephemeral`',
  takes_escalate: '人员和用户组（@某人、@某个组），或 `off`',
  takes_askers: '人员和用户组（@某人、@某个组），或 `anyone`',
  takes_lang: '`auto`、`en` 或 `zh`',
  in_dm: '请在频道中输入 `{command} channel`，或在 `{command} channel` 后先写出频道。',
  not_member:
    '我不是 {channel} 的成员，无法在那里主动回答。请先邀请我：在 {channel} 中输入 `/invite` 和我的名字（{app}），然后再试一次。未做任何修改。',
  store_failed: '暂时无法保存设置：存储没有响应。未做任何修改，请稍后再试。',
  notice_answer:
    '{by} 修改了本频道的设置：{mode, select, questions {我现在会主动回答这里的提问，无需 @ 我} all {我现在会主动回答这里的每一条消息，无需 @ 我} other {我不再主动回答这里的消息，需要时请 @ 我}}。',
  notice_reply:
    '{by} 修改了本频道的设置：{style, select, ephemeral {我在这里的回答现在只有提问者可见} other {我在这里的回答现在发在话题中，所有人可见}}。',
  list_title: '*有单独设置的频道（{count, number}）*',
  list_none: '没有频道有单独的设置：所有频道都使用默认值。在频道中输入 `{command} channel` 即可设置。',
  list_more: '……还有 {count, plural, other {# 个频道}}。',
  list_changed_by: '由 {user} 于 {date} 修改',
  home_channels_title: '*有单独设置的频道*',
  home_channels_none: '暂无：所有频道都使用默认值。在频道中输入 `{command} channel` 即可设置。',
  modal_title: '频道设置',
  modal_save_settings: '保存',
  modal_cancel_settings: '取消',
  modal_intro: '{channel} 的设置。留空或选「默认」的项使用默认值。',
  modal_robot: '机器人编号',
  modal_robot_hint: '在这里用哪个机器人的知识库回答。留空：本应用的默认机器人。',
  modal_answer: '何时回答',
  modal_reply: '回答发在哪里',
  modal_escalate_people: '机器人无法解答时呼叫的人员',
  modal_escalate_groups: '呼叫的用户组',
  modal_askers_people: '主动回答时，只回答这些人',
  modal_askers_groups: '主动回答时，只回答这些用户组的成员',
  modal_groups_hint:
    '这里无法列出用户组：请输入用户组 ID（S0123ABCD，可在 Slack 中各用户组的资料里找到），用空格或逗号分隔。留空：无。',
  modal_groups_placeholder: '输入名称查找用户组',
  modal_lang: '应用使用的语言',
  modal_default: '默认（{value}）',
  modal_robot_bad: '请填写 0 到 {max} 之间的整数，或留空使用默认值。',
  modal_groups_bad: '不是用户组：{value}。请填写类似 S0123ABCD 的 ID。',
  modal_not_member: '我不是本频道的成员，无法在这里主动回答。请先在频道中用 /invite 邀请我。',
  modal_store_failed: '暂时无法保存设置，请稍后再试。',
});

export const t = translator(messages);
