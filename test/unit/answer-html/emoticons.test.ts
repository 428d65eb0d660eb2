import { describe, expect, it } from 'vitest';
import { replaceEmoticons } from '../../../src/answer-html/emoticons.js';

/** The platform's standard set, under the names of both generations, and WeChat's newer codes. */
const STANDARD_CODES = [
  '微笑 撇嘴 色 发呆 得意 流泪 害羞 闭嘴 睡 大哭 尴尬 发怒 调皮 呲牙 惊讶 难过 酷 冷汗 抓狂 吐 偷笑 可爱 愉快',
  '白眼 傲慢 饥饿 困 惊恐 流汗 憨笑 大兵 悠闲 奋斗 咒骂 疑问 嘘 晕 折磨 疯了 衰 骷髅 敲打 再见 擦汗 抠鼻 鼓掌',
  '糗大了 坏笑 左哼哼 右哼哼 哈欠 鄙视 委屈 快哭了 阴险 亲亲 吓 可怜 菜刀 西瓜 啤酒 篮球 乒乓 咖啡 饭 猪头 玫瑰',
  '凋谢 示爱 嘴唇 爱心 心碎 蛋糕 闪电 炸弹 刀 足球 瓢虫 便便 月亮 太阳 礼物 拥抱 强 弱 握手 胜利 抱拳 勾引',
  '拳头 差劲 爱你 NO OK 爱情 飞吻 跳跳 发抖 怄火 转圈 磕头 回头 跳绳 挥手 激动 街舞 献吻 左太极 右太极',
  '捂脸 奸笑 机智 皱眉 耶 吃瓜 加油 汗 天啊 社会社会 旺柴 好的 哇 红包 發 福',
]
  .join(' ')
  .split(' ');

describe('replaceEmoticons', () => {
  it('shows every code of the standard set as an emoji, a Unicode character rather than a :shortcode:', () => {
    expect(STANDARD_CODES.length).toBeGreaterThan(120);
    for (const name of STANDARD_CODES) {
      const shown = replaceEmoticons(`[${name}]`);
      expect(shown, name).toMatch(/^\p{Extended_Pictographic}/u);
      expect(shown, name).not.toMatch(/[:[\]]/);
    }
  });

  it('replaces codes inside text, next to each other and next to CJK characters', () => {
    expect(replaceEmoticons('您好[微笑]，收到[玫瑰][玫瑰]！[OK]')).toBe('您好🙂，收到🌹🌹！👌');
    expect(replaceEmoticons('[强] good')).toBe('👍 good');
  });

  it('leaves unknown codes, other brackets and near misses as written', () => {
    const text = '[未知表情] [ok] [ 微笑 ] [微笑 [1] [] [[微笑] 数组a[0]';
    expect(replaceEmoticons(text)).toBe('[未知表情] [ok] [ 微笑 ] [微笑 [1] [] [🙂 数组a[0]');
    expect(replaceEmoticons('no brackets at all')).toBe('no brackets at all');
  });
});
