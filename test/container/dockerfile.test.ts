// The Dockerfile, checked without Docker: the builder's own rules (dockerfile-utils' validator) and
// ours for the image an operator runs (two stages, no dev dependencies, an unprivileged user, node
// as PID 1, a health check without shell tools, the state on a volume).
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { Run } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import {
  type BuildStage,
  finalStage,
  flagValue,
  jsonStrings,
  readDockerfile,
  runtimeImage,
} from '../support/dockerfile-image.js';

const parsed = readDockerfile();
const { text, stages } = parsed;
const imageStage = finalStage(parsed);
const image = runtimeImage(imageStage);

/** Each RUN of a stage as its shell words, one list per `&&`-joined command. */
function commandsOf(stage: BuildStage): string[][] {
  return stage.instructions
    .filter((instruction) => instruction instanceof Run)
    .flatMap((run) => {
      const words =
        jsonStrings(run).length > 0 ? jsonStrings(run) : run.getArguments().map((a) => a.getValue());
      const commands: string[][] = [[]];
      for (const word of words) {
        if (word === '&&') commands.push([]);
        else commands.at(-1)?.push(word);
      }
      return commands.filter((command) => command.length > 0);
    });
}

const isNpmInstall = (command: string[]) =>
  command[0] === 'npm' && ['ci', 'install', 'i'].includes(command[1] ?? '');

/** The base image with the Dockerfile's ARGs put in, e.g. node:24-slim. */
const baseImage = (stage: BuildStage) => stage.from.getExpandedArguments()[0]?.getValue() ?? '';

describe('the Dockerfile', () => {
  it('has no problem the Docker builder would report', () => {
    expect(validate(text)).toEqual([]);
  });

  it('would be refused with a mistyped flag: the validator reads this file', () => {
    const broken = text.replace('HEALTHCHECK --interval', 'HEALTHCHECK --intervall');
    expect(validate(broken).map((problem) => problem.message)).toEqual([
      expect.stringContaining('intervall'),
    ]);
  });

  it('builds in one stage and runs from another, both on a slim Node LTS image', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const builder = stages[0] as BuildStage;
    expect(commandsOf(builder)).toContainEqual(['npm', 'run', 'build']);
    for (const stage of [builder, imageStage]) {
      const [name, tag = ''] = baseImage(stage).split(':');
      expect(name).toBe('node');
      // LTS lines are the even majors; the compiled code needs 22.13 or newer.
      const major = Number(tag.replace(/-slim$/, ''));
      expect(tag).toMatch(/^\d+-slim$/);
      expect(major % 2).toBe(0);
      expect(major).toBeGreaterThanOrEqual(22);
    }
  });

  it('installs no dev dependencies in the final stage and copies only the compiled code (and a font) into it', () => {
    const installs = commandsOf(imageStage).filter(isNpmInstall);
    expect(installs).not.toEqual([]);
    for (const install of installs) expect(install).toContain('--omit=dev');
    expect(image.env.NODE_ENV).toBe('production');

    const builderNames = stages.slice(0, -1).map((stage) => stage.from.getBuildStage());
    const fromStages = imageStage.instructions
      .filter((instruction) => instruction.getKeyword() === 'COPY')
      .flatMap((copy) => {
        const from = flagValue(copy, 'from');
        const words =
          jsonStrings(copy).length > 0 ? jsonStrings(copy) : copy.getArguments().map((a) => a.getValue());
        return from ? [{ from, sources: words.slice(0, -1) }] : [];
      });
    expect(fromStages).toEqual([
      { from: builderNames[0], sources: ['/app/dist'] },
      // The charts' fallback for Chinese text from the platform: one font file, not the package.
      { from: 'fonts', sources: ['/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'] },
    ]);
    for (const { sources } of fromStages) {
      for (const source of sources) expect(source).not.toMatch(/node_modules/);
    }
  });

  it('runs node dist/main.js in exec form as an unprivileged user', () => {
    expect(image.command).toEqual(['node', 'dist/main.js']);
    expect(
      imageStage.instructions.filter((instruction) => instruction.getKeyword() === 'ENTRYPOINT'),
    ).toEqual([]);
    expect(image.user).toBeDefined();
    const [user = '', group] = (image.user ?? '').split(':');
    expect(['root', '0']).not.toContain(user);
    expect(['root', '0']).not.toContain(group);
    // The app's files stay root's: the user can read them, not change them.
    const copies = imageStage.instructions.filter((instruction) => instruction.getKeyword() === 'COPY');
    for (const copy of copies) expect(flagValue(copy, 'chown')).toBeUndefined();
  });

  it('checks its health with node alone, on the port it listens on', () => {
    const [program, ...args] = image.healthcheck ?? [];
    // No shell, curl or wget: the slim image has none of them.
    expect(program).toBe('node');
    expect(args.join(' ')).toContain('/healthz');
    expect(image.env.PORT).toBeDefined();
    expect(image.exposedPorts).toContain(image.env.PORT);
  });

  it('keeps the state on a volume the unprivileged user owns', () => {
    const statePath = image.env.STATE_PATH ?? '';
    expect(image.volumes).toContain('/data');
    expect(posix.dirname(statePath)).toBe('/data');
    expect(commandsOf(imageStage)).toContainEqual(['chown', `${image.user}:${image.user}`, '/data']);
    // An empty STATE_PATH (as .env.example has it) means ./data/gateway.sqlite: the volume as well.
    expect(commandsOf(imageStage)).toContainEqual([
      'ln',
      '-s',
      '/data',
      posix.join(image.workdir ?? '/', 'data'),
    ]);
  });
});

describe('the build context (.dockerignore)', () => {
  const patterns = readFileSync('.dockerignore', 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

  it('leaves out everything but what the Dockerfile copies from it', () => {
    expect(patterns[0]).toBe('*');
    const kept = patterns.filter((pattern) => pattern.startsWith('!')).map((pattern) => pattern.slice(1));
    const copiedFromContext = stages.flatMap((stage) =>
      stage.instructions
        .filter((instruction) => instruction.getKeyword() === 'COPY' && !flagValue(instruction, 'from'))
        .flatMap((copy) =>
          copy
            .getArguments()
            .map((a) => a.getValue())
            .slice(0, -1),
        ),
    );
    expect(copiedFromContext).not.toEqual([]);
    for (const source of copiedFromContext) {
      expect(kept.map((pattern) => pattern.replace(/\/$/, ''))).toContain(source);
    }
    // Nothing secret or stateful is let back in.
    for (const pattern of kept) expect(pattern).not.toMatch(/^(\.env|node_modules|dist|data|\.git)\b/);
    expect(patterns).toEqual(expect.arrayContaining(['**/*.sqlite*', '**/.env*']));
  });
});
