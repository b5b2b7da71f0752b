import { parseArgs } from 'node:util'
import { UsageError } from './usageError.js'

/** Every flag of the CLI, with its type; which command takes which is {@link COMMAND_FLAGS}. */
export const FLAGS = {
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
  sim: { type: 'boolean' },
  stream: { type: 'boolean' },
  model: { type: 'string', default: 'gpt-4.1-mini' },
  port: { type: 'string' },
  size: { type: 'string' },
  duration: { type: 'string' },
  audio: { type: 'string' },
  out: { type: 'string' },
  overwrite: { type: 'boolean' },
  topic: { type: 'string', default: 'a lighthouse keeper at dawn' },
  'poll-ms': { type: 'string' },
} as const

type FlagName = keyof typeof FLAGS

const EVERY: readonly FlagName[] = ['help', 'json', 'sim']

/** The flags each command takes; `main` is rxgate without a command. A flag of another command is bad input, not ignored. */
export const COMMAND_FLAGS: Readonly<Record<string, readonly FlagName[]>> = {
  main: ['help'],
  help: ['help'],
  sim: ['help', 'json', 'port'],
  respond: [...EVERY, 'stream', 'model'],
  video: [...EVERY, 'size', 'duration', 'audio', 'out', 'overwrite', 'poll-ms'],
  task: [...EVERY, 'out', 'overwrite', 'poll-ms'],
  bot: [...EVERY, 'topic', 'model', 'out', 'overwrite', 'poll-ms'],
}

/** The most positional arguments each command takes after its name (text with spaces comes quoted, as one). */
const MOST_ARGUMENTS: Readonly<Record<string, number>> = { help: 1, sim: 0, respond: 1, video: 1, task: 2, bot: 1 }

/** The command line read: the flags' values and the positionals, the command first. */
export type ReadArgs = ReturnType<typeof parseArgs<{ options: typeof FLAGS; allowPositionals: true }>>

/**
 * Reads the command line, strictly: a flag rxgate does not know, a flag of
 * another command, a flag that needs a value and has none, or a value given
 * to a switch is a {@link UsageError} naming the flag (and the command) in
 * one line. Node's own parser messages are never shown.
 *
 * @example
 * ```ts
 * readArgs(['respond', 'hi', '--size', '1280x720'])
 * // throws UsageError: --size is not a flag of rxgate respond
 * ```
 */
export function readArgs(argv: readonly string[], isCommand: (name: string) => boolean): { args: ReadArgs; command: string } {
  const { tokens } = parseArgs({ args: [...argv], options: FLAGS, allowPositionals: true, strict: false, tokens: true })
  const first = tokens.find((t) => t.kind === 'positional')
  const command = first && first.kind === 'positional' && isCommand(first.value) ? first.value : 'main'
  const allowed = COMMAND_FLAGS[command] ?? COMMAND_FLAGS.main!
  for (const token of tokens) {
    if (token.kind !== 'option') continue
    const flag = token.rawName
    if (!Object.hasOwn(FLAGS, token.name)) throw new UsageError(`unknown flag ${flag}`)
    if (!allowed.includes(token.name as FlagName)) throw new UsageError(command === 'main' ? `${flag} needs a command` : `${flag} is not a flag of rxgate ${command}`)
    const type = FLAGS[token.name as FlagName].type
    if (type === 'string' && (token.value === undefined || token.value.trim() === '' || (!token.inlineValue && token.value.startsWith('-') && token.value.length > 1))) throw new UsageError(`${flag} needs a value`)
    if (type === 'boolean' && token.inlineValue) throw new UsageError(`${flag} takes no value`)
  }
  const given = tokens.filter((t) => t.kind === 'positional').length - (command === 'main' ? 0 : 1)
  const most = MOST_ARGUMENTS[command]
  if (most !== undefined && given > most) {
    throw new UsageError(`rxgate ${command} takes ${most === 0 ? 'no argument' : most === 1 ? 'one argument' : `${most} arguments`} (got ${given}); quote text that has spaces`)
  }
  try {
    return { args: parseArgs({ args: [...argv], options: FLAGS, allowPositionals: true }), command }
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/'/g, '"'))
  }
}
