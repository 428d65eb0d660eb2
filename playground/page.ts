// The page: one HTML shell, its script bundled from web/ by esbuild when the playground starts (so a
// fresh clone needs no build step) and its styles. Nothing is fetched from anywhere but 127.0.0.1.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface PageAssets {
  html: string;
  script: string;
  styles: string;
  /** Served at /favicon.ico, where Chromium asks for it on every page (the gateway's install pages too). */
  icon: string;
}

const WEB_DIR = fileURLToPath(new URL('./web/', import.meta.url));

export async function buildPageAssets(): Promise<PageAssets> {
  const [bundle, styles] = await Promise.all([
    build({
      entryPoints: [`${WEB_DIR}main.ts`],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      charset: 'utf8',
      sourcemap: 'inline',
      logLevel: 'silent',
    }),
    readFile(`${WEB_DIR}styles.css`, 'utf8'),
  ]);
  const script = bundle.outputFiles[0]?.text;
  if (script === undefined) throw new Error('the playground page did not build');
  return { html: HTML, script, styles, icon: ICON };
}

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Helpdesk Robot — playground</title>
<link rel="stylesheet" href="/playground/app.css">
<script type="module" src="/playground/app.js"></script>
</head>
<body><div id="app" class="app">Loading…</div></body>
</html>
`;

/** A speech bubble on Slack's aubergine, small enough to inline. */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#4a154b"/>
<path d="M8 8h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2h-9l-6 5v-5H8a2 2 0 0 1-2-2V10a2 2 0 0 1 2-2z" fill="#fff"/>
</svg>
`;
