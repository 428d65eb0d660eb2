// The page: one HTML shell, its script bundled from web/ by esbuild when the playground starts (so a
// fresh clone needs no build step) and its styles. Nothing is fetched from anywhere but 127.0.0.1.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface PageAssets {
  html: string;
  script: string;
  styles: string;
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
  return { html: HTML, script, styles };
}

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Helpdesk Robot — playground</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/playground/app.css">
<script type="module" src="/playground/app.js"></script>
</head>
<body><div id="app" class="app">Loading…</div></body>
</html>
`;
