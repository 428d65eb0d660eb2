// Recognises a link whose visible label would mislead about where it goes, and what to show instead.

/** Where the label says the link goes: a host (with its port, if any) or a mail address. */
type Claim = { kind: 'host'; host: string } | { kind: 'email'; address: string };

// Labels are untrusted and can be long: every pattern starts only where its match could begin
// (lookbehind) and bounds its runs, so scanning stays linear rather than retrying from each character.
// URLs end at whitespace and at CJK punctuation, which a URL in Chinese text runs into without a space.
const SCHEME_URL = /(?<![a-z\d+.-])[a-z][a-z\d+.-]{0,31}:\/\/[^\s<>"'，。、；：！？（）【】「」《》]+/giu;
const EMAIL =
  /(?<![a-z\d._%+-])(?:mailto:)?([a-z\d._%+-]{1,64}@(?:[\p{L}\p{N}\p{M}-]{1,63}\.)+[\p{L}\p{M}]{2,63})/giu;
// Han, kana and Hangul never occur in the hostnames people would take for a bank's; as separators
// they let "请访问bank.example.com登录" claim bank.example.com. Fullwidth Latin is kept: the URL
// parser maps it to ASCII, so "ｂａｎｋ．ｅｘａｍｐｌｅ" is a claim like any other.
const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\u3000-\u303F]/gu;
const HOSTNAME =
  /(?<![\p{L}\p{N}\p{M}.@/\\-])(?:[\p{L}\p{N}\p{M}](?:[\p{L}\p{N}\p{M}-]{0,61}[\p{L}\p{N}\p{M}])?[.．])+(?:[\p{L}\p{M}]{2,63}|xn--[a-z\d-]{1,59})(?::\d{1,5})?(?![\p{L}\p{N}\p{M}-])/giu;
const IPV4 = /(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?(?![\d.])/g;
const TRAILING_PUNCTUATION = new Set('.,;:!?)]}');

/**
 * The real destination to show in place of `label` when the label would mislead, else undefined.
 * Misleading: the target carries credentials (`https://bank.example.com@evil.example/` goes to
 * evil.example), or the label names a host or mail address (with or without a scheme, anywhere in
 * it) other than the target's. Hosts compare as the URL parser normalises them (lower case,
 * punycode, default port dropped) and nothing more: `www.bank.example` is not `bank.example`, since
 * showing the real URL of an honest link costs little and trusting a near match could cost a lot.
 * `target` is an http(s) or mailto URL already checked by the renderer.
 */
export function misleadingLabelDestination(label: string, target: string): string | undefined {
  if (/^mailto:/i.test(target)) {
    const address = target.slice('mailto:'.length).split('?')[0] ?? '';
    const domain = hostOf(address.slice(address.lastIndexOf('@') + 1));
    const honest = claimsIn(label).every((claim) =>
      claim.kind === 'email' ? claim.address === address.toLowerCase() : claim.host === domain,
    );
    return honest ? undefined : address;
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return target;
  }
  const honest =
    url.username === '' &&
    url.password === '' &&
    claimsIn(label).every((claim) => claim.kind === 'host' && claim.host === url.host);
  return honest ? undefined : withoutCredentials(url);
}

// Only http(s), with something before an @ in the authority: an @ in the path is no trick.
const URL_WITH_CREDENTIALS =
  /\bhttps?:\/\/[^\s/?#@<>"'，。、；：！？（）【】「」《》]*@[^\s<>"'，。、；：！？（）【】「」《》]*/giu;

/**
 * Bare http(s) URLs in text with their credentials removed: Slack links such text as written, and
 * `https://bank.example.com@evil.example/` reads as the bank while it opens evil.example. What is
 * left is the real destination, shown and linked.
 */
export function withoutUrlCredentials(text: string): string {
  if (!text.includes('@')) return text;
  return text.replace(URL_WITH_CREDENTIALS, (match) => {
    const candidate = withoutTrailingPunctuation(match);
    const trailing = match.slice(candidate.length);
    try {
      const url = new URL(candidate);
      if (url.username === '' && url.password === '') return match;
      return `${withoutCredentials(url)}${trailing}`;
    } catch {
      return match;
    }
  });
}

/** A URL at the end of a sentence, without the sentence's punctuation. */
function withoutTrailingPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(text.charAt(end - 1))) end -= 1;
  return text.slice(0, end);
}

function withoutCredentials(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

/** Every host or mail address the label names. */
function claimsIn(label: string): Claim[] {
  const claims: Claim[] = [];
  const withoutUrls = label.replace(SCHEME_URL, (match) => {
    claims.push({ kind: 'host', host: schemeUrlHost(withoutTrailingPunctuation(match)) });
    return ' ';
  });
  const rest = withoutUrls.replace(CJK, ' ').replace(EMAIL, (_match, address: string) => {
    claims.push({ kind: 'email', address: address.toLowerCase() });
    return ' ';
  });
  for (const pattern of [HOSTNAME, IPV4]) {
    for (const match of rest.matchAll(pattern)) claims.push({ kind: 'host', host: hostOf(match[0]) });
  }
  return claims;
}

/** The host of a URL written with any scheme; '' (matching no target) when it has none. */
function schemeUrlHost(text: string): string {
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.host;
    // Other schemes keep the host as written; normalise it as a web host to compare it.
    return url.host === '' ? '' : hostOf(url.host);
  } catch {
    return '';
  }
}

/** A bare host (and port) as the URL parser normalises it; '' when it cannot be one. */
function hostOf(text: string): string {
  try {
    return new URL(`http://${text}`).host;
  } catch {
    return '';
  }
}
