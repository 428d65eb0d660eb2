// Recognises a link whose visible label would mislead about where it goes, and what to show instead.
type Claim = { kind: 'host'; host: string } | { kind: 'email'; address: string };

// Labels are untrusted: each pattern starts only where a match could (lookbehind) and bounds its runs,
// so scanning stays linear; URLs end at whitespace and at CJK punctuation.
const URL_ENDS = String.raw`\s<>"'，。、；：！？（）【】「」《》`;
const SCHEME_URL = new RegExp(String.raw`(?<![a-z\d+.-])[a-z][a-z\d+.-]{0,31}://[^${URL_ENDS}]+`, 'giu');
const EMAIL =
  /(?<![a-z\d._%+-])(?:mailto:)?([a-z\d._%+-]{1,64}@(?:[\p{L}\p{N}\p{M}-]{1,63}\.)+[\p{L}\p{M}]{2,63})/giu;
// As separators Han, kana and Hangul let "请访问bank.example.com登录" claim bank.example.com.
const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\u3000-\u303F]/gu;
const HOSTNAME =
  /(?<![\p{L}\p{N}\p{M}.@/\\-])(?:[\p{L}\p{N}\p{M}](?:[\p{L}\p{N}\p{M}-]{0,61}[\p{L}\p{N}\p{M}])?[.．])+(?:[\p{L}\p{M}]{2,63}|xn--[a-z\d-]{1,59})(?::\d{1,5})?(?![\p{L}\p{N}\p{M}-])/giu;
const IPV4 = /(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?(?![\d.])/g;
const TRAILING_PUNCTUATION = new Set('.,;:!?)]}');

/**
 * Misleading: the target carries credentials, or the label names another host or mail address.
 * Hosts compare exactly as normalised: trusting a near match (`www.`) could cost a lot.
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
  const url = URL.parse(target);
  if (!url) return target;
  const honest =
    url.username === '' &&
    url.password === '' &&
    claimsIn(label).every((claim) => claim.kind === 'host' && claim.host === url.host);
  return honest ? undefined : withoutCredentials(url);
}

// An @ in the path is no trick.
const URL_WITH_CREDENTIALS = new RegExp(String.raw`\bhttps?://[^${URL_ENDS}/?#@]*@[^${URL_ENDS}]*`, 'giu');

/** Slack links bare URLs as written, and `https://bank.example.com@evil.example/` reads as the bank. */
export function withoutUrlCredentials(text: string): string {
  if (!text.includes('@')) return text;
  return text.replace(URL_WITH_CREDENTIALS, (match) => {
    const candidate = withoutTrailingPunctuation(match);
    const url = URL.parse(candidate);
    if (!url || (url.username === '' && url.password === '')) return match;
    return `${withoutCredentials(url)}${match.slice(candidate.length)}`;
  });
}

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

/** '' (matching no target) when it has no host. */
function schemeUrlHost(text: string): string {
  const url = URL.parse(text);
  if (!url) return '';
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.host;
  return url.host === '' ? '' : hostOf(url.host);
}

/** '' when it cannot be a host. */
function hostOf(text: string): string {
  return URL.parse(`http://${text}`)?.host ?? '';
}
