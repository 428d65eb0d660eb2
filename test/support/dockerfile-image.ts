// The project's Dockerfile read with dockerfile-ast's parser: its stages, and what the final stage
// makes of the image (user, environment, volumes, command, health check), for the checks and the
// test that runs the gateway as the image does.
import { readFileSync } from 'node:fs';
import {
  Cmd,
  type Dockerfile,
  DockerfileParser,
  Env,
  From,
  Healthcheck,
  type Instruction,
  JSONInstruction,
  ModifiableInstruction,
  User,
  Volume,
  Workdir,
} from 'dockerfile-ast';

export interface BuildStage {
  from: From;
  /** Every instruction after the stage's FROM, up to the next FROM. */
  instructions: Instruction[];
}

export interface ParsedDockerfile {
  text: string;
  dockerfile: Dockerfile;
  stages: BuildStage[];
}

export function readDockerfile(path = 'Dockerfile'): ParsedDockerfile {
  const text = readFileSync(path, 'utf8');
  const dockerfile = DockerfileParser.parse(text);
  const stages: BuildStage[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction instanceof From) stages.push({ from: instruction, instructions: [] });
    else stages.at(-1)?.instructions.push(instruction);
  }
  return { text, dockerfile, stages };
}

/** The stage the image is made of: the last one. */
export function finalStage({ stages }: ParsedDockerfile): BuildStage {
  const stage = stages.at(-1);
  if (!stage) throw new Error('the Dockerfile has no FROM');
  return stage;
}

/** What a container of the final stage starts with. */
export interface RuntimeImage {
  /** USER, or undefined for the base image's (root). */
  user: string | undefined;
  workdir: string | undefined;
  env: Record<string, string>;
  volumes: string[];
  exposedPorts: string[];
  /** CMD in exec form; undefined when absent or in shell form. */
  command: string[] | undefined;
  /** HEALTHCHECK CMD in exec form; undefined when absent or in shell form. */
  healthcheck: string[] | undefined;
}

export function runtimeImage(stage: BuildStage): RuntimeImage {
  const image: RuntimeImage = {
    user: undefined,
    workdir: undefined,
    env: {},
    volumes: [],
    exposedPorts: [],
    command: undefined,
    healthcheck: undefined,
  };
  for (const instruction of stage.instructions) {
    const words = instruction.getArguments().map((argument) => argument.getValue());
    if (instruction instanceof User) image.user = words[0];
    else if (instruction instanceof Workdir) image.workdir = words[0];
    else if (instruction instanceof Env) {
      for (const property of instruction.getProperties()) {
        image.env[property.getName()] = property.getUnescapedValue() ?? '';
      }
    } else if (instruction instanceof Volume) {
      const listed = jsonStrings(instruction);
      image.volumes.push(...(listed.length > 0 ? listed : words));
    } else if (instruction.getKeyword() === 'EXPOSE') image.exposedPorts.push(...words);
    else if (instruction instanceof Cmd) image.command = execForm(jsonStrings(instruction));
    else if (instruction instanceof Healthcheck) image.healthcheck = healthcheckCommand(instruction);
  }
  return image;
}

/** The words of an instruction written as a JSON array (exec form); empty in shell form. */
export function jsonStrings(instruction: Instruction): string[] {
  return instruction instanceof JSONInstruction
    ? instruction.getJSONStrings().map((item) => item.getJSONValue())
    : [];
}

/** A flag such as COPY's `--from`: its value, null when it has none, undefined when absent. */
export function flagValue(instruction: Instruction, name: string): string | null | undefined {
  if (!(instruction instanceof ModifiableInstruction)) return undefined;
  return instruction
    .getFlags()
    .find((flag) => flag.getName() === name)
    ?.getValue();
}

const execForm = (words: string[]) => (words.length > 0 ? words : undefined);

/** The parser names HEALTHCHECK's subcommand but leaves its JSON array as text. */
function healthcheckCommand(instruction: Healthcheck): string[] | undefined {
  const subcommand = instruction.getSubcommand()?.getValue();
  if (subcommand?.toUpperCase() !== 'CMD') return undefined;
  const rest = (instruction.getArgumentsContent() ?? '').slice(subcommand.length).trim();
  if (!rest.startsWith('[')) return undefined;
  const words: unknown = JSON.parse(rest);
  return Array.isArray(words) && words.every((word) => typeof word === 'string') ? words : undefined;
}
