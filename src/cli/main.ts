import { NEVER } from 'rxjs'
import { isInvalidRequestError } from '../errors/InvalidRequestError.js'
import { startSimulator } from '../sim/index.js'
import { bot, checkTask, checkVideo, respond, task, video, type Command, type Io } from './commands.js'
import { readArgs } from './flags.js'
import { connect, SIMULATOR_POLL_MS, type Connection } from './env.js'
import { HELP, isCommand } from './help.js'
import { maskedOutput } from './maskedOutput.js'
import { createProgress } from './progress.js'
import { EXIT, runToExit } from './run.js'
import { sentence } from './sentence.js'
import { terminalText } from './terminalText.js'
import { cancelHint, errorHint, urlNote } from './hints.js'
import type { CliState } from './taskView.js'
import { UsageError } from './usageError.js'
import { wholeNumber } from './wholeNumber.js'

/** Runs the CLI with `argv` (without node and script) and resolves with the exit code. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  // Everything printed passes through the mask: the gateway's words (text, ids, model names, errors) may echo the key.
  const secret = env.GATEWAY_API_KEY?.trim()
  // A terminal does not run the gateway's escapes: stdout as it came when piped (`> out.txt`), shown as escapes on a TTY;
  // stderr's lines always, as a log is read on a terminal later.
  const stdout = maskedOutput((text) => process.stdout.write(process.stdout.isTTY ? terminalText(text) : text), secret)
  const stderr = maskedOutput((text) => process.stderr.write(text), secret)
  const log = (line: string) => stderr.write(`${terminalText(line)}\n`)
  const bad = (line: string, usage = HELP.main) => {
    log(`rxgate: ${sentence(line)}${usage ? `\n\n${usage}` : ''}`)
    return EXIT.badInput
  }
  // Anything else (a bug, a broken environment) is one line through the mask too, never a stack that may quote the key.
  const unexpected = (err: unknown) => {
    log(unexpectedLine(err))
    return EXIT.failed
  }
  let parsed
  try {
    parsed = readArgs(argv, isCommand)
  } catch (err) {
    const usage = (command: string) => HELP[command] ?? HELP.main
    return bad((err as Error).message, usage(argv.find((a) => isCommand(a)) ?? 'main'))
  }
  const { values: flags, positionals } = parsed.args
  const [name = '', ...args] = positionals
  if (name === 'help' && !flags.help) {
    // `rxgate help [command]` is `rxgate [command] --help`.
    if (args[0] !== undefined && !isCommand(args[0])) return bad(`unknown command ${JSON.stringify(args[0])}`)
    process.stdout.write(`${HELP[args[0] ?? 'main']}\n`)
    return EXIT.ok
  }
  if (!name) {
    process.stdout.write(`${HELP.main}\n`)
    return EXIT.ok
  }
  if (!isCommand(name)) return bad(`unknown command ${JSON.stringify(name)}`)
  if (flags.help) {
    process.stdout.write(`${HELP[name]}\n`)
    return EXIT.ok
  }
  const pollMs = flags['poll-ms'] === undefined ? undefined : wholeNumber(flags['poll-ms'])
  if (pollMs !== undefined && !(Number.isInteger(pollMs) && pollMs >= 1 && pollMs <= 3_600_000)) {
    return bad(`--poll-ms must be a whole number of milliseconds from 1 to 3600000 (got ${JSON.stringify(flags['poll-ms'])})`, HELP[name])
  }
  if (flags.overwrite && flags.out === undefined && name !== 'bot') return bad('--overwrite needs --out DIR: it replaces a file --out would save over', HELP[name])
  if (name === 'sim') {
    const port = wholeNumber(flags.port ?? '0')
    if (!Number.isInteger(port) || port < 0 || port > 65535) return bad(`sim: --port must be an integer from 0 to 65535 (got ${JSON.stringify(flags.port)})`, '')
    return runSimulator(port, Boolean(flags.json), log)
  }

  const needed = { respond: 1, video: 1, task: 2, bot: 0 }[name] ?? 0
  if (args.length < needed) {
    log(`rxgate ${name}: missing argument.\n${HELP[name]}`)
    return EXIT.badInput
  }
  try {
    // Bad input is refused before an embedded simulator starts or anything is sent.
    if (name === 'video') checkVideo(args[0]!, flags)
    if (name === 'task') checkTask(args[0]!)
  } catch (err) {
    if (!isInvalidRequestError(err)) return unexpected(err)
    return bad(`${err.name}: ${err.message}`, '')
  }
  const progress = createProgress({ isTTY: process.stderr.isTTY, write: (text: string) => stderr.write(text) })
  const json = Boolean(flags.json)
  const state: CliState = {}
  const io: Io = {
    out: (text) => stdout.write(text),
    text: (text) => (json ? progress.write(text) : stdout.write(text)),
    progress,
    json,
    state,
  }
  let connection: Connection | undefined
  try {
    connection = await connect(env, log, { sim: Boolean(flags.sim), ...(pollMs === undefined ? {} : { pollMs }) })
    const embedded = connection.embedded
    // `bot` saves under ./out without --out: its hints name that folder, so the command they print saves the video too.
    const out = name === 'bot' ? (flags.out ?? 'out') : flags.out
    const hooks = {
      log,
      onCancel: () => (state.task ? cancelHint(state.task.endpoint, state.task.id, embedded, out) : []),
      onError: (error: unknown) => errorHint(error, embedded, out, state),
    }
    const exec = async <T>(command: Command<T>) => {
      const code = await runToExit(command.run$, command.print, hooks)
      if (code === EXIT.ok && embedded && name !== 'respond') urlNote(log, name === 'bot' || flags.out !== undefined)
      return code
    }
    const { gateway } = connection
    switch (name) {
      case 'respond':
        return await exec(respond(gateway, args[0]!, { model: flags.model, stream: Boolean(flags.stream) }, io))
      case 'video':
        return await exec(video(gateway, args[0]!, flags, io))
      case 'task':
        return await exec(task(gateway, args[0]!, args[1]!, flags, io))
      default:
        return await exec(bot(gateway, { topic: args[0] ?? flags.topic, model: flags.model, out: out ?? 'out', overwrite: Boolean(flags.overwrite) }, io))
    }
  } catch (err) {
    // Bad input found before anything ran (environment, a client option): one line, exit 2.
    if (err instanceof UsageError || isInvalidRequestError(err)) {
      log(`rxgate: ${sentence(err instanceof UsageError ? err.message : `${err.name}: ${err.message}`)}`)
      return EXIT.badInput
    }
    return unexpected(err)
  } finally {
    stdout.flush()
    progress.stop()
    await connection?.close().catch(unexpected)
    stderr.flush()
  }
}

/** The line that reports a failure the CLI has no words for: the error's name and message, or the value itself, on one line with nothing a terminal acts on (mask it before printing). */
export function unexpectedLine(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err)
  return `rxgate: unexpected failure: ${sentence(terminalText(text, { oneLine: true }))}`
}

async function runSimulator(port: number, json: boolean, log: (line: string) => void): Promise<number> {
  let sim
  try {
    sim = await startSimulator({ port })
  } catch (err) {
    log(`rxgate sim: ${sentence(`cannot listen on port ${port}: ${(err as Error).message}`)}`)
    return EXIT.failed
  }
  // Ctrl-C is listened for before anything is printed: a script may send it as soon as it reads the URL.
  const running = runToExit(NEVER, () => {}, { log })
  process.stdout.write(json ? `${JSON.stringify({ GATEWAY_BASE_URL: sim.url, GATEWAY_API_KEY: sim.apiKey })}\n` : `GATEWAY_BASE_URL=${sim.url}\nGATEWAY_API_KEY=${sim.apiKey}\n`)
  log(`rxgate: simulator running; its tasks finish in about 1.5 s, so pass --poll-ms ${SIMULATOR_POLL_MS} to rxgate video or rxgate task to see every step. Ctrl-C stops it.`)
  const code = await running
  await sim.close()
  // Ctrl-C or kill is how the simulator is meant to stop; a closed terminal ends it by SIGHUP (index.ts).
  return code === EXIT.cancelled || code === EXIT.terminated ? EXIT.ok : code
}
