import { parseArgs } from 'node:util'
import { NEVER } from 'rxjs'
import { InvalidRequestError } from '../errors/InvalidRequestError.js'
import { startSimulator } from '../sim/index.js'
import { bot, respond, task, video, type Command, type Io } from './commands.js'
import { connect } from './env.js'
import { createProgress } from './progress.js'
import { EXIT, runToExit } from './run.js'

const HELP: Record<string, string> = {
  main: `rxgate: call a generative-model gateway from the terminal.

Usage: rxgate <command> [options]

Commands:
  sim [--port N]                          run the gateway simulator until Ctrl-C
  respond "<text>" [--stream] [--model M] create a model response
  video "<prompt>" [--size WxH] [--duration 5|10] [--out DIR]
                                          create a text-to-video task and follow it
  task <endpoint> <id>                    follow an existing task (endpoint: t2vSpark, videoOne,
                                          i2vSpark, videoTwo, imageEdit, i2iPreview or vendor/model)
  bot [--topic T] [--out DIR]             write a video prompt, render it, save the video

Every command takes --json (machine-readable stdout) and --help.
The gateway is GATEWAY_BASE_URL with GATEWAY_API_KEY; without them an embedded
simulator is started. Exit codes: 0 done, 1 gateway or task failure, 2 bad input, 130 cancelled.`,
  sim: 'Usage: rxgate sim [--port N]\nRuns the gateway simulator on 127.0.0.1 and prints its URL and API key. Ctrl-C stops it.',
  respond: 'Usage: rxgate respond "<text>" [--stream] [--model M] [--json]\nCreates a model response and prints its text (streamed as it arrives with --stream).',
  video:
    'Usage: rxgate video "<prompt>" [--size 1280*720] [--duration 5|10] [--out DIR] [--json]\n' +
    'Creates a text-to-video task, shows its progress on stderr, prints the video URLs; with --out, saves the video under DIR.',
  task: 'Usage: rxgate task <endpoint> <id> [--json]\nFollows an existing task until it ends and prints its result URLs.',
  bot: 'Usage: rxgate bot [--topic T] [--model M] [--out DIR] [--json]\nStreams a response that writes a video prompt, renders it, and saves the video under DIR (default ./out).',
}

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
  stream: { type: 'boolean' },
  model: { type: 'string', default: 'gpt-4.1-mini' },
  port: { type: 'string' },
  size: { type: 'string' },
  duration: { type: 'string' },
  out: { type: 'string' },
  topic: { type: 'string', default: 'a lighthouse keeper at dawn' },
} as const

/** Runs the CLI with `argv` (without node and script) and resolves with the exit code. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const log = (line: string) => process.stderr.write(`${line}\n`)
  let parsed
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true })
  } catch (err) {
    log(`rxgate: ${(err as Error).message}\n\n${HELP.main}`)
    return EXIT.badInput
  }
  const { values: flags, positionals } = parsed
  const [name = '', ...args] = positionals
  if (!name || (flags.help && !HELP[name])) {
    ;(name ? process.stderr : process.stdout).write(`${HELP.main}\n`)
    return name ? EXIT.badInput : EXIT.ok
  }
  if (!HELP[name] || name === 'main') {
    log(`rxgate: unknown command ${JSON.stringify(name)}\n\n${HELP.main}`)
    return EXIT.badInput
  }
  if (flags.help) {
    process.stdout.write(`${HELP[name]}\n`)
    return EXIT.ok
  }
  if (name === 'sim') {
    const port = Number(flags.port ?? 0)
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      log(`rxgate sim: --port must be an integer from 0 to 65535 (got ${JSON.stringify(flags.port)})`)
      return EXIT.badInput
    }
    return runSimulator(port, log)
  }

  const needed = { respond: 1, video: 1, task: 2, bot: 0 }[name] ?? 0
  if (args.length < needed) {
    log(`rxgate ${name}: missing argument\n${HELP[name]}`)
    return EXIT.badInput
  }
  const progress = createProgress(process.stderr)
  const io: Io = { out: (text) => process.stdout.write(text), progress, json: Boolean(flags.json) }
  const connection = await connect(env, log)
  const exec = <T>(command: Command<T>) => runToExit(command.run$, command.print, log)
  try {
    switch (name) {
      case 'respond':
        return await exec(respond(connection.gateway, args[0]!, { model: flags.model, stream: Boolean(flags.stream) }, io))
      case 'video':
        return await exec(video(connection.gateway, args[0]!, flags, io))
      case 'task':
        return await exec(task(connection.gateway, args[0]!, args[1]!, io))
      default:
        return await exec(bot(connection.gateway, { topic: args[0] ?? flags.topic, model: flags.model, out: flags.out ?? 'out' }, io))
    }
  } catch (err) {
    if (!(err instanceof InvalidRequestError)) throw err
    log(`rxgate: ${err.message}`)
    return EXIT.badInput
  } finally {
    progress.stop()
    await connection.close()
  }
}

async function runSimulator(port: number, log: (line: string) => void): Promise<number> {
  let sim
  try {
    sim = await startSimulator({ port })
  } catch (err) {
    log(`rxgate sim: cannot listen on port ${port}: ${(err as Error).message}`)
    return EXIT.failed
  }
  process.stdout.write(`GATEWAY_BASE_URL=${sim.url}\nGATEWAY_API_KEY=${sim.apiKey}\n`)
  log('rxgate: simulator running; Ctrl-C stops it.')
  const code = await runToExit(NEVER, () => {}, log)
  await sim.close()
  return code === EXIT.cancelled ? EXIT.ok : code
}
