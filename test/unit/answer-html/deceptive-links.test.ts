import { describe, expect, it } from 'vitest';
import {
  misleadingLabelDestination,
  withoutUrlCredentials,
} from '../../../src/answer-html/deceptive-links.js';

describe('misleadingLabelDestination', () => {
  it('gives the real URL when the label is a URL of another host', () => {
    expect(misleadingLabelDestination('https://bank.example/login', 'https://evil.example/login')).toBe(
      'https://evil.example/login',
    );
    expect(misleadingLabelDestination('http://bank.example', 'https://evil.example/a?b=1#c')).toBe(
      'https://evil.example/a?b=1#c',
    );
  });

  it('treats a label without a scheme, or with one Slack would not link, as a host too', () => {
    for (const label of ['bank.example', 'www.bank.example/login', 'ftp://bank.example/x', '10.0.0.1']) {
      expect(misleadingLabelDestination(label, 'https://evil.example/')).toBe('https://evil.example/');
    }
  });

  it('finds a host anywhere in the label, Chinese text around it included', () => {
    expect(misleadingLabelDestination('Sign in at bank.example.com today', 'https://evil.example/')).toBe(
      'https://evil.example/',
    );
    expect(misleadingLabelDestination('请访问bank.example.com登录', 'https://evil.example/')).toBe(
      'https://evil.example/',
    );
    expect(misleadingLabelDestination('请访问bank.example.com登录', 'https://bank.example.com/')).toBe(
      undefined,
    );
  });

  it('keeps a label that names the target host, compared as the URL parser normalises hosts', () => {
    expect(misleadingLabelDestination('https://BANK.example/login', 'https://bank.example/other')).toBe(
      undefined,
    );
    expect(misleadingLabelDestination('bank.example', 'https://bank.example:443/')).toBe(undefined);
    expect(misleadingLabelDestination('ｂａｎｋ．ｅｘａｍｐｌｅ', 'https://bank.example/')).toBe(undefined);
  });

  it('does not treat www. as the same host, nor another port', () => {
    expect(misleadingLabelDestination('www.bank.example', 'https://bank.example/')).toBe(
      'https://bank.example/',
    );
    expect(misleadingLabelDestination('bank.example', 'https://bank.example:8443/')).toBe(
      'https://bank.example:8443/',
    );
  });

  it('shows a lookalike (IDN) target host in punycode, where the difference is visible', () => {
    // The second "а" is Cyrillic.
    expect(misleadingLabelDestination('https://bank.example/', 'https://bаnk.example/')).toBe(
      'https://xn--bnk-6cd.example/',
    );
  });

  it('always gives the real destination of a target with credentials, without them', () => {
    expect(misleadingLabelDestination('Sign in', 'https://bank.example.com@evil.example/')).toBe(
      'https://evil.example/',
    );
    expect(misleadingLabelDestination('Sign in', 'https://user:pass@evil.example/p')).toBe(
      'https://evil.example/p',
    );
  });

  it('treats a mail address in the label of a web link as misleading', () => {
    expect(misleadingLabelDestination('support@bank.example', 'https://evil.example/')).toBe(
      'https://evil.example/',
    );
  });

  it('compares mailto links by address, case-insensitively, and by domain for a host in the label', () => {
    expect(misleadingLabelDestination('support@bank.example', 'mailto:x@evil.example')).toBe(
      'x@evil.example',
    );
    expect(misleadingLabelDestination('https://bank.example', 'mailto:x@evil.example')).toBe(
      'x@evil.example',
    );
    expect(misleadingLabelDestination('Support@Bank.example', 'mailto:support@bank.example?subject=Hi')).toBe(
      undefined,
    );
    expect(misleadingLabelDestination('bank.example support', 'mailto:support@bank.example')).toBe(undefined);
  });

  it('stays fast on long labels made to make a pattern retry from every character', () => {
    const started = Date.now();
    for (const label of [
      'a'.repeat(100_000),
      '1.'.repeat(50_000),
      'a-'.repeat(50_000),
      'x+'.repeat(50_000),
    ]) {
      expect(misleadingLabelDestination(label, 'https://x.example/')).toBe(undefined);
      expect(withoutUrlCredentials(`https://a@b/${label}`)).toBe(`https://b/${label}`);
    }
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('keeps labels of ordinary words', () => {
    for (const label of ['Click here', '帮助中心', 'the 2.5 release', 'e.g. this', '第3.1节', '']) {
      expect(misleadingLabelDestination(label, 'https://help.example.com/')).toBe(undefined);
      expect(misleadingLabelDestination(label, 'mailto:help@example.com')).toBe(undefined);
    }
  });
});

describe('withoutUrlCredentials', () => {
  it('drops the credentials of bare http(s) URLs, keeping trailing punctuation outside', () => {
    expect(withoutUrlCredentials('see https://bank.example.com@evil.example/x. ok')).toBe(
      'see https://evil.example/x. ok',
    );
    expect(withoutUrlCredentials('登录 http://a:b@evil.example，谢谢')).toBe(
      '登录 http://evil.example/，谢谢',
    );
  });

  it('leaves URLs with an @ only in the path, mail addresses and unparsable text alone', () => {
    const text = 'https://x.example/u/@me support@bank.example https://@ https://a@[bad/';
    expect(withoutUrlCredentials(text)).toBe(text);
  });
});
