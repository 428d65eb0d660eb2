// The install page and the OAuth redirect, used as an admin uses them: the state the page hands out (as
// its cookie and in the Add to Slack link), then Slack's redirect back with a code.

/** The install page's state, as its cookie and as the Add to Slack link carry it. */
export async function beginInstall(url: string): Promise<{ state: string; cookie: string; page: string }> {
  const response = await fetch(`${url}/slack/install`);
  if (response.status !== 200) throw new Error(`the install page answered ${response.status}`);
  const page = await response.text();
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const link = /href="(https:\/\/slack\.com\/oauth\/v2\/authorize[^"]+)"/.exec(page)?.[1];
  const state = new URL((link ?? '').replaceAll('&amp;', '&')).searchParams.get('state') ?? '';
  return { state, cookie, page };
}

/** Slack's redirect back to the gateway with `query` (a code and a state, or an error). */
export function finishInstall(url: string, query: string, cookie: string): Promise<Response> {
  return fetch(`${url}/slack/oauth_redirect?${query}`, { headers: { cookie } });
}

/** Both steps with `code` (the fake Slack's oauth.v2.access exchanges it); the page the admin lands on. */
export async function installThroughPages(url: string, code = 'good-code'): Promise<string> {
  const { state, cookie } = await beginInstall(url);
  const done = await finishInstall(
    url,
    `code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
    cookie,
  );
  const page = await done.text();
  if (done.status !== 200) throw new Error(`the install did not finish (${done.status}): ${page}`);
  return page;
}
