import { describe, expect, it } from 'vitest';
import {
  cardIdOfEntry,
  cardIdOfQuestion,
  isTooLittleToReview,
  normaliseQuestion,
} from '../../../src/review/normalise.js';

describe('unanswered questions are one card however they are typed', () => {
  it('ignores case, spacing, full-width forms and closing punctuation', () => {
    const id = cardIdOfQuestion('Where is the parking garage?');
    expect(cardIdOfQuestion('  where is   the PARKING garage ？')).toBe(id);
    expect(cardIdOfQuestion('Where is the parking garage!!')).toBe(id);
    expect(cardIdOfQuestion('Where is the parking lot?')).not.toBe(id);
  });

  it('ignores punctuation, ellipses and full-width letters inside the question, not only at its ends', () => {
    const id = cardIdOfQuestion('Can I bring my llama to the office …?');
    expect(cardIdOfQuestion('can i bring my LLAMA to the office, …!!')).toBe(id);
    expect(cardIdOfQuestion('Can I bring my llama, to the office...')).toBe(id);
    expect(cardIdOfQuestion('Ｃａｎ Ｉ bring my llama to the office？')).toBe(id);
    expect(cardIdOfQuestion('Can I bring my llama to the office 🦙?')).toBe(id);
    expect(cardIdOfQuestion('Can I bring my alpaca to the office?')).not.toBe(id);
  });

  it("reads an apostrophe or a hyphen inside a word as part of it: don't is dont, wi-fi is wifi", () => {
    expect(normaliseQuestion("Why don't I get Wi-Fi?")).toBe('why dont i get wifi');
    expect(cardIdOfQuestion('why dont i get wifi')).toBe(cardIdOfQuestion('Why don’t I get Wi‑Fi?'));
  });

  it('keeps Chinese questions apart and whole, spaces and punctuation between characters aside', () => {
    expect(normaliseQuestion('停车场在哪里？')).toBe('停车场在哪里');
    expect(cardIdOfQuestion('停车场在哪里？')).toBe(cardIdOfQuestion('停车场在哪里?'));
    expect(cardIdOfQuestion('停车场 在 哪里')).toBe(cardIdOfQuestion('停车场，在哪里！'));
    expect(normaliseQuestion('我的 VPN 连不上')).toBe('我的vpn连不上');
    expect(cardIdOfQuestion('停车场在哪里')).not.toBe(cardIdOfQuestion('食堂在哪里'));
  });

  it('keeps letters of every script', () => {
    expect(normaliseQuestion('Где находится парковка?')).toBe('где находится парковка');
    expect(normaliseQuestion('Wo ist die Kantine, bitte?')).toBe('wo ist die kantine bitte');
    expect(cardIdOfQuestion('Где парковка?')).not.toBe(cardIdOfQuestion('Где столовая?'));
  });

  it("cases letters as en-US does, so a card's id stays the one stored before", () => {
    for (const question of ['İSTANBUL OFİSİ', 'ΟΔΟΣ ΣΤΑΘΜΕΥΣΗΣ', 'IRMAK KAPI', 'ǄEMAL Ǳ']) {
      expect(normaliseQuestion(question)).toBe(question.normalize('NFKC').toLocaleLowerCase('en-US'));
    }
  });

  it('gives a question of punctuation only a card of its own', () => {
    expect(cardIdOfQuestion('???')).toMatch(/^q:[0-9a-f]{32}$/);
  });

  it('names entry cards by docId', () => {
    expect(cardIdOfEntry('doc-wifi')).toBe('doc:doc-wifi');
  });
});

describe('too little to be a question', () => {
  it.each([
    ['emoji only', '🦙🦙 👍'],
    ['emoji codes only', ':llama: :thumbsup:'],
    ['punctuation only', '?!…'],
    ['a mention only', '<@U0123ABCD>'],
    ['a mention made plain', '@Jane Doe'],
    ['a link made plain', 'https://example.com/some/page'],
    ['a link only', '<https://example.com/a|example>'],
    ['formatting around one word', '*help*'],
    ['one word', 'hello?'],
    ['one Chinese character', '好？'],
    ['a channel and a broadcast', '<#C0123|general> <!here>'],
  ])('%s makes no card', (_, text) => {
    expect(isTooLittleToReview(text)).toBe(true);
  });

  it.each([
    ['two words', 'vpn broken'],
    ['a question', 'Can I bring my llama to the office?'],
    ['two Chinese characters', '食堂'],
    ['a Chinese question', '停车场在哪里？'],
    ['a mention and two words', '<@U0123ABCD> printer jammed'],
    ['a question that names a tag', 'how do I put a <br> in a wiki page?'],
    ['a question with an acronym', 'https sftp not working'],
    ['one key run among words', 'asdf is my password hint, how do I change it'],
  ])('%s is a question', (_, text) => {
    expect(isTooLittleToReview(text)).toBe(false);
  });
});

describe('junk is no question to review', () => {
  it.each([
    ['HTML typed as text', '<b>hello</b> <i>world</i>'],
    ['a script tag', '<script>alert(1)</script>'],
    ['an image tag', '<img src="x" onerror="alert(1)">'],
    ['keyboard mash', 'asdfgh qwerty'],
    ['mash, backwards', 'lkjhg poiuy'],
    ['one key held down', 'jjjjjjj kkkkk'],
    ['consonants only', 'sdfghjk xcvbnm'],
  ])('%s', (_, text) => {
    expect(isTooLittleToReview(text)).toBe(true);
  });
});
